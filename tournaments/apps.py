from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Organized play"

    def ready(self):
        # signals, notifications and accounts connect the receivers; tasks registers the jobs that
        # tournaments.jobs sends by name.
        from tournaments import accounts, notifications, signals, tasks  # noqa: F401
