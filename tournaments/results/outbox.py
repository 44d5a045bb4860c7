"""The adjudication outbox: how a job reaches the workers, and what happens when the queue is down.

A report with a replay is saved together with its `Adjudication` in state queued: that row is the
durable record of the job. The job is handed to the job queue (Celery over Redis) only after the
commit, and the row notes when (`sent_at`). If the queue does not answer, nothing fails: the report
stays queued with the reason, and the sweep (Celery beat runs `send_waiting` every
`OPP_SWEEP_SECONDS`) or `manage.py adjudicate_pending` sends it once the queue answers again. A job
is idempotent (`adjudication.adjudicate`), so sending one twice is harmless.

The job is looked up by its name in the Celery app, so this module (used by `reporting`) and the
tasks (which call `reporting`) do not import each other.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from tournaments.models import Adjudication, Report

logger = logging.getLogger(__name__)

ADJUDICATE = "tournaments.adjudicate_report"
# Many jobs in one message (`tasks.adjudicate_batch`): what the sweep and `adjudicate_pending` send, as a
# burst of waiting jobs (after an outage) costs a worker one message, one fetch and one ack a batch
# instead of a job (docs/performance.md, section 4). Each job in it keeps its guarantees (`adjudicate`).
ADJUDICATE_BATCH = "tournaments.adjudicate_batch"
BATCH_SIZE = 50
QUEUE_DOWN = (BrokerError, ConnectionError, OSError)
# Sent by `adjudication.adjudicate` inside the transaction that writes a verdict (with conditional
# UPDATEs, which send no post_save), with `adjudication` (as written) and `report` (as written, with its
# battle, event and generals; None when the report had been decided meanwhile): the notifications
# mail after the commit from these, without reading them again.
verdict_written = Signal()
QUEUE_DOWN_REASON = ("The job queue did not answer; the replay will be adjudicated when it does "
                     "(the sweep or `manage.py adjudicate_pending` sends it).")


def _celery():
    from opp.celery import app

    return app


def queue_adjudication(report) -> Adjudication:
    """Records the job with the report (same transaction) and sends it once both are committed."""
    adjudication = Adjudication.objects.create(report=report)
    transaction.on_commit(lambda: send(adjudication.pk))
    return adjudication


def send(adjudication_id) -> bool:
    """Hands one job to the queue; False (and the reason on the report) when the queue is down."""
    return _hand_over([adjudication_id], lambda: _celery().tasks[ADJUDICATE].delay(adjudication_id))


def send_batch(adjudication_ids) -> bool:
    """Hands many jobs to the queue in one message; False (and the reason on their reports) when the
    queue is down."""
    ids = list(adjudication_ids)
    return _hand_over(ids, lambda: _celery().tasks[ADJUDICATE_BATCH].delay(ids))


def _hand_over(ids, deliver) -> bool:
    try:
        deliver()
    except QUEUE_DOWN as error:
        logger.warning("adjudication(s) %s not sent, the job queue does not answer: %s", ids, error)
        Report.objects.filter(adjudication__pk__in=ids, status=Report.Status.QUEUED).update(
            status_reason=QUEUE_DOWN_REASON)
        return False
    Adjudication.objects.filter(pk__in=ids).update(sent_at=timezone.now())
    Report.objects.filter(adjudication__pk__in=ids, status=Report.Status.QUEUED,
                          status_reason=QUEUE_DOWN_REASON).update(status_reason="")
    return True


def waiting(resend_after: float | None = None):
    """Jobs still to send: never sent, or (with `resend_after` seconds) sent so long ago and still not
    taken that the message may be lost (e.g. a Redis restarted without persistence), or taken so long ago
    and never finished (far beyond the workers' hard time limit) that the worker died and its message is
    gone with it. A job sent twice writes once (`adjudication.adjudicate`)."""
    queued = Adjudication.objects.filter(state=Adjudication.State.QUEUED, report__status=Report.Status.QUEUED)
    if resend_after is None:
        return queued.order_by("pk")
    cutoff = timezone.now() - timedelta(seconds=resend_after)
    abandoned = Adjudication.objects.filter(state=Adjudication.State.RUNNING, started_at__lt=cutoff,
                                            report__status__in=Report.BEING_ADJUDICATED_STATUSES)
    return (queued.filter(sent_at__isnull=True) | queued.filter(sent_at__lt=cutoff) | abandoned).order_by("pk")


def send_waiting(resend_after: float | None = None) -> tuple[int, int]:
    """(sent, not sent) of the waiting jobs, in batches of BATCH_SIZE; stops at the first refusal, as
    the queue is down."""
    ids = list(waiting(resend_after).values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH_SIZE):
        if not send_batch(ids[start:start + BATCH_SIZE]):
            return start, len(ids) - start
    return len(ids), 0


def sweep() -> tuple[int, int]:
    """What the periodic sweep sends: jobs never sent, and jobs sent long ago that no worker took."""
    return send_waiting(resend_after=settings.OPP_RESEND_AFTER_SECONDS)


def queue_problem(timeout: float = 3.0) -> str | None:
    """Why the job queue does not answer, or None when it does (or jobs run in this process)."""
    app = _celery()
    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0.5, timeout=timeout)
    except Exception as error:  # any transport error means "does not answer"
        return str(error) or type(error).__name__
    return None
