"""Reports of battle results, their confirmation or dispute, and adjudication by the rules engine.

A report never changes standings by itself: its result reaches the battle (through
`recording.record_result`) only when both generals stand behind it or an organizer decided it:
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
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError
from tournaments.leagues import seasons
from tournaments.models import Adjudication, Battle, Event, Report, label_in_sentence
from tournaments.results import outbox, recording, replays
from tournaments.results.agreement import (
    header_sentence,
    log_sides,
    player_1_of_replay,
    recorded_claim_text,
    same_battle,
)


def _check_report_shape(battle, kind, winner, condition, forfeited_by, player_1, replay):
    """The report's result checked; returns the condition as the battle would keep it (none for a game
    without victory conditions, whatever a client sent)."""
    _winner, condition, _forfeited_by, _player_1 = recording.result_shape(
        battle, kind=kind, winner=winner, condition=condition, forfeited_by=forfeited_by, player_1=player_1)
    recording.refuse_stray_winner(kind, winner)
    if kind == Battle.Kind.FORFEIT and replay:
        raise DomainError(_("A forfeited battle was not fought, so it has no replay."), field="replay")
    return condition


def reporter_name(report):
    """Who sent a report, as pages say it: their general's name, or "the organizer <username>"."""
    general = trust.reporting_general(report)
    if general is not None:
        return general.name
    if report.reported_by_id is None:  # the account was deleted, or not matched on import (R97)
        return _("an account not on this site")
    return (_("the organizer %(reported_by_username)s")
            % {"reported_by_username": report.reported_by.username})


DECIDED = (gettext_lazy("This battle has a counted result: only an organizer's correction changes it now "
                        "(R69), not a new report."))
REPLACED = "A newer report replaced it."
EVIDENCE = ("Sent while the battle is disputed: evidence for the organizer, who decides (the dispute stands "
            "until the general who disputed withdraws it or confirms, or an organizer decides).")
# The opponent answers (confirms, disputes, reports too) as soon as a report exists, also while its
# replay waits for the engine; only the window waits for the verdict.
ANSWERABLE = (*Report.AWAITING_STATUSES, *Report.BEING_ADJUDICATED_STATUSES)

# R93: how often one account may report one battle, and battles in all, in an hour.
REPORTS_PER_BATTLE_PER_HOUR = 5
REPORTS_PER_PLAYER_PER_HOUR = 30
REPORT_LIMIT_WINDOW = timedelta(hours=1)


def refuse_report_flood(battle, user, now=None):
    """R93: a general reports one battle at most REPORTS_PER_BATTLE_PER_HOUR times in any hour, and at
    most REPORTS_PER_PLAYER_PER_HOUR reports in all; beyond, 409 with the time to wait."""
    now = now or timezone.now()
    since = now - REPORT_LIMIT_WINDOW
    for reports, limit, refusal in (
            (Report.objects.filter(battle=battle, reported_by=user, created_at__gt=since),
             REPORTS_PER_BATTLE_PER_HOUR,
             _("You have reported this battle %(limit)s times in the last hour: you may report again in "
               "%(wait)s (R93).")),
            (Report.objects.filter(reported_by=user, created_at__gt=since), REPORTS_PER_PLAYER_PER_HOUR,
             _("You have reported battles %(limit)s times in the last hour: you may report again in "
               "%(wait)s (R93).")),
    ):
        recent = list(reports.order_by("-created_at").values_list("created_at", flat=True)[:limit])
        if len(recent) >= limit:
            wait = recent[-1] + REPORT_LIMIT_WINDOW - now
            minutes = max(1, -(-int(wait.total_seconds()) // 60))
            wait_text = ngettext("%(minutes)s minute", "%(minutes)s minutes", minutes) % {"minutes": minutes}
            raise Conflict(refusal % {"limit": limit, "wait": wait_text})


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
                  replay="", facts=None):
    """A general of the battle or an organizer reports its result (R75). An organizer's report counts
    at once. A general's report waits for the opponent, with the event's confirmation window (from
    when the opponent can act: with a replay, once the engine's verdict is in). When the opponent has
    a report waiting for this general, this one answers it: the same result (and, with two replays,
    the same log with the same sides, R92) confirms it at once; anything else disputes both for an
    organizer. While a general's dispute stands, a new report is evidence and changes nothing else."""
    battle = locks.battle(battle)  # the lock order: event, battle, reports (tournaments/locks.py)
    trust.require(trust.may_report(user, battle),
                  _("Only the two generals of this battle and the event's organizers may report it."))
    seasons.refuse_report(battle)  # a closed season's battle, a decided playoff (R24)
    if battle.kind:
        raise Conflict(DECIDED)
    if battle.event.state == Event.State.COMPLETE:
        raise Conflict(_("%(event)s is complete.") % {"event": battle.event.name})
    # R90: an organizer whose own general plays this battle reports as a general (it waits).
    organizer = trust.organizes_battle(user, battle)
    being_adjudicated = battle.reports.filter(status__in=Report.BEING_ADJUDICATED_STATUSES)
    if not organizer:
        being_adjudicated = being_adjudicated.filter(reported_by=user)
    if being_adjudicated.exists():
        raise Conflict(_("A replay of this battle is being adjudicated; wait for its verdict before "
                         "reporting again."))
    disputed = trust.dispute_open(battle)
    if organizer and disputed:
        raise Conflict(_("A general disputed this battle's report: decide it with a reason (the "
                         "organizer's result form, or `override`), not with a report."))
    if not organizer:
        refuse_report_flood(battle, user)
    replay_text = replays.read_replay_upload(replay)
    condition = condition if kind == Battle.Kind.VICTORY else ""
    condition = _check_report_shape(battle, kind, winner, condition, forfeited_by, player_1, replay_text)
    facts = recording.result_facts(battle, facts)
    if replay_text and not battle.event.game_system.adjudicated:
        raise DomainError(_("%(short_name)s games have no replay to upload.")
                          % {"short_name": battle.event.game_system.short_name}, field="replay")
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
        reason = (f"Contradicts {reporter_name(contrary)}'s report ({recorded_claim_text(contrary)}), which is "
                  "still open; an organizer decides.")
    elif replay_text:
        status, reason = Report.Status.QUEUED, ""
    else:
        status, reason = Report.Status.AWAITING_OPPONENT, ""
    report = Report(
        battle=battle, reported_by=user, kind=kind, winner=winner, condition=condition,
        forfeited_by=forfeited_by, player_1=player_1, replay=replay_text, status=status, status_reason=reason,
        facts=facts,
        replay_sha256=hashlib.sha256(replay_text.encode()).hexdigest() if replay_text else "",
        replay_bytes=len(replay_text.encode()) if replay_text else None)
    if status == Report.Status.AWAITING_OPPONENT and not organizer and answering is None:
        report.confirm_by = window_end(report)
        report.status_reason = trust.cannot_answer(trust.opponent_of_reporter(report)) or ""
    report.save()
    audit.record(battle.event, user, "result reported", audit.battle_subject(battle),
                 after=report_snapshot(report))
    if contrary is not None:
        audit.record(battle.event, user, "report disputed", audit.battle_subject(battle), reason=reason)
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
        return f"{name} reported another result ({recorded_claim_text(report)}); an organizer decides."
    if waiting.player_1_id and report.player_1_id and waiting.player_1_id != report.player_1_id:
        return (f"{name} reported {report.player_1.name} as Player-1, {reporter_name(waiting)} reported "
                f"{waiting.player_1.name}; an organizer decides.")
    if waiting.facts and report.facts and waiting.facts != report.facts:
        return (f"{name} reported other facts of the game ({report.facts}) than {reporter_name(waiting)} "
                f"({waiting.facts}); an organizer decides.")
    if waiting.replay and report.replay and not same_battle(waiting.replay, report.replay):
        return f"{name} uploaded another log of this battle than {reporter_name(waiting)}; an organizer decides."
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
    report.status_reason = (f"Answers {reporter_name(waiting)}'s report ({recorded_claim_text(waiting)}) and does "
                            "not match it; an organizer decides.")
    _save_status(report)
    audit.record(report.battle.event, user, "report disputed", audit.battle_subject(report.battle),
                 reason=waiting.status_reason)


def report_snapshot(report):
    return {"kind": report.kind, "winner": report.winner.name if report.winner_id else None,
            "condition": report.condition or None,
            "forfeited_by": report.forfeited_by.name if report.forfeited_by_id else None,
            "player_1": report.player_1.name if report.player_1_id else None,
            "replay": bool(report.replay), "status": report.status,
            **({"facts": report.facts} if report.facts else {})}


def _save_status(report):
    """Saves what a status change sets, not the replay (up to 1 MiB) it leaves as it was."""
    report.save(update_fields=["status", "status_reason", "answered_by", "dispute_turn", "confirm_by",
                               "updated_at"])


def apply_report(report, actor, status, reason, *, action=None, **result_override):
    """Writes the report's result to the battle and closes the report (and any other open report of
    the battle). Returns `recording.RecordedResult`, with the R68 offer when a forfeit reaches the limit."""
    result = {"kind": report.kind, "winner": report.winner, "condition": report.condition,
              "forfeited_by": report.forfeited_by, "player_1": report.player_1, "facts": report.facts or None}
    result.update(result_override)
    if Battle.objects.filter(pk=report.battle_id).exclude(kind="").exists():
        raise Conflict(DECIDED)  # e.g. an organizer recorded the result while this report waited
    # record_result reads the battle again under its lock (and closes the battle's other reports).
    # attested: the callers checked who stands behind the report (R75, R90).
    recorded = recording.record_result(report.battle, actor=actor, reason=reason, action=action, attested=True,
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
                  _("Only the opponent of the general who reported, or an organizer, may confirm it."))
    if report.status not in (*ANSWERABLE, Report.Status.DISPUTED, Report.Status.FAILED):
        raise Conflict(_("This report cannot be confirmed: it is %(status)s.")
                       % {"status": label_in_sentence(report.get_status_display())})
    trust.require(organizer or report.status in ANSWERABLE or trust.may_withdraw_dispute(user, report),
                  _("Only an organizer decides a report the engine disputed or could not adjudicate."))
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
                  _("Only the opponent of the general who reported may dispute the report."))
    if report.status not in ANSWERABLE:
        raise Conflict(_("This report cannot be disputed: it is %(status)s.")
                       % {"status": label_in_sentence(report.get_status_display())})
    if not reason.strip():
        raise DomainError(_("Say what is wrong with the report, for the organizer."), field="reason")
    report.status, report.status_reason, report.answered_by = Report.Status.DISPUTED, reason.strip(), user
    report.confirm_by = None
    _save_status(report)
    audit.record(report.battle.event, user, "report disputed", audit.battle_subject(report.battle),
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
    trust.require(trust.may_answer(user, report), _("Only the general who disputed this report may "
                                                    "withdraw the dispute."))
    if not trust.may_withdraw_dispute(user, report):
        raise Conflict(_("This report is not disputed by you: it is %(status)s.")
                       % {"status": label_in_sentence(report.get_status_display())})
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
    audit.record(report.battle.event, user, "dispute withdrawn", audit.battle_subject(report.battle),
                 reason=(reason or "").strip())
    return report


@transaction.atomic
def override_report(report, *, user, reason, **result):
    """An organizer decides an open report: its own result, or the one given here, with a reason
    (R76), audited as "report overridden" with the result before and after."""
    report = locked_report(report)
    trust.require(trust.may_decide(user, report), trust.decide_refusal(user, report.battle))  # R90
    recording.refuse_stray_winner(result.get("kind"), result.get("winner"))
    if not (reason or "").strip():
        raise DomainError(_("An override needs a reason, kept in the audit trail."), field="reason")
    if report.status in (Report.Status.SUPERSEDED, Report.Status.OVERRIDDEN, Report.Status.CONFIRMED):
        raise Conflict(_("This report is %(status)s.") % {"status": label_in_sentence(report.get_status_display())})
    if report.status in Report.BEING_ADJUDICATED_STATUSES:
        raise Conflict(_("This report is being adjudicated; decide it once the verdict is in."))
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
        raise Conflict(_("This battle's result changed while you were deciding it (now: %(outcome_text)s): "
                         "look at it again, and correct it with a reason if it is still wrong.")
                       % {"outcome_text": battle.outcome_text()})
    recording.refuse_stray_winner(outcome.get("kind"), outcome.get("winner"))
    open_report = battle.reports.filter(status__in=Report.OPEN_STATUSES).exclude(
        status__in=Report.BEING_ADJUDICATED_STATUSES).first()
    if open_report is not None and not battle.kind:
        report = override_report(open_report, user=user, reason=reason, **outcome)
        return report.recorded
    if battle.kind and not (reason or "").strip():
        raise DomainError(_("This battle has a result already: give a reason for the correction."), field="reason")
    recorded = recording.record_result(battle, actor=user, reason=reason, **outcome)
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
