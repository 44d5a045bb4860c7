from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Organized play"

    def ready(self):
        from tournaments import signals  # noqa: F401  (connects the receivers)
