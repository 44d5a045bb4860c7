"""Celery outbox. Acknowledged late (settings), so a worker that dies mid-job loses nothing;
`adjudication.adjudicate` is idempotent, so a redelivered or retried job writes once.

Transient errors (the database or the broker gone for a moment) are retried by Celery itself
(`autoretry_for`) with exponential back-off; in-process (no REDIS_URL) Celery runs the retries at
once, one after another. A job that still fails after the last retry ends as failed, either way."""
import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from tournaments.results import adjudication, outbox

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError)
RETRIES = {"autoretry_for": TRANSIENT, "max_retries": 5, "retry_backoff": 2, "retry_backoff_max": 30,
           "retry_jitter": True}


# ignore_result: nothing reads a job's return value (the verdict is in the database), so no write to Redis.
@shared_task(bind=True, name=outbox.ADJUDICATE, acks_late=True, ignore_result=True, **RETRIES)
def adjudicate_report(self, adjudication_id):
    try:
        return adjudication.adjudicate(adjudication_id)
    except TRANSIENT as error:
        if self.request.retries < self.max_retries:
            raise  # autoretry_for sends it again
        adjudication.mark_failed(adjudication_id, f"gave up after {self.request.retries + 1} attempts: {error}")
        return "failed"
    except SoftTimeLimitExceeded:
        adjudication.mark_failed(adjudication_id, "the replay took longer to adjudicate than the time limit")
        return "failed"
    except Exception as error:  # not transient: retrying would fail the same way
        logger.exception("adjudication %s failed", adjudication_id)
        adjudication.mark_failed(adjudication_id, f"{type(error).__name__}: {error}")
        return "failed"


@shared_task(bind=True, name="tournaments.readjudicate", acks_late=True, **RETRIES)
def readjudicate(self, adjudication_id):
    return adjudication.readjudicate(adjudication_id)


# Celery beat runs this every OPP_SWEEP_SECONDS (settings.CELERY_BEAT_SCHEDULE).
@shared_task(name="tournaments.send_waiting_adjudications", ignore_result=True)
def send_waiting_adjudications():
    sent, unsent = outbox.sweep()
    if sent or unsent:
        logger.info("sweep: %s adjudication(s) sent, %s still waiting", sent, unsent)
    return sent
