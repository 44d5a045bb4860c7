from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Organized play"

    def ready(self):
        # signals, notifications and accounts connect the receivers; tasks registers the jobs that
        # tournaments.results.outbox sends by name.
        from tournaments import accounts, notifications  # noqa: F401
        from tournaments.api import signals  # noqa: F401
        from tournaments.results import tasks  # noqa: F401
