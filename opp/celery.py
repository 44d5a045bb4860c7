"""The Celery app. Broker and result backend are Redis when REDIS_URL is set; without it
tasks run in-process (eagerly), so the embedded SQLite demo needs no server."""
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")

app = Celery("opp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="opp.ping")
def ping():
    """Answers 'pong'; the health check and the worker tests use it to prove a worker runs."""
    return "pong"


@task_prerun.connect(dispatch_uid="opp.job_connections_before")
@task_postrun.connect(dispatch_uid="opp.job_connections_after")
def keep_or_close_connections(task=None, **kwargs):
    """A job is to a worker what a request is to a web process: Django's own rule decides whether its
    database connection lives on (CONN_MAX_AGE, and CONN_HEALTH_CHECKS before it is used again) or is
    closed (too old, broken, or left in a transaction). Celery's Django fixup would instead close every
    connection before and after every task unless CELERY_DB_REUSE_MAX is set (settings set it beyond
    reach): each job then opened a new PostgreSQL connection and prepared its statements again, about
    9 of a job's 14 ms in a worker (docs/performance.md, section 4). A task run at once inside a request
    (no worker: the embedded default, the tests) is part of that request, whose connection is left alone."""
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()
