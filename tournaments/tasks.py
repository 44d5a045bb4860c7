"""Celery jobs. Acknowledged late (settings), so a worker that dies mid-job loses nothing;
`reporting.adjudicate` is idempotent, so a redelivered or retried job writes once."""
import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from tournaments import reporting

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError)
MAX_RETRIES = 5


# ignore_result: nothing reads a job's return value (the verdict is in the database), so no write to Redis.
@shared_task(bind=True, name="tournaments.adjudicate_report", max_retries=MAX_RETRIES, acks_late=True,
             ignore_result=True)
def adjudicate_report(self, adjudication_id):
    # In-process (no REDIS_URL) the retries run here, one after another; a worker re-queues with back-off.
    attempts = self.max_retries + 1 if self.request.is_eager else 1
    for attempt in range(attempts):
        retries = self.request.retries + attempt
        try:
            return reporting.adjudicate(adjudication_id)
        except TRANSIENT as error:
            if retries >= self.max_retries:
                reporting.mark_failed(adjudication_id, f"gave up after {retries + 1} attempts: {error}")
                return "failed"
            if not self.request.is_eager:
                raise self.retry(exc=error, countdown=min(60, 2 ** retries)) from error
        except SoftTimeLimitExceeded:
            reporting.mark_failed(adjudication_id, "the replay took longer to adjudicate than the time limit")
            return "failed"
        except Exception as error:  # not transient: retrying would fail the same way
            logger.exception("adjudication %s failed", adjudication_id)
            reporting.mark_failed(adjudication_id, f"{type(error).__name__}: {error}")
            return "failed"
    return "failed"


@shared_task(bind=True, name="tournaments.readjudicate", max_retries=MAX_RETRIES, acks_late=True)
def readjudicate(self, adjudication_id):
    try:
        return reporting.readjudicate(adjudication_id)
    except TRANSIENT as error:
        raise self.retry(exc=error, countdown=min(60, 2 ** self.request.retries)) from error
