"""The happenings webhooks hear of, found where the services write them, and queued inside the
transaction of the change: a step rolled back queues nothing, a step committed has its `WebhookDelivery`
rows (the durable record), and only after the commit are they handed to a job (`opp.background`). The
request never waits for a receiver.

- pairings published: the audit entries of steps that schedule battles (`notifications.PAIRING_ACTIONS`);
- report waiting: a report (or a table's report) waiting for the opponent's confirmation, as the
  notifications see it (a report saved awaiting the opponent, or checked by the engine's job);
- result counted: the audit entries that record, correct or override a battle's or a table's result
  (`results.recording.record_result`, `swiss.tables`);
- standings changed: those, a disqualification and a drop;
- event finished: the Victor crowned, or the event complete without a single winner.

Which endpoints listen is `listeners`' cached list, so the steps of a site without webhooks pay no query.
Queueing never breaks the step that caused it: a fault is logged.
"""
from __future__ import annotations

import logging
import uuid
from functools import partial, wraps

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from opp.background import run_later
from tournaments import audit
from tournaments.models import (
    AuditEntry,
    Battle,
    Report,
    Table,
    TableReport,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.notifications import PAIRING_ACTIONS
from tournaments.results import outbox
from tournaments.webhooks import payloads, tasks
from tournaments.webhooks.listeners import active_endpoints, forget, listening

logger = logging.getLogger(__name__)

Kind = WebhookEndpoint.Kind

RESULT_ACTIONS = frozenset({"result recorded", "result corrected", "report overridden", "table result recorded",
                            "table result corrected"})
STANDINGS_ACTIONS = RESULT_ACTIONS | {"disqualified", "dropped"}
FINISH_ACTIONS = frozenset({"victor crowned", "complete", "complete without victor"})

# --- queueing -------------------------------------------------------------------------------------------

def queue(event, kind, key, make_data) -> list[str]:
    """Writes one delivery of `kind` per listening endpoint (once per endpoint and `key`) with the body
    `make_data()` gives, and hands them to the job after the commit. The delivery ids queued."""
    endpoint_ids = listening(event, kind)
    if not endpoint_ids:
        return []
    try:
        with transaction.atomic():  # a savepoint: a fault here leaves the step's transaction usable
            data = make_data()
            now = timezone.now()
            rows = []
            for endpoint_id in endpoint_ids:
                delivery_id = uuid.uuid4()
                rows.append(WebhookDelivery(endpoint_id=endpoint_id, delivery_id=delivery_id, key=key[:120], kind=kind,
                                            body=payloads.envelope(kind, delivery_id, event, data),
                                            next_attempt_at=now))
            WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)  # a key queued before stays once
    except Exception:  # noqa: BLE001 - a webhook never breaks the step that caused it
        logger.exception("webhook %s for %s not queued", key, event.slug)
        return []
    queued = [str(row.delivery_id) for row in rows]
    transaction.on_commit(partial(hand_off, queued), robust=True)
    return queued


def hand_off(delivery_ids) -> None:
    """Sends each delivery's job; a broker that does not answer leaves them to the sweep."""
    for delivery_id in delivery_ids:
        try:
            run_later(tasks.deliver_webhook, delivery_id)
        except Exception as error:  # noqa: BLE001 - the row is due: the sweep sends it
            logger.warning("webhook delivery %s left to the sweep: %s", delivery_id, error)


# --- the receivers --------------------------------------------------------------------------------------

def never_breaks(receiver_function):
    """A receiver's fault is logged, never raised into the step (or the adjudication job) that sent it."""
    @wraps(receiver_function)
    def guarded(*args, **kwargs):
        try:
            receiver_function(*args, **kwargs)
        except Exception:  # noqa: BLE001 - webhooks are a follower of the step, never a part of it
            logger.exception("webhook receiver %s failed", receiver_function.__name__)
    return guarded


@receiver(post_save, sender=AuditEntry, dispatch_uid="webhooks.audit_written")
@never_breaks
def audit_written(sender, instance, created, raw=False, **kwargs):
    if not created or raw:
        return
    entry, event, action = instance, instance.event, instance.action
    if action in PAIRING_ACTIONS:
        queue(event, Kind.PAIRINGS_PUBLISHED, f"{Kind.PAIRINGS_PUBLISHED}:audit:{entry.pk}",
              lambda: {"action": action, "subject": entry.subject, **payloads.battles_to_play(event)})
    if action in RESULT_ACTIONS:
        queue(event, Kind.RESULT_COUNTED, f"{Kind.RESULT_COUNTED}:audit:{entry.pk}",
              lambda: payloads.result_counted(event, action, *decided_by(entry)))
    if action in STANDINGS_ACTIONS:
        queue(event, Kind.STANDINGS_CHANGED, f"{Kind.STANDINGS_CHANGED}:audit:{entry.pk}",
              lambda: payloads.standings_changed(event, action))
    if action in FINISH_ACTIONS:
        queue(event, Kind.EVENT_FINISHED, f"{Kind.EVENT_FINISHED}:event:{event.pk}",
              lambda: payloads.event_finished(event))


def decided_by(entry) -> tuple[Battle | None, Table | None]:
    """The battle (or table) whose result the audit entry records: the event's latest decided one with the
    entry's subject (the entry is written right after the result is saved, in the same transaction)."""
    if entry.action.startswith("table "):
        tables = (Table.objects.filter(event_id=entry.event_id, decided_at__isnull=False)
                  .select_related("swiss_round").order_by("-decided_at", "-id")[:5])
        return None, next((table for table in tables if str(table) == entry.subject), None)
    battles = (Battle.objects.filter(event_id=entry.event_id, decided_at__isnull=False)
               .select_related(*payloads.BATTLE_FIELDS).order_by("-decided_at", "-id")[:5])
    return next((battle for battle in battles if audit.battle_subject(battle) == entry.subject), None), None


def _report_waits(report):
    if not active_endpoints():
        return  # the common case, before reading the battle and the event
    battle = report.battle
    queue(battle.event, Kind.REPORT_WAITING, f"{Kind.REPORT_WAITING}:report:{report.pk}",
          lambda: payloads.report_waiting(
              Battle.objects.select_related(*payloads.BATTLE_FIELDS).get(pk=report.battle_id), None, report))


@receiver(post_save, sender=Report, dispatch_uid="webhooks.report_saved")
@never_breaks
def report_saved(sender, instance, created, update_fields=None, raw=False, **kwargs):
    status_written = created or update_fields is None or "status" in update_fields
    if not raw and status_written and instance.status in Report.AWAITING_STATUSES:
        _report_waits(instance)


@receiver(outbox.verdict_written, dispatch_uid="webhooks.verdict_written")
@never_breaks
def verdict_written(sender, adjudication, report, **kwargs):
    # The job writes with conditional UPDATEs (no post_save) and passes what it wrote; no report when it had
    # been decided meanwhile (e.g. disputed while the engine worked): nothing waits then.
    if report is not None and report.status in Report.AWAITING_STATUSES:
        _report_waits(report)


@receiver(post_save, sender=TableReport, dispatch_uid="webhooks.table_report_saved")
@never_breaks
def table_report_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw and instance.status == TableReport.Status.AWAITING and active_endpoints():
        table = instance.table
        queue(table.event, Kind.REPORT_WAITING, f"{Kind.REPORT_WAITING}:table-report:{instance.pk}",
              lambda: payloads.report_waiting(None, table, instance))


@receiver(post_save, sender=WebhookEndpoint, dispatch_uid="webhooks.endpoint_saved")
@receiver(post_delete, sender=WebhookEndpoint, dispatch_uid="webhooks.endpoint_deleted")
@never_breaks
def endpoint_changed(sender, **kwargs):
    forget()
