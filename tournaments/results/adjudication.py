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
from django.utils import timezone

from tournaments import audit, trust
from tournaments.models import Adjudication, Report
from tournaments.results import job_sql, outbox
from tournaments.results.agreement import compare_with_report

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


def _reporting_general(report):
    """`trust.reporting_general` without its query: a user has at most one general, so the reporter's
    general is the battle's general that belongs to them (None for an organizer's report)."""
    battle = report.battle
    return next((general for general in (battle.general_a, battle.general_b)
                 if general.user_id is not None and general.user_id == report.reported_by_id), None)


def adjudicate(adjudication_id):
    """The job. Safe to run twice or concurrently (a redelivered message, a retry, the same id twice in
    a batch, two batches racing): the verdict and the report's status change are written once, by
    whichever run finishes first.

    Its statements on PostgreSQL (docs/performance.md, section 4; `job_sql` says why they are written by
    hand): taking the job, ONE statement in its own commit (the attempt counted and the adjudication
    running, the report being adjudicated, and everything the job reads), so a worker that dies mid-job
    leaves them visible; a job that has ended stops there ("already done", one statement). The verdict,
    one transaction: ONE statement writes the verdict if this run is the first to finish the job and
    changes the report's status if it is still being adjudicated, then for a dispute the audit entry;
    `outbox.verdict_written` tells the notifications (the mails' rows, in the same transaction) and the
    webhooks."""
    report = job_sql.take(adjudication_id)
    if report is None:
        return "already done"
    adjudication = report.adjudication

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
    status["updated_at"] = done["finished_at"]
    with transaction.atomic():
        written, changed = job_sql.write_verdict(adjudication.pk, report.pk, done, status)
        if not written:
            return "already done"
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
                              status__in=Report.BEING_ADJUDICATED_STATUSES).update(
            status=Report.Status.FAILED,
            status_reason=f"Adjudication failed ({str(error)[:300]}); an organizer decides the report.")


def readjudicate(adjudication_id):
    """Runs a stored replay through the current engine again; returns what changed, if anything."""
    return readjudicate_many([adjudication_id])[0]


def readjudicate_many(adjudication_ids):
    """Re-adjudicates many stored replays (a batch of `manage.py readjudicate`): one read of their replays,
    the engine on each, then one transaction that locks the batch's adjudications (in id order, so two
    batches racing over the same ids wait for each other instead of deadlocking), keeps the previous
    verdict of each one whose verdict changed and writes them in one UPDATE. An id twice counts once; of
    two batches racing, the second finds the verdict written and reports it unchanged. Returns, in the
    order given, a dict an id: what changed, or the engine's error (`error`)."""
    ids = list(dict.fromkeys(adjudication_ids))
    replays = dict(Adjudication.objects.filter(pk__in=ids).values_list("pk", "report__replay"))
    found, results = {}, {}
    for pk in ids:
        if pk not in replays:
            results[pk] = {"adjudication": pk, "error": "no such adjudication"}
            continue
        try:
            found[pk] = run_engine(replays[pk])
        except Exception as error:  # noqa: BLE001 - one broken replay does not stop the batch
            logger.exception("re-adjudication %s failed", pk)
            results[pk] = {"adjudication": pk, "error": f"{type(error).__name__}: {error}"}
    version = _engine().ENGINE_VERSION
    with transaction.atomic():
        rows = list(Adjudication.objects.select_for_update().filter(pk__in=list(found)).order_by("pk")
                    .only("pk", "report_id", "verdict", "previous_verdict", "engine_version", "engine_ms"))
        for row in rows:
            verdict, engine_ms = found[row.pk]
            old = row.verdict
            changed = old != verdict
            if changed:
                row.previous_verdict, row.verdict = old, verdict
            row.engine_version, row.engine_ms = version, engine_ms
            results[row.pk] = {"adjudication": row.pk, "report": row.report_id, "changed": changed,
                               "before": old if changed else None, "after": verdict if changed else None}
        # bulk_update sends no post_save: nobody is told of a re-adjudication (the command lists them).
        Adjudication.objects.bulk_update(rows, ["verdict", "previous_verdict", "engine_version", "engine_ms"])
    gone = {"error": "no such adjudication"}  # deleted between the read and the lock
    return [results.get(pk) or {"adjudication": pk, **gone} for pk in ids]
