"""The Django project: settings, URLs, the Celery app and the health checks."""
from .celery import app as celery_app

__all__ = ["celery_app"]
