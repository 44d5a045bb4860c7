"""The Celery app. Broker and result backend are Redis when REDIS_URL is set; without it
tasks run in-process (eagerly), so the embedded SQLite demo needs no server."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")

app = Celery("opp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="opp.ping")
def ping():
    """Answers 'pong'; the health check and the worker tests use it to prove a worker runs."""
    return "pong"
