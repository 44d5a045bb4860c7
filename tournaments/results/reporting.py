"""Reports of battle results, their confirmation or dispute, and adjudication by the rules engine.

A report never changes standings by itself: its result reaches the battle (through
`services.record_result`) only when both generals stand behind it or an organizer decided it:
the opponent confirms it; the opponent uploads a replay of the same battle; the event's
confirmation window passes without a dispute (`tournaments.results.confirmation`); or an organizer reports,
confirms or overrides. The engine's verdict is evidence: one that contradicts the report disputes it
at once, one that agrees marks it "checked" and it still waits for the opponent, since a legal
replay proves the battle is legal, not that it was played. Everything a user entered is kept on
the report, including the replay text exactly as uploaded.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments import locks, trust
from tournaments.domain import Conflict, DomainError, NotAllowed  # noqa: F401  (callers catch it from here)
from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.models import Adjudication, Battle, Event, Report
from tournaments.results import outbox
from tournaments.results.verdicts import (
    compare_with_report,
    header_sentence,
    log_sides,
    player_1_of_replay,
    same_battle,
)

MAX_REPLAY_BYTES = 1024 * 1024
logger = logging.getLogger(__name__)


# --- who is who (tournaments.trust decides; these names stay for the pages) -------------------------

general_of_user = trust.general_of
opponent_of_reporter = trust.opponent_of_reporter


def can_report(battle, user):
    return trust.may_report(user, battle)


# --- replay uploads -------------------------------------------------------------------------------

def read_replay_upload(raw) -> str:
    """The replay text to store, or a refusal saying what is wrong with the upload. Only the
    envelope is checked here (size, UTF-8, one JSON object that Python can read); the engine
    judges the content."""
    if raw is None or raw == "":
        return ""
    if isinstance(raw, dict):
        try:
            text = json.dumps(raw, ensure_ascii=False)
        except (ValueError, RecursionError):  # nested beyond what can be written back, or a circular one
            raise DomainError("The replay is nested too deeply to read.", field="replay") from None
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
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise DomainError("The replay holds a string that is not Unicode text (a lone surrogate such as "
                          "\\ud800).", field="replay") from None
    if size > MAX_REPLAY_BYTES:
        raise DomainError(f"The replay is {size:,} bytes; the limit is {MAX_REPLAY_BYTES:,} (1 MiB).",
                          field="replay")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise DomainError(f"The replay is not valid JSON: {json_error_text(error)}.", field="replay") from None
    except RecursionError:
        raise DomainError("The replay is nested too deeply to read.", field="replay") from None
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise DomainError(f"The replay holds a number with more than 4,300 digits{_where_long_number(text)}.",
                          field="replay") from None
    if not isinstance(document, dict):
        raise DomainError("The replay must be one JSON object (a WARLINE replay log).", field="replay")
    return text


def json_error_text(error):
    """A JSONDecodeError in words: "Unterminated string starting at line 1, column 2", never "at at"
    (some of Python's messages end with "at", followed by where)."""
    message = error.msg.removesuffix(" at").removesuffix(":")
    return f"{message} at line {error.lineno}, column {error.colno}"


def _where_long_number(text):
    from rules_engine.replay import where_long_number  # one place finds it: the engine's reader

    where = where_long_number(text)
    return "" if where is None else f" at line {where[0]}, column {where[1]}"


# --- reporting ------------------------------------------------------------------------------------

def _check_outcome_shape(battle, kind, winner, condition, forfeited_by, player_1, replay):
    for name, general in (("winner", winner), ("forfeited_by", forfeited_by), ("player_1", player_1)):
        if general is not None and not battle.involves(general):
            raise DomainError(f"The {name.replace('_', ' ')} must be {battle.general_a.name} or "
                              f"{battle.general_b.name}.", field=name)
    if kind not in (Battle.Kind.VICTORY, Battle.Kind.STALEMATE, Battle.Kind.RESOLVE, Battle.Kind.FORFEIT):
        raise DomainError("A reported result is a victory, a stalemate, a resolve or a forfeit.", field="kind")
    refuse_stray_winner(kind, winner)
    if kind == Battle.Kind.VICTORY and (winner is None or condition not in Battle.Condition.values):
        raise DomainError("A victory needs its winner and its condition.",
                          field="winner" if winner is None else "condition")
    if kind == Battle.Kind.FORFEIT:
        if forfeited_by is None:
            raise DomainError("A forfeit needs the general who forfeited.", field="forfeited_by")
        if replay:
            raise DomainError("A forfeited battle was not fought, so it has no replay.", field="replay")


def refuse_stray_winner(kind, winner):
    """A Stalemate or a Resolve has no winner: one given with it is refused, not dropped silently."""
    if winner is not None and kind in (Battle.Kind.STALEMATE, Battle.Kind.RESOLVE):
        raise DomainError(f"A {Battle.Kind(kind).label} has no winner: leave the winner empty, or report a "
                          "Victory.", field="winner")


DECIDED = ("This battle has a counted result: only an organizer's correction changes it now (R69), "
           "not a new report.")
REPLACED = "A newer report replaced it."
EVIDENCE = ("Sent while the battle is disputed: evidence for the organizer, who decides (the dispute stands "
            "until the general who disputed withdraws it or confirms, or an organizer decides).")
BEING_ADJUDICATED = (Report.Status.QUEUED, Report.Status.ADJUDICATING)
# The opponent answers (confirms, disputes, reports too) as soon as a report exists, also while its
# replay waits for the engine; only the window waits for the verdict.
ANSWERABLE = (*Report.AWAITING_STATUSES, *BEING_ADJUDICATED)

# R93: how often one account may report one battle, and battles in all, in an hour.
REPORTS_PER_BATTLE_PER_HOUR = 5
REPORTS_PER_PLAYER_PER_HOUR = 30
REPORT_LIMIT_WINDOW = timedelta(hours=1)


def refuse_report_flood(battle, user, now=None):
    """R93: a general reports one battle at most REPORTS_PER_BATTLE_PER_HOUR times in any hour, and at
    most REPORTS_PER_PLAYER_PER_HOUR reports in all; beyond, 409 with the time to wait."""
    now = now or timezone.now()
    since = now - REPORT_LIMIT_WINDOW
    for reports, limit, what in (
            (Report.objects.filter(battle=battle, reported_by=user, created_at__gt=since),
             REPORTS_PER_BATTLE_PER_HOUR, "this battle"),
            (Report.objects.filter(reported_by=user, created_at__gt=since), REPORTS_PER_PLAYER_PER_HOUR,
             "battles")):
        recent = list(reports.order_by("-created_at").values_list("created_at", flat=True)[:limit])
        if len(recent) >= limit:
            wait = recent[-1] + REPORT_LIMIT_WINDOW - now
            minutes = max(1, -(-int(wait.total_seconds()) // 60))
            raise Conflict(f"You have reported {what} {limit} times in the last hour: you may report again in "
                           f"{minutes} minute{'s' if minutes != 1 else ''} (R93).")


def _sides_of_upload(battle, replay_text, player_1):
    """R92, R109: the log's header is the battle's (board, variants, generals in the stated order),
    checked before the engine runs; returns the general who played `p1`."""
    document = json.loads(replay_text)
    problem = header_sentence(document, battle, player_1)
    if problem:
        raise DomainError(problem, field="replay")
    mapped, _source, _problem = log_sides(document, battle, player_1)
    return mapped["p1"]


def window_end(report, now=None):
    """When a general's report counts by itself: the event's window from `now`, once the opponent can
    act (at once without a replay, when the verdict is in with one); never while nobody can answer."""
    opponent = trust.opponent_of_reporter(report)
    if opponent is None or trust.cannot_answer(opponent):
        return None
    return (now or timezone.now()) + report.battle.event.confirmation_window


@transaction.atomic
def submit_report(battle, *, user, kind, winner=None, condition="", forfeited_by=None, player_1=None,
                  replay=""):
    """A general of the battle or an organizer reports its result (R75). An organizer's report counts
    at once. A general's report waits for the opponent, with the event's confirmation window (from
    when the opponent can act: with a replay, once the engine's verdict is in). When the opponent has
    a report waiting for this general, this one answers it: the same result (and, with two replays,
    the same log with the same sides, R92) confirms it at once; anything else disputes both for an
    organizer. While a general's dispute stands, a new report is evidence and changes nothing else."""
    battle = locks.battle(battle)  # the lock order: event, battle, reports (tournaments/locks.py)
    trust.require(trust.may_report(user, battle),
                  "Only the two generals of this battle and the event's organizers may report it.")
    seasons.refuse_report(battle)  # a closed season's battle, a decided playoff (R24)
    if battle.kind:
        raise Conflict(DECIDED)
    if battle.event.state == Event.State.COMPLETE:
        raise Conflict(f"{battle.event.name} is complete.")
    # R90: an organizer whose own general plays this battle reports as a general (it waits).
    organizer = trust.organizes_battle(user, battle)
    being_adjudicated = battle.reports.filter(status__in=BEING_ADJUDICATED)
    if not organizer:
        being_adjudicated = being_adjudicated.filter(reported_by=user)
    if being_adjudicated.exists():
        raise Conflict("A replay of this battle is being adjudicated; wait for its verdict before reporting "
                       "again.")
    disputed = trust.dispute_open(battle)
    if organizer and disputed:
        raise Conflict("A general disputed this battle's report: decide it with a reason (the organizer's result "
                       "form, or `override`), not with a report.")
    if not organizer:
        refuse_report_flood(battle, user)
    replay_text = read_replay_upload(replay)
    condition = condition if kind == Battle.Kind.VICTORY else ""
    _check_outcome_shape(battle, kind, winner, condition, forfeited_by, player_1, replay_text)
    if replay_text:
        player_1 = _sides_of_upload(battle, replay_text, player_1)

    mine = trust.general_of(user)
    answering = contrary = None
    claim = (kind, getattr(winner, "pk", None), condition or "", getattr(forfeited_by, "pk", None))
    for older in [] if disputed else battle.reports.filter(status__in=Report.OPEN_STATUSES).select_related(
            "reported_by"):
        if not organizer and older.status in ANSWERABLE and trust.may_answer(user, older):
            answering = older  # the opponent's report waiting for this general
            continue
        if not organizer and trust.may_answer(user, older) and older.claim() != claim:
            contrary = older  # the opponent's report the engine disputed or could not adjudicate
            continue
        if organizer or trust.reporting_general(older) == mine:
            older.status, older.status_reason = Report.Status.SUPERSEDED, REPLACED
            older.confirm_by = None
            _save_status(older)
    if disputed:
        status, reason = Report.Status.DISPUTED, EVIDENCE
    elif contrary is not None:
        # Nobody counts alone: the opponent's own report says otherwise, even if the engine disputed
        # it, so the window must not count this one over it (R92).
        status = Report.Status.DISPUTED
        reason = (f"Contradicts {contrary.reported_by.username}'s report ({_claim_text(contrary)}), which is "
                  "still open; an organizer decides.")
    elif replay_text:
        status, reason = Report.Status.QUEUED, ""
    else:
        status, reason = Report.Status.AWAITING_OPPONENT, ""
    report = Report(
        battle=battle, reported_by=user, kind=kind, winner=winner, condition=condition,
        forfeited_by=forfeited_by, player_1=player_1, replay=replay_text, status=status, status_reason=reason,
        replay_sha256=hashlib.sha256(replay_text.encode()).hexdigest() if replay_text else "",
        replay_bytes=len(replay_text.encode()) if replay_text else None)
    if status == Report.Status.AWAITING_OPPONENT and not organizer and answering is None:
        report.confirm_by = window_end(report)
        report.status_reason = trust.cannot_answer(trust.opponent_of_reporter(report)) or ""
    report.save()
    services.audit(battle.event, user, "result reported", services.battle_subject(battle),
                   after=report_snapshot(report))
    if contrary is not None:
        services.audit(battle.event, user, "report disputed", services.battle_subject(battle), reason=reason)
    if organizer:
        apply_report(report, user, Report.Status.CONFIRMED, "Reported by an organizer.")
    elif answering is not None:
        _answer_with_report(answering, report, user)
    if replay_text:
        # Adjudicated whatever the report's status: the verdict is evidence shown to both generals and
        # the organizers.
        outbox.queue_adjudication(report)
    return report


def _disagreement(waiting, report, name):
    """Why the opponent's report does not confirm the waiting one, or None when it does (R92)."""
    if waiting.claim() != report.claim():
        return f"{name} reported another result ({_claim_text(report)}); an organizer decides."
    if waiting.player_1_id and report.player_1_id and waiting.player_1_id != report.player_1_id:
        return (f"{name} reported {report.player_1.name} as Player-1, {waiting.reported_by.username} reported "
                f"{waiting.player_1.name}; an organizer decides.")
    if waiting.replay and report.replay and not same_battle(waiting.replay, report.replay):
        return f"{name} uploaded another log of this battle than {waiting.reported_by.username}; an organizer decides."
    return None


def _answer_with_report(waiting, report, user):
    """The opponent reported too: the same result (with the same sides and, when both uploaded one,
    the same log) confirms the waiting report; anything else disputes both (R92). A replay never
    confirms a report whose result it does not match."""
    name = trust.general_of(user).name
    problem = _disagreement(waiting, report, name)
    if problem is None:
        why = "Both generals reported the same result."
        result = {} if waiting.player_1_id or not report.player_1_id else {"player_1": report.player_1}
        apply_report(waiting, user, Report.Status.CONFIRMED, why, **result)
        report.status, report.status_reason = Report.Status.CONFIRMED, why
        report.confirm_by, report.answered_by = None, user
        _save_status(report)
        return
    waiting.status, waiting.answered_by = Report.Status.DISPUTED, user
    waiting.status_reason = problem
    waiting.confirm_by = None
    _save_status(waiting)
    report.status, report.confirm_by = Report.Status.DISPUTED, None
    report.status_reason = (f"Answers {waiting.reported_by.username}'s report ({_claim_text(waiting)}) and does "
                            "not match it; an organizer decides.")
    _save_status(report)
    services.audit(report.battle.event, user, "report disputed", services.battle_subject(report.battle),
                   reason=waiting.status_reason)


def _claim_text(report):
    if report.kind == Battle.Kind.VICTORY:
        return f"{report.winner.name} wins by {Battle.Condition(report.condition).label}"
    if report.kind == Battle.Kind.FORFEIT:
        return f"{report.forfeited_by.name} forfeits"
    return Battle.Kind(report.kind).label


def report_snapshot(report):
    return {"kind": report.kind, "winner": report.winner.name if report.winner_id else None,
            "condition": report.condition or None,
            "forfeited_by": report.forfeited_by.name if report.forfeited_by_id else None,
            "player_1": report.player_1.name if report.player_1_id else None,
            "replay": bool(report.replay), "status": report.status}


def _save_status(report):
    """Saves what a status change sets, not the replay (up to 1 MiB) it leaves as it was."""
    report.save(update_fields=["status", "status_reason", "answered_by", "dispute_turn", "confirm_by",
                               "updated_at"])


def apply_report(report, actor, status, reason, *, action=None, **result_override):
    """Writes the report's result to the battle and closes the report (and any other open report of
    the battle). Returns `services.RecordedResult`, with the R68 offer when a forfeit reaches the limit."""
    result = {"kind": report.kind, "winner": report.winner, "condition": report.condition,
              "forfeited_by": report.forfeited_by, "player_1": report.player_1}
    result.update(result_override)
    if Battle.objects.filter(pk=report.battle_id).exclude(kind="").exists():
        raise Conflict(DECIDED)  # e.g. an organizer recorded the result while this report waited
    # record_result reads the battle again under its lock (and closes the battle's other reports).
    # attested: the callers checked who stands behind the report (R75, R90).
    recorded = services.record_result(report.battle, actor=actor, reason=reason, action=action, attested=True,
                                      **result)
    report.battle = recorded.battle
    report.status, report.status_reason, report.answered_by = status, reason, (
        actor if getattr(actor, "pk", None) else None)
    report.confirm_by = None
    _save_status(report)
    report.recorded = recorded
    drop_superseded_replays(report.battle)
    return recorded


def drop_superseded_replays(battle):
    """R94: once a battle's result counts, the replay text of each report its own general replaced
    by a newer one is dropped; its digest and size stay (`replay_sha256`, `replay_bytes`), and so does
    its verdict. Kept whole: the replay of the report that counted, of every report that was open
    when the battle was decided (a disputed one among them), and of any the engine contradicted."""
    if not Battle.objects.filter(pk=battle.pk).exclude(kind="").exists():
        return 0
    return (Report.objects.filter(battle=battle, status=Report.Status.SUPERSEDED, status_reason=REPLACED)
            .exclude(replay="").exclude(adjudication__agrees=False)
            .update(replay=""))


def locked_report(report, *, wait=True):
    """The report read again after taking its event's, its battle's and its own lock, in that order
    (tournaments/locks.py), so that every step on a report decides on its latest state."""
    return locks.report(report, wait=wait)


@transaction.atomic
def confirm_report(report, *, user):
    """The opponent confirms a report (also while its replay waits for the engine, or one they
    disputed themselves), or an organizer does, for any open report. The returned report carries
    `recorded` (its `offer_disqualification` is the R68 offer, if any)."""
    report = locked_report(report)
    organizer = trust.may_decide(user, report)
    trust.require(organizer or trust.may_answer(user, report),
                  "Only the opponent of the general who reported, or an organizer, may confirm it.")
    if report.status not in (*ANSWERABLE, Report.Status.DISPUTED, Report.Status.FAILED):
        raise Conflict(f"This report cannot be confirmed: it is {report.get_status_display().lower()}.")
    trust.require(organizer or report.status in ANSWERABLE or trust.may_withdraw_dispute(user, report),
                  "Only an organizer decides a report the engine disputed or could not adjudicate.")
    seasons.refuse_report(report.battle)  # a closed season's battle, a decided playoff (R24)
    who = "an organizer" if organizer else "the opponent"
    apply_report(report, user, Report.Status.CONFIRMED, f"Confirmed by {who}.")
    return report


@transaction.atomic
def dispute_report(report, *, user, reason):
    """The opponent disputes a report, also while its replay waits for the engine (the engine's
    verdict is then evidence for the organizer). The dispute stands until they withdraw it or confirm,
    or an organizer decides."""
    report = locked_report(report)
    trust.require(trust.may_answer(user, report),
                  "Only the opponent of the general who reported may dispute the report.")
    if report.status not in ANSWERABLE:
        raise Conflict(f"This report cannot be disputed: it is {report.get_status_display().lower()}.")
    if not reason.strip():
        raise DomainError("Say what is wrong with the report, for the organizer.", field="reason")
    report.status, report.status_reason, report.answered_by = Report.Status.DISPUTED, reason.strip(), user
    report.confirm_by = None
    _save_status(report)
    services.audit(report.battle.event, user, "report disputed", services.battle_subject(report.battle),
                   reason=reason.strip())
    return report


def _status_after_withdrawal(report):
    """Where a report stands once its dispute is withdrawn: what the engine made of it (checked, or
    disputed by the engine), still with the engine, or waiting for the opponent."""
    adjudication = Adjudication.objects.filter(report=report).first()
    if adjudication is None:
        return Report.Status.AWAITING_OPPONENT, ""
    if adjudication.state == Adjudication.State.DONE:
        if adjudication.agrees:
            return Report.Status.CHECKED, "Checked by the engine."
        return Report.Status.DISPUTED, adjudication.disagreement
    if adjudication.state == Adjudication.State.FAILED:
        return Report.Status.FAILED, f"Adjudication failed ({adjudication.last_error[:300]}); an organizer decides."
    if adjudication.state == Adjudication.State.RUNNING:
        return Report.Status.ADJUDICATING, ""
    return Report.Status.QUEUED, ""


@transaction.atomic
def withdraw_dispute(report, *, user, reason=""):
    """The general who disputed a report takes the dispute back: the report waits for them again, with
    a new confirmation window (unless the engine disputed it too), and the reports the dispute left open
    on the battle (theirs, the reporter's evidence) are closed as replaced. Audited."""
    report = locked_report(report)
    trust.require(trust.may_answer(user, report), "Only the general who disputed this report may withdraw the dispute.")
    if not trust.may_withdraw_dispute(user, report):
        raise Conflict(f"This report is not disputed by you: it is {report.get_status_display().lower()}.")
    if report.battle.kind:
        raise Conflict(DECIDED)
    others = Report.objects.filter(battle=report.battle, status__in=Report.OPEN_STATUSES).exclude(pk=report.pk)
    others.update(status=Report.Status.SUPERSEDED, confirm_by=None, updated_at=timezone.now(),
                  status_reason="The dispute was withdrawn; the disputed report waits for confirmation again.")
    status, why = _status_after_withdrawal(report)
    name = trust.general_of(user).name
    report.status, report.answered_by, report.confirm_by = status, None, None
    report.status_reason = f"{name} withdrew the dispute. {why}".strip()
    if status in Report.AWAITING_STATUSES:
        report.confirm_by = window_end(report)
    _save_status(report)
    services.audit(report.battle.event, user, "dispute withdrawn", services.battle_subject(report.battle),
                   reason=(reason or "").strip())
    return report


@transaction.atomic
def override_report(report, *, user, reason, **result):
    """An organizer decides an open report: its own result, or the one given here, with a reason
    (R76), audited as "report overridden" with the result before and after."""
    report = locked_report(report)
    trust.require(trust.may_decide(user, report), trust.decide_refusal(user, report.battle))  # R90
    refuse_stray_winner(result.get("kind"), result.get("winner"))
    if not (reason or "").strip():
        raise DomainError("An override needs a reason, kept in the audit trail.", field="reason")
    if report.status in (Report.Status.SUPERSEDED, Report.Status.OVERRIDDEN, Report.Status.CONFIRMED):
        raise Conflict(f"This report is {report.get_status_display().lower()}.")
    if report.status in (Report.Status.QUEUED, Report.Status.ADJUDICATING):
        raise Conflict("This report is being adjudicated; decide it once the verdict is in.")
    if report.battle.kind:
        raise Conflict(DECIDED)
    if not result.get("player_1") and not report.player_1_id and report.replay:
        # The replay names Player-1 even when the engine disputes the claimed result.
        result["player_1"] = player_1_of_replay(report.replay, report.battle)
    apply_report(report, user, Report.Status.OVERRIDDEN, reason.strip(), action="report overridden",
                 **{key: value for key, value in result.items() if value is not None or key != "kind"})
    return report


@transaction.atomic
def decide_battle(battle, *, user, reason="", **outcome):
    """An organizer's result on the battle page or `POST /battles/{id}/result/`: it overrides the
    open report if there is one, corrects a counted result, or records a first result. Overrides and
    corrections need a reason (R69, R76)."""
    seen = (battle.kind, battle.decided_at)  # the result the organizer decided on
    battle = locks.battle(battle)  # read again under the lock order (tournaments/locks.py)
    trust.require(trust.organizes_battle(user, battle), trust.decide_refusal(user, battle))  # R90
    if (battle.kind, battle.decided_at) != seen:  # another organizer or a confirmation came first
        raise Conflict(f"This battle's result changed while you were deciding it (now: {battle.outcome_text()}): "
                       "look at it again, and correct it with a reason if it is still wrong.")
    refuse_stray_winner(outcome.get("kind"), outcome.get("winner"))
    open_report = battle.reports.filter(status__in=Report.OPEN_STATUSES).exclude(
        status__in=BEING_ADJUDICATED).first()
    if open_report is not None and not battle.kind:
        report = override_report(open_report, user=user, reason=reason, **outcome)
        return report.recorded
    if battle.kind and not (reason or "").strip():
        raise DomainError("This battle has a result already: give a reason for the correction.", field="reason")
    recorded = services.record_result(battle, actor=user, reason=reason, **outcome)
    drop_superseded_replays(recorded.battle)
    return recorded


def open_reports(event):
    """The organizer's queue: disputed and failed first, then those still waiting."""
    order = {Report.Status.DISPUTED: 0, Report.Status.FAILED: 1, Report.Status.AWAITING_OPPONENT: 2,
             Report.Status.CHECKED: 2, Report.Status.QUEUED: 3, Report.Status.ADJUDICATING: 4}
    reports = (Report.objects.filter(battle__event=event, status__in=Report.OPEN_STATUSES)
               .select_related("battle", "battle__event", "battle__general_a", "battle__general_b", "battle__group", "winner",
                               "reported_by"))
    # A report nobody can answer (no window: an unclaimed or unreachable opponent) is the organizer's to decide.
    return sorted(reports, key=lambda r: (1 if r.is_awaiting_opponent and r.confirm_by is None else order[r.status],
                                          r.created_at))


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
            services.audit(report.battle.event, None, "report disputed by the engine",
                           services.battle_subject(report.battle), reason=comparison.sentence)
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
