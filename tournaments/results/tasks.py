"""Celery outbox. Acknowledged late (settings), so a worker that dies mid-job loses nothing;
`adjudication.adjudicate` is idempotent, so a redelivered or retried job writes once.

Transient errors (the database or the broker gone for a moment) are retried by Celery itself
(`autoretry_for`) with exponential back-off; in-process (no REDIS_URL) Celery runs the retries at
once, one after another. A job that still fails after the last retry ends as failed, either way.

Bulk work goes in batches (`adjudicate_batch`, `readjudicate_batch`): many ids in one message, each
handled with the guarantees of a job of its own. A batch killed midway is delivered again (late
acknowledgement): what it finished says "already done" at the cost of one statement, and the sweep
sends again what nobody took (`outbox.sweep`)."""
import logging
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from tournaments.results import adjudication, outbox

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError)
RETRIES = {"autoretry_for": TRANSIENT, "max_retries": 5, "retry_backoff": 2, "retry_backoff_max": 30,
           "retry_jitter": True}


def _batch_seconds():
    """How long a batch works before it hands the rest on as a new batch: a third of the soft time limit,
    so that the limit (meant for one replay that takes too long) never ends a batch of healthy ones."""
    return settings.CELERY_TASK_SOFT_TIME_LIMIT / 3


TIMED_OUT = "failed (time limit)"


def _adjudicate_one(task, adjudication_id):
    """One job with the error handling of a job: a transient error is raised for Celery to retry (the
    whole message: a batch's finished jobs then stop at "already done") until the retries run out."""
    try:
        return adjudication.adjudicate(adjudication_id)
    except TRANSIENT as error:
        if task.request.retries < task.max_retries:
            raise  # autoretry_for sends it again
        adjudication.mark_failed(adjudication_id, f"gave up after {task.request.retries + 1} attempts: {error}")
        return "failed"
    except SoftTimeLimitExceeded:
        adjudication.mark_failed(adjudication_id, "the replay took longer to adjudicate than the time limit")
        return TIMED_OUT
    except Exception as error:  # not transient: retrying would fail the same way
        logger.exception("adjudication %s failed", adjudication_id)
        adjudication.mark_failed(adjudication_id, f"{type(error).__name__}: {error}")
        return "failed"


# ignore_result: nothing reads a job's return value (the verdict is in the database), so no write to Redis.
@shared_task(bind=True, name=outbox.ADJUDICATE, acks_late=True, ignore_result=True, **RETRIES)
def adjudicate_report(self, adjudication_id):
    outcome = _adjudicate_one(self, adjudication_id)
    return "failed" if outcome == TIMED_OUT else outcome


@shared_task(bind=True, name=outbox.ADJUDICATE_BATCH, acks_late=True, ignore_result=True, **RETRIES)
def adjudicate_batch(self, adjudication_ids):
    """Many jobs, one after another. An id twice in the batch runs once; a job another batch or worker
    finished, or whose report was decided meanwhile, writes nothing (`adjudication.adjudicate`)."""
    ids = list(dict.fromkeys(adjudication_ids))
    started, outcomes = time.monotonic(), {}
    for index, adjudication_id in enumerate(ids):
        if index and time.monotonic() - started > _batch_seconds():
            return _hand_on(ids[index:], outcomes)
        outcome = _adjudicate_one(self, adjudication_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if outcome == TIMED_OUT:  # the hard limit follows soon: the rest go on in a batch of their own
            return _hand_on(ids[index + 1:], outcomes)
    return outcomes


def _hand_on(rest, outcomes):
    if rest:
        outbox.send_batch(rest)  # refused: the reports keep the reason, and the sweep sends them
        outcomes["handed on"] = len(rest)
    return outcomes


@shared_task(bind=True, name="tournaments.readjudicate", acks_late=True, **RETRIES)
def readjudicate(self, adjudication_id):
    return adjudication.readjudicate(adjudication_id)


# Its return value is read (`manage.py readjudicate` lists the verdicts that changed): no ignore_result.
@shared_task(bind=True, name="tournaments.readjudicate_batch", acks_late=True, **RETRIES)
def readjudicate_batch(self, adjudication_ids):
    return adjudication.readjudicate_many(adjudication_ids)


# Celery beat runs this every OPP_SWEEP_SECONDS (settings.CELERY_BEAT_SCHEDULE).
@shared_task(name="tournaments.send_waiting_adjudications", ignore_result=True)
def send_waiting_adjudications():
    sent, unsent = outbox.sweep()
    if sent or unsent:
        logger.info("sweep: %s adjudication(s) sent, %s still waiting", sent, unsent)
    return sent
