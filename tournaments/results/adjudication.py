"""Adjudication jobs: the rules engine replays a report's log and its verdict is kept with the report.
A job (tournaments/results/tasks.py) runs `adjudicate` once per adjudication, idempotently: a
redelivered or retried job writes once. A verdict that contradicts the report disputes it at once;
one that agrees marks it "checked", and it still waits for the opponent (tournaments/results/reporting.py).
"""
from __future__ import annotations

import logging
import os
import time

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments import audit, trust
from tournaments.models import Adjudication, Report
from tournaments.results import outbox
from tournaments.results.agreement import compare_with_report
from tournaments.results.reporting import BEING_ADJUDICATED

logger = logging.getLogger(__name__)


def _engine():
    import rules_engine

    return rules_engine


def run_engine(replay_text):
    """The verdict as a dict and the milliseconds the engine took."""
    engine = _engine()
    started = time.perf_counter()
    verdict = engine.adjudicate(replay_text).to_dict()
    return verdict, (time.perf_counter() - started) * 1000


def _test_delay():
    """Seconds to wait inside a job before adjudicating; only crash-recovery drills set it."""
    try:
        return float(os.environ.get("OPP_ADJUDICATION_DELAY", "0") or 0)
    except ValueError:
        return 0.0


ENDED = (Adjudication.State.DONE, Adjudication.State.FAILED)


def _job_report(adjudication_id):
    """The job's report with its replay, its adjudication, and what the comparison, the audit entry
    and the mails read (battle, event, the two generals), in one SELECT, not locked: the writes below
    are conditional, so they need no lock. The battle's group or season (its name, for the audit entry
    and the mails) is read on its own when first used: joined here (two LEFT JOINs) they made this
    SELECT cost PostgreSQL 10-40 ms to plan instead of 1-2 ms (docs/performance.md, section 4)."""
    report = (Report.objects.select_related("adjudication", "battle", "battle__event", "battle__general_a",
                                            "battle__general_b")
              .filter(adjudication__pk=adjudication_id).order_by().first())
    if report is not None:  # the report's generals are the battle's: no lazy reads for them
        battle = report.battle
        by_id = {battle.general_a_id: battle.general_a, battle.general_b_id: battle.general_b}
        for field in ("winner", "player_1", "forfeited_by"):
            general = by_id.get(getattr(report, f"{field}_id"))
            if general is not None:
                setattr(report, field, general)
    return report


def _reporting_general(report):
    """`trust.reporting_general` without its query: a user has at most one general, so the reporter's
    general is the battle's general that belongs to them (None for an organizer's report)."""
    battle = report.battle
    return next((general for general in (battle.general_a, battle.general_b)
                 if general.user_id is not None and general.user_id == report.reported_by_id), None)


def adjudicate(adjudication_id):
    """The job. Safe to run twice or concurrently (a redelivered message, a retry): the verdict and
    the report's status change are written once, by whichever run finishes first.

    Its statements (docs/performance.md, section 4): one SELECT (the report, its replay and battle);
    taking the job, one transaction of two conditional UPDATEs (the attempt counted and the adjudication
    running; the report being adjudicated), so a worker that dies mid-job leaves them visible; the
    verdict, one transaction: a conditional UPDATE of the adjudication (the run that changes it writes
    the verdict; any other stops), a conditional UPDATE of the report (its status changes once), and
    for a dispute the audit entry; `outbox.verdict_written` tells the notifications, which mail after
    the commit."""
    report = _job_report(adjudication_id)
    if report is None:
        return "missing"
    adjudication = report.adjudication
    if adjudication.state in ENDED:
        return "already done"
    with transaction.atomic():  # one commit (each costs the disk a flush), not one a statement
        taken = Adjudication.objects.filter(pk=adjudication.pk).exclude(state__in=ENDED).update(
            state=Adjudication.State.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1)
        if not taken:
            return "already done"
        Report.objects.filter(pk=report.pk, status=Report.Status.QUEUED).update(
            status=Report.Status.ADJUDICATING)

    delay = _test_delay()
    if delay:
        time.sleep(delay)
    verdict, engine_ms = run_engine(report.replay)
    comparison = compare_with_report(report, verdict)
    done = {"state": Adjudication.State.DONE, "verdict": verdict, "engine_version": _engine().ENGINE_VERSION,
            "agrees": comparison.agrees, "disagreement": comparison.sentence, "finished_at": timezone.now(),
            "engine_ms": engine_ms, "last_error": ""}
    if comparison.agrees:  # evidence, not proof: the opponent still confirms (or the window passes)
        reporter = _reporting_general(report)
        opponent = report.battle.opponent_of(reporter) if reporter is not None else None
        status = {"status": Report.Status.CHECKED,
                  "status_reason": (f"Checked by the engine, waiting for {opponent.name}." if opponent
                                    else "Checked by the engine.")}
        # The window measures the opponent's time: it starts now that the verdict is in. Nobody can
        # answer for an unclaimed general: an organizer decides (an account deactivated meanwhile is
        # caught when the window ends, `confirmation.confirm_expired`).
        if opponent is not None and opponent.user_id is None:
            status["status_reason"] = f"Checked by the engine. {trust.cannot_answer(opponent)}"
        elif opponent is not None:
            status["confirm_by"] = done["finished_at"] + report.battle.event.confirmation_window
        if report.player_1_id is None and comparison.player_1 is not None:
            status["player_1"] = comparison.player_1
    else:
        status = {"status": Report.Status.DISPUTED, "status_reason": comparison.sentence,
                  "dispute_turn": comparison.turn, "confirm_by": None}
    with transaction.atomic():
        if not Adjudication.objects.filter(pk=adjudication.pk).exclude(state__in=ENDED).update(**done):
            return "already done"
        changed = Report.objects.filter(pk=report.pk, status__in=BEING_ADJUDICATED).update(
            updated_at=done["finished_at"], **status)
        if changed and not comparison.agrees:
            audit.record(report.battle.event, None, "report disputed by the engine",
                         audit.battle_subject(report.battle), reason=comparison.sentence)
        for name, value in done.items():
            setattr(adjudication, name, value)
        if changed:
            for name, value in status.items():
                setattr(report, name, value)
        # The rows are written with UPDATE, which sends no post_save: the notifications hear it here.
        outbox.verdict_written.send(Adjudication, adjudication=adjudication, report=report if changed else None)
    if not changed:
        return "report already decided"
    return "checked" if comparison.agrees else "disputed"


def mark_failed(adjudication_id, error):
    """A job that keeps failing: the error is shown and the report stays as reported."""
    with transaction.atomic():
        adjudication = Adjudication.objects.select_for_update().filter(pk=adjudication_id).first()
        if adjudication is None or adjudication.state == Adjudication.State.DONE:
            return
        adjudication.state, adjudication.last_error = Adjudication.State.FAILED, str(error)[:2000]
        adjudication.finished_at = timezone.now()
        adjudication.save()
        Report.objects.filter(pk=adjudication.report_id,
                              status__in=BEING_ADJUDICATED).update(
            status=Report.Status.FAILED,
            status_reason=f"Adjudication failed ({str(error)[:300]}); an organizer decides the report.")


def readjudicate(adjudication_id):
    """Runs a stored replay through the current engine again; returns what changed, if anything."""
    adjudication = Adjudication.objects.select_related("report").get(pk=adjudication_id)
    verdict, engine_ms = run_engine(adjudication.report.replay)
    with transaction.atomic():
        adjudication = Adjudication.objects.select_for_update().get(pk=adjudication_id)
        old = adjudication.verdict
        changed = old != verdict
        if changed:
            adjudication.previous_verdict, adjudication.verdict = old, verdict
        adjudication.engine_version, adjudication.engine_ms = _engine().ENGINE_VERSION, engine_ms
        adjudication.save()
    return {"adjudication": adjudication_id, "report": adjudication.report_id, "changed": changed,
            "before": old if changed else None, "after": verdict if changed else None}
