"""Reports of battle results, their confirmation or dispute, and adjudication by the rules engine.

A report never changes standings by itself: its result reaches the battle (through
`services.record_result`) only when it is confirmed, by the opponent, by a verdict that agrees
with it, or by an organizer. Everything a user entered is kept on the report, including the
replay text exactly as uploaded.
"""
from __future__ import annotations

import json
import logging
import os
import time

from django.db import transaction
from django.utils import timezone

from tournaments import services
from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.models import Adjudication, Battle, Event, General, Report
from tournaments.verdicts import compare_with_report

MAX_REPLAY_BYTES = 1024 * 1024
logger = logging.getLogger(__name__)


# --- who is who -----------------------------------------------------------------------------------

def general_of_user(user):
    return General.objects.filter(user=user).first() if getattr(user, "is_authenticated", False) else None


def can_report(battle, user):
    general = general_of_user(user)
    return battle.event.is_organizer(user) or (general is not None and battle.involves(general))


def opponent_of_reporter(report):
    """The general expected to confirm: the battle's other general than the reporter's."""
    reporter = general_of_user(report.reported_by)
    if reporter is None or not report.battle.involves(reporter):
        return None
    return report.battle.opponent_of(reporter)


# --- replay uploads -------------------------------------------------------------------------------

def read_replay_upload(raw) -> str:
    """The replay text to store, or a refusal saying what is wrong with the upload. Only the
    envelope is checked here (size, UTF-8, one JSON object); the engine judges the content."""
    if raw is None or raw == "":
        return ""
    if isinstance(raw, dict):
        text = json.dumps(raw, ensure_ascii=False)
    elif isinstance(raw, bytes | bytearray):
        if len(raw) > MAX_REPLAY_BYTES:
            raise DomainError(f"The replay is {len(raw):,} bytes; the limit is {MAX_REPLAY_BYTES:,} (1 MiB).",
                              field="replay")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DomainError(f"The replay is not UTF-8 text (byte {error.start} cannot be read).",
                              field="replay") from None
    elif isinstance(raw, str):
        text = raw
    else:
        raise DomainError("The replay must be a JSON object or the text of one.", field="replay")
    size = len(text.encode("utf-8"))
    if size > MAX_REPLAY_BYTES:
        raise DomainError(f"The replay is {size:,} bytes; the limit is {MAX_REPLAY_BYTES:,} (1 MiB).",
                          field="replay")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise DomainError(f"The replay is not valid JSON: {error.msg} at line {error.lineno}, column "
                          f"{error.colno}.", field="replay") from None
    except RecursionError:
        raise DomainError("The replay is nested too deeply to read.", field="replay") from None
    if not isinstance(document, dict):
        raise DomainError("The replay must be one JSON object (a WARLINE replay log).", field="replay")
    return text


# --- reporting ------------------------------------------------------------------------------------

def _check_outcome_shape(battle, kind, winner, condition, forfeited_by, player_1, replay):
    for name, general in (("winner", winner), ("forfeited_by", forfeited_by), ("player_1", player_1)):
        if general is not None and not battle.involves(general):
            raise DomainError(f"The {name.replace('_', ' ')} must be {battle.general_a.name} or "
                              f"{battle.general_b.name}.", field=name)
    if kind not in (Battle.Kind.VICTORY, Battle.Kind.STALEMATE, Battle.Kind.RESOLVE, Battle.Kind.FORFEIT):
        raise DomainError("A reported result is a victory, a stalemate, a resolve or a forfeit.", field="kind")
    if kind == Battle.Kind.VICTORY and (winner is None or condition not in Battle.Condition.values):
        raise DomainError("A victory needs its winner and its condition.",
                          field="winner" if winner is None else "condition")
    if kind == Battle.Kind.FORFEIT:
        if forfeited_by is None:
            raise DomainError("A forfeit needs the general who forfeited.", field="forfeited_by")
        if replay:
            raise DomainError("A forfeited battle was not fought, so it has no replay.", field="replay")


@transaction.atomic
def submit_report(battle, *, user, kind, winner=None, condition="", forfeited_by=None, player_1=None,
                  replay=""):
    """A general of the battle or an organizer reports its result. With a replay, an adjudication
    job is queued once the report is saved; without one, the opponent is asked to confirm. An
    organizer's report without a replay is confirmed at once."""
    battle = Battle.objects.select_for_update(of=("self",)).select_related(
        "event", "general_a", "general_b").get(pk=battle.pk)
    if not can_report(battle, user):
        raise NotAllowed("Only the two generals of this battle and the event's organizers may report it.")
    if battle.playoff is False and battle.kind:
        raise Conflict("This battle has a confirmed result already; an organizer can correct it.")
    if battle.event.state == Event.State.COMPLETE:
        raise Conflict(f"{battle.event.name} is complete.")
    if battle.reports.filter(status__in=[Report.Status.QUEUED, Report.Status.ADJUDICATING]).exists():
        raise Conflict("A replay of this battle is being adjudicated; wait for its verdict before reporting "
                       "again.")
    replay_text = read_replay_upload(replay)
    condition = condition if kind == Battle.Kind.VICTORY else ""
    _check_outcome_shape(battle, kind, winner, condition, forfeited_by, player_1, replay_text)

    for older in battle.reports.filter(status__in=Report.OPEN_STATUSES):
        older.status, older.status_reason = Report.Status.SUPERSEDED, "A newer report replaced it."
        _save_status(older)
    organizer = battle.event.is_organizer(user)
    report = Report.objects.create(
        battle=battle, reported_by=user, kind=kind, winner=winner, condition=condition,
        forfeited_by=forfeited_by, player_1=player_1, replay=replay_text,
        status=Report.Status.QUEUED if replay_text else Report.Status.AWAITING_OPPONENT)
    services.audit(battle.event, user, "result reported", services.battle_subject(battle),
                   after=report_snapshot(report))
    if replay_text:
        adjudication = Adjudication.objects.create(report=report)
        transaction.on_commit(lambda: enqueue(adjudication.pk))
    elif organizer:
        _apply(report, user, Report.Status.CONFIRMED, "Reported by an organizer.")
    return report


def report_snapshot(report):
    return {"kind": report.kind, "winner": report.winner.name if report.winner_id else None,
            "condition": report.condition or None,
            "forfeited_by": report.forfeited_by.name if report.forfeited_by_id else None,
            "player_1": report.player_1.name if report.player_1_id else None,
            "replay": bool(report.replay), "status": report.status}


QUEUE_DOWN_REASON = ("The job queue did not answer; the replay will be adjudicated when it does "
                     "(`manage.py adjudicate_pending`).")


def enqueue(adjudication_id):
    """Sends the job after the report is saved. If the broker does not answer, the report stays
    queued with a reason instead of failing the request: `adjudicate_pending` sends it again."""
    from kombu.exceptions import OperationalError as BrokerError

    from tournaments.tasks import adjudicate_report

    try:
        adjudicate_report.delay(adjudication_id)
    except (BrokerError, ConnectionError, OSError) as error:
        logger.warning("adjudication %s not queued: %s", adjudication_id, error)
        Report.objects.filter(adjudication__pk=adjudication_id, status=Report.Status.QUEUED).update(
            status_reason=QUEUE_DOWN_REASON)


def pending_adjudications():
    """Adjudications still waiting for a worker (e.g. queued while the broker was down)."""
    return Adjudication.objects.filter(state=Adjudication.State.QUEUED,
                                       report__status=Report.Status.QUEUED).order_by("pk")


def _save_status(report):
    """Saves what a status change sets, not the replay (up to 1 MiB) it leaves as it was."""
    report.save(update_fields=["status", "status_reason", "answered_by", "dispute_turn", "updated_at"])


def _apply(report, actor, status, reason, **result_override):
    """Writes the report's result to the battle and closes the report."""
    result = {"kind": report.kind, "winner": report.winner, "condition": report.condition,
              "forfeited_by": report.forfeited_by, "player_1": report.player_1}
    result.update(result_override)
    # record_result reads the battle again under its lock; the copy here only names it.
    recorded = services.record_result(report.battle, actor=actor, reason=reason if report.battle.kind else "",
                                      **result)
    report.battle = recorded.battle
    report.status, report.status_reason, report.answered_by = status, reason, (
        actor if getattr(actor, "pk", None) else None)
    _save_status(report)


def _locked_report(report):
    return Report.objects.select_for_update(of=("self",)).select_related(
        "battle", "battle__event", "battle__general_a", "battle__general_b", "reported_by").get(pk=report.pk)


@transaction.atomic
def confirm_report(report, *, user):
    """The opponent confirms a report (or an organizer does, for any open report)."""
    report = _locked_report(report)
    organizer = report.battle.event.is_organizer(user)
    opponent = opponent_of_reporter(report)
    if not organizer and (opponent is None or general_of_user(user) != opponent):
        raise NotAllowed("Only the opponent of the general who reported, or an organizer, may confirm it.")
    if report.status not in (Report.Status.AWAITING_OPPONENT, Report.Status.DISPUTED, Report.Status.FAILED):
        raise Conflict(f"This report cannot be confirmed: it is {report.get_status_display().lower()}.")
    if report.status != Report.Status.AWAITING_OPPONENT and not organizer:
        raise NotAllowed("Only an organizer decides a disputed report.")
    who = "an organizer" if organizer else "the opponent"
    _apply(report, user, Report.Status.CONFIRMED, f"Confirmed by {who}.")
    return report


@transaction.atomic
def dispute_report(report, *, user, reason):
    report = _locked_report(report)
    opponent = opponent_of_reporter(report)
    if opponent is None or general_of_user(user) != opponent:
        raise NotAllowed("Only the opponent of the general who reported may dispute the report.")
    if report.status != Report.Status.AWAITING_OPPONENT:
        raise Conflict(f"This report cannot be disputed: it is {report.get_status_display().lower()}.")
    if not reason.strip():
        raise DomainError("Say what is wrong with the report, for the organizer.", field="reason")
    report.status, report.status_reason, report.answered_by = Report.Status.DISPUTED, reason.strip(), user
    _save_status(report)
    services.audit(report.battle.event, user, "report disputed", services.battle_subject(report.battle),
                   reason=reason.strip())
    return report


@transaction.atomic
def override_report(report, *, user, reason, **result):
    """An organizer decides an open report: its own result, or the one given here."""
    report = _locked_report(report)
    if not report.battle.event.is_organizer(user):
        raise NotAllowed("Only an organizer may override a report.")
    if not reason.strip():
        raise DomainError("An override needs a reason, kept in the audit trail.", field="reason")
    if report.status in (Report.Status.SUPERSEDED, Report.Status.OVERRIDDEN):
        raise Conflict(f"This report is {report.get_status_display().lower()}.")
    if report.status in (Report.Status.QUEUED, Report.Status.ADJUDICATING):
        raise Conflict("This report is being adjudicated; decide it once the verdict is in.")
    _apply(report, user, Report.Status.OVERRIDDEN, reason.strip(), **result)
    return report


def open_reports(event):
    """The organizer's queue: disputed and failed first, then those still waiting."""
    order = {Report.Status.DISPUTED: 0, Report.Status.FAILED: 1, Report.Status.AWAITING_OPPONENT: 2,
             Report.Status.QUEUED: 3, Report.Status.ADJUDICATING: 4}
    reports = (Report.objects.filter(battle__event=event, status__in=Report.OPEN_STATUSES)
               .select_related("battle", "battle__general_a", "battle__general_b", "battle__group", "winner",
                               "reported_by"))
    return sorted(reports, key=lambda r: (order[r.status], r.created_at))


# --- adjudication jobs ----------------------------------------------------------------------------

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


def adjudicate(adjudication_id):
    """The job. Safe to run twice or concurrently (a redelivered message, a retry): the verdict and
    the report's status change are written once, by whichever run finishes first."""
    with transaction.atomic():
        adjudication = Adjudication.objects.select_for_update(of=("self",)).select_related("report") \
            .filter(pk=adjudication_id).first()
        if adjudication is None:
            return "missing"
        if adjudication.state in (Adjudication.State.DONE, Adjudication.State.FAILED):
            return "already done"
        adjudication.state, adjudication.started_at = Adjudication.State.RUNNING, timezone.now()
        adjudication.attempts += 1
        adjudication.save()
        Report.objects.filter(pk=adjudication.report_id, status=Report.Status.QUEUED).update(
            status=Report.Status.ADJUDICATING)
        replay_text = adjudication.report.replay

    delay = _test_delay()
    if delay:
        time.sleep(delay)
    verdict, engine_ms = run_engine(replay_text)

    with transaction.atomic():
        adjudication = Adjudication.objects.select_for_update().get(pk=adjudication_id)
        if adjudication.state in (Adjudication.State.DONE, Adjudication.State.FAILED):
            return "already done"
        report = _locked_report(Report(pk=adjudication.report_id))
        comparison = compare_with_report(report, verdict)
        adjudication.state, adjudication.verdict = Adjudication.State.DONE, verdict
        adjudication.engine_version = _engine().ENGINE_VERSION
        adjudication.agrees, adjudication.disagreement = comparison.agrees, comparison.sentence
        adjudication.finished_at, adjudication.engine_ms = timezone.now(), engine_ms
        adjudication.last_error = ""
        adjudication.save()
        if report.status not in (Report.Status.QUEUED, Report.Status.ADJUDICATING):
            return "report already decided"
        if comparison.agrees:
            try:
                with transaction.atomic():
                    _apply(report, None, Report.Status.CONFIRMED, "Confirmed by the rules engine's verdict.",
                           player_1=report.player_1 or comparison.player_1)
                return "confirmed"
            except DomainError as refusal:  # e.g. an organizer recorded another result meanwhile
                comparison = comparison.refused(f"The verdict agrees, but the result cannot be recorded: "
                                                f"{refusal}")
        if not comparison.agrees:
            report.status, report.status_reason = Report.Status.DISPUTED, comparison.sentence
            report.dispute_turn = comparison.turn
            _save_status(report)
            services.audit(report.battle.event, None, "report disputed by the engine",
                           services.battle_subject(report.battle), reason=comparison.sentence)
        return "disputed"


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
                              status__in=[Report.Status.QUEUED, Report.Status.ADJUDICATING]).update(
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
