"""Multiplayer tables of a Swiss round (Warlord CCG, 3-4 players): seating, and a table's result by the
same trust model as a two-player battle. A seated player reports the elimination order; it counts once
every other player at the table confirmed it, when the event's confirmation window passes with no
dispute (R75: the window measures the other players' time; with a player nobody can answer for, there
is none), or when an organizer decided (with a reason when it differs from a report or corrects a
counted result). A player who disputes stops it until an organizer decides. Every step takes the
event's lock first and writes its audit entry.
"""
from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from pairings.tables import check_table_result, seat_tables
from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError
from tournaments.models import General, Table, TableReport, TableSeat, label_in_sentence
from tournaments.swiss import progress
from tournaments.timezones import duration_text


def seat_round(event, swiss_round, entrants, previous_tablemates):
    """Seats the round's tables by score, no repeat table-mates while avoidable (pairings.tables)."""
    seating = seat_tables(entrants, event.table_size, previous_tablemates)
    for number, players in enumerate(seating, start=1):
        table = Table.objects.create(event=event, swiss_round=swiss_round, number=number)
        TableSeat.objects.bulk_create([TableSeat(table=table, general_id=general, seat=seat)
                                       for seat, general in enumerate(players, start=1)])
    return seating


def previous_tablemates(event):
    mates: dict[int, set[int]] = {}
    for table in Table.objects.filter(event=event).prefetch_related("seats"):
        seated = [seat.general_id for seat in table.seats.all()]
        for general in seated:
            mates.setdefault(general, set()).update(g for g in seated if g != general)
    return {general: frozenset(others) for general, others in mates.items()}


def seated_ids(table):
    return list(table.seats.order_by("seat").values_list("general_id", flat=True))


def _names(table):
    return dict(General.objects.filter(pk__in=seated_ids(table)).values_list("pk", "name"))


def check_result(table, eliminations, finished):
    """The elimination order as the table keeps it (general ids), or a DomainError naming the players."""
    seated = seated_ids(table)
    try:
        eliminations = [int(general) for general in eliminations]
    except (TypeError, ValueError):
        raise DomainError(_("The elimination order is a list of the generals' ids, first out first."),
                          field="eliminations") from None
    left = [general for general in seated if general not in eliminations]
    winner = left[0] if finished and len(left) == 1 else None
    problems = check_table_result(seated, eliminations, winner, bool(finished))
    if finished and len(left) != 1:
        problems = problems or [_("A finished game has exactly one player left, the winner.")]
    if problems:
        names = _names(table)
        sentence = " ".join(re.sub(r"[Pp]layer (\d+)", lambda m: names.get(int(m[1]), f"general {m[1]}"), p)
                            for p in problems)
        raise DomainError(sentence, field="eliminations")
    return eliminations


def _seated_general(user, table):
    mine = trust.general_of(user)
    return mine if mine is not None and mine.pk in seated_ids(table) else None


def _claim(report):
    return (tuple(report.eliminations), report.finished)


def result_text(table, eliminations, finished):
    """A table's result in the reader's words: "Ana wins; out: Ben, then Cleo"."""
    names = _names(table)
    seated = seated_ids(table)
    left = [names[g] for g in seated if g not in eliminations]
    out = _(", then ").join(names.get(g, "?") for g in eliminations) or _("nobody")
    if finished:
        return _("%(winner)s wins; out: %(out)s") % {"winner": left[0], "out": out}
    return _("Unfinished (%(left)s still in); out: %(out)s") % {"left": ", ".join(left), "out": out}


def _recorded_table(table):
    """The table as the audit trail names it ("Swiss round 2 table 3"): in English, whoever's request writes it."""
    with translation.override(None):
        return str(table)


def _recorded_result_text(table, eliminations, finished):
    """The result as the audit trail keeps it: in English, whoever's request writes it."""
    with translation.override(None):
        return result_text(table, eliminations, finished)


@transaction.atomic
def report_table(table, *, user, eliminations, finished=True):
    """A seated player reports the table's result (it waits for every other player's confirmation), or
    an organizer records it (it counts at once). A second player's report with the same result
    confirms the first; a different one disputes both for an organizer."""
    locks.event(table.event_id)
    table = Table.objects.select_related("event", "swiss_round").get(pk=table.pk)
    organizer = trust.may_organize(user, table.event)
    mine = _seated_general(user, table)
    trust.require(mine is not None or organizer, _("Only the players at this table and the event's "
                                                   "organizers may report its result."))
    if table.is_decided:
        raise Conflict(_("This table has a counted result: only an organizer's correction changes it now."))
    eliminations = check_result(table, eliminations, finished)
    if mine is None:  # an organizer not playing here decides
        return decide_table(table, user=user, eliminations=eliminations, finished=finished, reason="")
    open_reports = list(table.reports.filter(status__in=(TableReport.Status.AWAITING, TableReport.Status.DISPUTED)))
    for older in open_reports:
        if older.reported_by_id == user.pk:
            older.status, older.status_reason = TableReport.Status.SUPERSEDED, "A newer report replaced it."
            older.confirm_by = None
            older.save(update_fields=["status", "status_reason", "confirm_by"])
    others = [r for r in open_reports if r.reported_by_id != user.pk]
    report = TableReport.objects.create(table=table, reported_by=user, eliminations=eliminations,
                                        finished=bool(finished), confirmed_by=[mine.pk],
                                        confirm_by=window_end(table, mine))
    audit.record(table.event, user, "table reported", _recorded_table(table),
                 after={"result": _recorded_result_text(table, eliminations, finished)})
    for other in others:
        if other.status == TableReport.Status.AWAITING and _claim(other) == _claim(report):
            report.status, report.confirm_by = TableReport.Status.SUPERSEDED, None
            report.status_reason = "The same result as an earlier report: counted as a confirmation of it."
            report.save(update_fields=["status", "status_reason", "confirm_by"])
            return _confirm(other, mine, user)
        if _claim(other) != _claim(report):
            why = f"{mine.name} reported another result; an organizer decides."
            for disputed in (other, report):
                disputed.status, disputed.status_reason, disputed.confirm_by = TableReport.Status.DISPUTED, why, None
                disputed.save(update_fields=["status", "status_reason", "confirm_by"])
            audit.record(table.event, user, "table disputed", _recorded_table(table), reason=why)
    return report


def window_end(table, reporter):
    """When a player's report counts by itself: the event's window from now, or None when a player at
    the table cannot answer (an unclaimed general, an account gone): then an organizer decides."""
    others = General.objects.filter(pk__in=[pk for pk in seated_ids(table) if pk != reporter.pk])
    if any(trust.cannot_answer(general) for general in others):
        return None
    return timezone.now() + table.event.confirmation_window


def expired_reports(now=None, event=None):
    reports = TableReport.objects.filter(status=TableReport.Status.AWAITING, confirm_by__lte=now or timezone.now())
    if event is not None:
        reports = reports.filter(table__event=event)
    return reports.order_by("confirm_by", "pk")


@transaction.atomic
def confirm_expired(report_pk, now, *, wait=True):
    """Counts a report whose window passed with no dispute; False when it was answered meanwhile."""
    event_id = TableReport.objects.values_list("table__event_id", flat=True).get(pk=report_pk)
    locks.event(event_id, wait=wait)
    report = TableReport.objects.select_related("table", "table__event").get(pk=report_pk)
    if report.status != TableReport.Status.AWAITING or report.confirm_by is None or report.confirm_by > now:
        return False
    silent = [g.name for g in General.objects.filter(pk__in=seated_ids(report.table))
              if g.pk not in report.confirmed_by]
    why = (f"Confirmed automatically: {', '.join(silent)} did not confirm or dispute it within "
           f"{duration_text(report.table.event.confirmation_minutes)}.")
    report.status, report.status_reason, report.confirm_by = TableReport.Status.CONFIRMED, why, None
    report.save(update_fields=["status", "status_reason", "confirm_by"])
    _count(report.table, report.eliminations, report.finished, actor=None, reason=why, attested=True)
    return True


def _confirm(report, general, user):
    if general.pk not in report.confirmed_by:
        report.confirmed_by = [*report.confirmed_by, general.pk]
        report.save(update_fields=["confirmed_by"])
    audit.record(report.table.event, user, "table confirmed", _recorded_table(report.table), after={"by": general.name})
    if set(seated_ids(report.table)) <= set(report.confirmed_by):
        report.status, report.status_reason = TableReport.Status.CONFIRMED, "Every player confirmed it."
        report.confirm_by = None
        report.save(update_fields=["status", "status_reason", "confirm_by"])
        _count(report.table, report.eliminations, report.finished, actor=user, reason="Every player confirmed it.",
               attested=True)
    return report


@transaction.atomic
def confirm_table(report, *, user):
    """Another player at the table confirms the report; once every player has, it counts."""
    locks.event(report.table.event_id)
    report = TableReport.objects.select_related("table", "table__event").get(pk=report.pk)
    mine = _seated_general(user, report.table)
    trust.require(mine is not None, _("Only the players at this table confirm its report."))
    if report.status != TableReport.Status.AWAITING:
        raise Conflict(_("This report is %(status)s: nothing to confirm.")
                       % {"status": label_in_sentence(report.get_status_display())})
    return _confirm(report, mine, user)


@transaction.atomic
def dispute_table(report, *, user, reason):
    """A player at the table disputes the report: it stays disputed until an organizer decides."""
    locks.event(report.table.event_id)
    report = TableReport.objects.select_related("table", "table__event").get(pk=report.pk)
    mine = _seated_general(user, report.table)
    trust.require(mine is not None, _("Only the players at this table dispute its report."))
    if not (reason or "").strip():
        raise DomainError(_("Say what is wrong with the report."), field="reason")
    if report.status != TableReport.Status.AWAITING:
        raise Conflict(_("This report is %(status)s: nothing to dispute.")
                       % {"status": label_in_sentence(report.get_status_display())})
    report.status, report.status_reason = TableReport.Status.DISPUTED, f"{mine.name}: {reason.strip()}"
    report.confirm_by = None
    report.save(update_fields=["status", "status_reason", "confirm_by"])
    audit.record(report.table.event, user, "table disputed", _recorded_table(report.table), reason=reason.strip())
    return report


@transaction.atomic
def decide_table(table, *, user, eliminations, finished=True, reason=""):
    """An organizer records, decides or corrects a table's result. A reason is needed to correct a
    counted result or to decide otherwise than an open report."""
    locks.event(table.event_id)
    table = Table.objects.select_related("event", "swiss_round").get(pk=table.pk)
    if user is not None:
        trust.require(trust.may_organize(user, table.event) and _seated_general(user, table) is None,
                      _("Only an organizer who does not play at this table decides its result."))
    eliminations = check_result(table, eliminations, finished)
    open_reports = table.reports.filter(status__in=(TableReport.Status.AWAITING, TableReport.Status.DISPUTED))
    differs = any(_claim(r) != (tuple(eliminations), bool(finished)) for r in open_reports)
    if (table.is_decided or differs) and not (reason or "").strip():
        raise DomainError(_("Give a reason: it corrects a counted result or decides otherwise than a "
                            "player's report, and is kept in the audit trail."), field="reason")
    open_reports.update(status=TableReport.Status.DECIDED, status_reason=reason or "Decided by an organizer.",
                        confirm_by=None)
    _count(table, eliminations, finished, actor=user, reason=reason)
    return table


def _count(table, eliminations, finished, *, actor, reason, attested=False):
    if table.event.state == table.event.State.COMPLETE:
        raise Conflict(_("%(event)s is complete: its results can no longer change.")
                       % {"event": table.event.name})
    before = {"result": _recorded_result_text(table, table.eliminations, table.finished)} if table.is_decided else None
    if table.is_decided:
        progress.refuse_table_correction(table)
    table.eliminations, table.finished, table.decided_at = list(eliminations), bool(finished), timezone.now()
    table.save(update_fields=["eliminations", "finished", "decided_at"])
    audit.record(table.event, actor, "table result corrected" if before else "table result recorded", _recorded_table(table),
                 before=before, after={"result": _recorded_result_text(table, eliminations, finished)},
                 reason=reason or ("Every player confirmed it." if attested else ""))
    progress.advance(locks.event(table.event_id), actor=actor)
