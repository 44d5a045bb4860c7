"""Automatic confirmation: a general's report counts by itself once the event's confirmation window
passes with no dispute from the opponent (R75). The window measures the opponent's time: it starts
when they can act (at once without a replay, when the engine's verdict is in with one), and a report
nobody can answer (an unclaimed general, an inactive account) has none: an organizer decides it.

It runs three ways, so the embedded default without a worker gets there too: the periodic job
(`confirm_expired_reports`, Celery beat, every minute in production), the next page or API request
touching the event (`sweep`), and `manage.py confirm_expired`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import shared_task
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import audit, trust
from tournaments.domain import DomainError
from tournaments.models import Report, TableReport
from tournaments.results import reporting
from tournaments.swiss import tables
from tournaments.timezones import duration_text as window_text

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class AutoConfirmed:
    report: Report | TableReport
    offer_disqualification: object = None  # R68: the General whose forfeits reached the limit


def expired_reports(now=None, event=None):
    reports = Report.objects.filter(status__in=Report.AWAITING_STATUSES, confirm_by__lte=now or timezone.now())
    if event is not None:
        reports = reports.filter(battle__event=event)
    return reports.order_by("confirm_by", "pk")


def confirm_expired(now=None, event=None, *, wait=True):
    """Confirms every report whose window has passed (`now` may be given, e.g. by tests); returns
    what it confirmed, each with its R68 offer if any. A report that cannot be recorded any more
    (e.g. its event is complete) is left for the organizer and logged. Each report is confirmed in
    its own transaction under the lock order (tournaments/locks.py); one that fails (a lock another
    request holds when `wait` is false, a deadlock, any error) is logged and the next one is tried:
    it is still expired, so the next run confirms it."""
    now = now or timezone.now()
    confirmed = []
    for pk in list(expired_reports(now, event).values_list("pk", flat=True)):
        try:
            with transaction.atomic():
                report = reporting.locked_report(pk, wait=wait)
                if not report.is_awaiting_opponent or report.confirm_by is None or report.confirm_by > now:
                    continue  # answered meanwhile
                opponent = trust.opponent_of_reporter(report)
                nobody = trust.cannot_answer(opponent)
                if nobody:  # nobody counts alone: the player became unreachable meanwhile
                    report.confirm_by, report.status_reason = None, nobody
                    report.save(update_fields=["confirm_by", "status_reason", "status", "updated_at"])
                    continue
                who = opponent.name if opponent else "The opponent"
                recorded = reporting.apply_report(
                    report, None, Report.Status.CONFIRMED,
                    f"Confirmed automatically: {who} did not confirm or dispute it within "
                    f"{window_text(report.battle.event.confirmation_minutes)}.")
                confirmed.append(AutoConfirmed(report, recorded.offer_disqualification))
        except DomainError as refusal:
            logger.warning("report %s not confirmed automatically: %s", pk, refusal)
        except DatabaseError as error:  # busy (another request holds its locks) or a lost race
            logger.warning("report %s not confirmed automatically this time: %s", pk, error)
        except Exception:  # one report's failure never stops the others
            logger.exception("report %s not confirmed automatically", pk)
    for pk in list(tables.expired_reports(now, event).values_list("pk", flat=True)):
        try:  # a multiplayer table's report: the same window, the other players' time (R75)
            if tables.confirm_expired(pk, now, wait=wait):
                confirmed.append(AutoConfirmed(TableReport.objects.get(pk=pk)))
        except (DomainError, DatabaseError) as error:
            logger.warning("table report %s not confirmed automatically this time: %s", pk, error)
        except Exception:
            logger.exception("table report %s not confirmed automatically", pk)
    return confirmed


def sweep(event):
    """Called by requests that show the event's results: cheap when nothing has expired. It never
    fails the request that shows the event, nor waits for another request's locks (NOWAIT): a report
    it cannot confirm now is left to the next request or the periodic job, with a logged warning."""
    try:
        if expired_reports(event=event).exists() or tables.expired_reports(event=event).exists():
            return confirm_expired(event=event, wait=False)
    except Exception:
        logger.exception("the sweep of %s failed; the request goes on without it", getattr(event, "slug", event))
    return []


@shared_task(name="tournaments.confirm_expired_reports", ignore_result=True)
def confirm_expired_reports():
    return len(confirm_expired())


@transaction.atomic
def set_window(event, minutes, *, actor):
    """The organizer changes the event's confirmation window; reports already waiting keep theirs."""

    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if not isinstance(minutes, int) or not 1 <= minutes <= 60 * 24 * 30:
        raise DomainError(_("The confirmation window is between 1 minute and 30 days (43200 minutes)."),
                          field="confirmation_minutes")
    before = event.confirmation_minutes
    event.confirmation_minutes = minutes
    event.save(update_fields=["confirmation_minutes", "updated_at"])
    audit.record(event, actor, "confirmation window changed", event.name,
                 before={"minutes": before}, after={"minutes": minutes})
    return event
