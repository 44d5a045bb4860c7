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
    try:
        _celery().tasks[ADJUDICATE].delay(adjudication_id)
    except QUEUE_DOWN as error:
        logger.warning("adjudication %s not sent, the job queue does not answer: %s", adjudication_id, error)
        Report.objects.filter(adjudication__pk=adjudication_id, status=Report.Status.QUEUED).update(
            status_reason=QUEUE_DOWN_REASON)
        return False
    Adjudication.objects.filter(pk=adjudication_id).update(sent_at=timezone.now())
    Report.objects.filter(adjudication__pk=adjudication_id, status=Report.Status.QUEUED,
                          status_reason=QUEUE_DOWN_REASON).update(status_reason="")
    return True


def waiting(resend_after: float | None = None):
    """Jobs still to send: never sent, or (with `resend_after` seconds) sent so long ago and still not
    taken that the message may be lost (e.g. a Redis restarted without persistence)."""
    queued = Adjudication.objects.filter(state=Adjudication.State.QUEUED, report__status=Report.Status.QUEUED)
    if resend_after is None:
        return queued.order_by("pk")
    cutoff = timezone.now() - timedelta(seconds=resend_after)
    return (queued.filter(sent_at__isnull=True) | queued.filter(sent_at__lt=cutoff)).order_by("pk")


def send_waiting(resend_after: float | None = None) -> tuple[int, int]:
    """(sent, not sent) of the waiting jobs; stops at the first refusal, as the queue is down."""
    ids = list(waiting(resend_after).values_list("pk", flat=True))
    for index, adjudication_id in enumerate(ids):
        if not send(adjudication_id):
            return index, len(ids) - index
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
