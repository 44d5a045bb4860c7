from django.apps import AppConfig
from django.utils.translation import gettext, ngettext

from tournaments.domain import errors


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Organized play"

    def ready(self):
        # signals, notifications and accounts connect the receivers; tasks registers the jobs that
        # tournaments.results.outbox sends by name.
        from tournaments import accounts, notifications  # noqa: F401
        from tournaments.api import signals  # noqa: F401
        from tournaments.mailing import tasks as mail_tasks  # noqa: F401  (the mail jobs and their sweep)
        from tournaments.results import tasks  # noqa: F401
        from tournaments.webhooks import hooks  # noqa: F401  (webhook receivers, their job and its sweep)

        # the domain imports no Django: it translates its sentences with the functions handed to it here
        errors.install_translations(gettext=gettext, ngettext=ngettext)
