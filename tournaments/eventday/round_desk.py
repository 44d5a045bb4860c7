"""The organizer's round desk (event day): for the current round of each group of the latest stage,
or a league's current season, every battle with its state in words, what the organizer may accept
in one click, and the values the one result form starts from. Plain functions over the models,
testable without HTTP; the page is tournaments/web/rounds.py.

States, in the order a battle goes through them:
  waiting    no report yet
  reported   a general's report waits for the opponent (with the time left before it counts by itself)
  checking   the engine is checking the report's replay
  checked    the engine agrees with the report; it still waits for the opponent
  disputed   the opponent or the engine disagrees (or adjudication failed): an organizer decides
  counted    the battle's result counts in the standings
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import trust
from tournaments.domain import Conflict
from tournaments.models import Adjudication, Battle, Event, General, Group, Report, SwissRound, TableReport
from tournaments.results import reporting
from tournaments.results.agreement import claim_text, map_generals, variants_sentence
from tournaments.standings.queries import schedule_by_round
from tournaments.swiss.tables import result_text

LABELS = {"waiting": gettext_lazy("Waiting for a report"), "reported": gettext_lazy("Reported"), "checking": gettext_lazy(
        "Being checked by the engine"),
          "checked": gettext_lazy("Checked by the engine"), "disputed": "Disputed", "counted": "Counted"}
DECIDABLE = (*Report.AWAITING_STATUSES, Report.Status.DISPUTED, Report.Status.FAILED)


def result_form_initial(battle, *, kind, winner_id=None, condition="", forfeited_by_id=None, player_1_id=None):
    """The values the result form (tournaments.web.forms.ResultForm) starts from, for a result (a
    report's, a verdict's, a counted one): a surrender is named by who surrendered, as the form asks."""
    if kind == "victory" and condition.endswith("_surrender") and winner_id:
        loser = battle.general_b_id if winner_id == battle.general_a_id else battle.general_a_id
        initial = {"kind": "surrender", "surrendered_by": loser, "surrender": condition}
    elif kind == "victory":
        initial = {"kind": kind, "winner": winner_id, "condition": condition}
    elif kind == "forfeit":
        return {"kind": kind, "forfeited_by": forfeited_by_id}
    elif kind in ("stalemate", "resolve"):
        initial = {"kind": kind}
    else:
        return {}
    if player_1_id:
        initial["player_1"] = player_1_id
    return initial


@dataclass
class Line:
    """One battle on the desk."""

    battle: Battle
    table: int
    state: str
    sentence: str  # what is happening, in words
    report: Report | None = None  # the open report the state is about
    engine: str = ""  # the engine's sentence about that report
    verdict: VerdictResult | None = None  # the result the engine's verdict gives, when it differs from the report
    verdict_text: str = ""
    claim: str = ""  # the open report's result in words
    confirm_by: datetime | None = None  # when a waiting report counts by itself
    since: datetime | None = None  # when a dispute began
    initial: dict = field(default_factory=dict)  # where the result form starts
    own: bool = False  # the organizer's own battle: another organizer decides it (R90)
    form: object | None = None  # the page's bound or fresh ResultForm

    @property
    def label(self):
        return LABELS[self.state]

    @property
    def may_accept_report(self):
        return (self.report is not None and self.report.status in DECIDABLE and not self.battle.kind
                and not self.own)

    @property
    def may_accept_verdict(self):
        return self.verdict is not None and self.may_accept_report


@dataclass
class Sheet:
    """The current (or chosen) round of one group, or a league season's battles still to play."""

    where: str
    stage: str
    round_label: str
    rounds: list  # every round label, for links to the others
    lines: list
    group_id: int | None = None
    season_id: int | None = None


@dataclass
class Desk:
    event: object
    sheets: list
    disputes: list  # Lines, oldest first, over the whole event
    confirmations: list  # Lines, the soonest to count by itself first
    now: datetime
    tables: list = field(default_factory=list)  # TableLines of the chosen round (multiplayer tables)


@dataclass(frozen=True)
class TableLine:
    """A multiplayer table on the desk: who sits there, its counted result or where its report is."""

    table: object
    players: list
    result: str  # the counted result in words, or ""
    waiting: str  # "disputed", "reported", or "" (no open report)


# --- reading one battle -----------------------------------------------------------------------------

@dataclass(frozen=True)
class VerdictResult:
    """The result an engine's verdict gives for a battle, in the battle's own generals."""

    kind: str  # "victory", "stalemate" or "resolve"
    winner: General | None  # the victor, for a victory
    condition: str  # a victory's condition, else ""
    player_1: General  # who played p1 in the replay

    def differs_from(self, report):
        return (self.kind, getattr(self.winner, "pk", None), self.condition) != (
            report.kind, report.winner_id, report.condition or "")


def verdict_result(report) -> VerdictResult | None:
    """The result the engine's verdict gives for the report's battle, or None when there is none to accept: no verdict yet, an illegal or
    unfinished battle, a replay of other generals or with other Rules Variants than the event's."""
    adjudication = _adjudication(report)
    verdict = adjudication.verdict if adjudication and adjudication.state == Adjudication.State.DONE else None
    if not verdict or not verdict.get("valid") or verdict.get("outcome") not in ("victory", "stalemate", "resolve"):
        return None
    try:
        document = json.loads(report.replay)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    mapped, problem = map_generals(document, report.battle)
    if problem or variants_sentence(document, report.battle.event):
        return None
    outcome = verdict["outcome"]
    winner = mapped.get(verdict.get("winner")) if outcome == "victory" else None
    if outcome == "victory" and (winner is None or verdict.get("condition") not in Battle.Condition.values):
        return None
    return VerdictResult(kind=outcome, winner=winner, condition=(verdict.get("condition") or "") if winner else "",
                         player_1=mapped["p1"])


def _adjudication(report):
    try:
        return report.adjudication
    except Adjudication.DoesNotExist:
        return None


def engine_sentence(report):
    adjudication = _adjudication(report)
    if adjudication is None:
        return ""
    if adjudication.state in (Adjudication.State.QUEUED, Adjudication.State.RUNNING):
        return _("The engine is checking the replay.")
    if adjudication.state == Adjudication.State.FAILED:
        return (_("Adjudication failed: %(value)s.")
                % {"value": adjudication.last_error or _("the engine did not answer")})
    verdict = adjudication.verdict or {}
    if adjudication.agrees:
        return _("The engine agrees with the report (%(turns)s turns).") % {"turns": verdict.get("turns")}
    return adjudication.disagreement or _("The engine disagrees with the report.")


def line_for(battle, report, *, table=0, now=None):
    """The battle's state in words, with what may be accepted and where the form starts."""
    now = now or timezone.now()
    line = Line(battle=battle, table=table, state="waiting", sentence=_("No report yet."))
    if battle.kind:
        line.state, line.sentence = "counted", f"{battle.outcome_text()}."
        line.initial = result_form_initial(battle, kind=battle.kind, winner_id=battle.winner_id,
                                              condition=battle.condition, forfeited_by_id=battle.forfeited_by_id,
                                              player_1_id=battle.player_1_id)
        return line
    if report is None:
        return line
    line.report = report
    claim = line.claim = claim_text(report.kind, report.winner, report.condition, report.forfeited_by)
    line.engine = engine_sentence(report)
    opponent = trust.opponent_of_reporter(report)
    waiting_for = opponent.name if opponent else _("the opponent")
    if report.status in Report.BEING_ADJUDICATED_STATUSES:
        line.state = "checking"
        line.sentence = (_("%(reporter_name)s reported %(claim)s, with a replay the engine is checking.")
                         % {"reporter_name": reporting.reporter_name(report), "claim": claim})
    elif report.status == Report.Status.CHECKED:
        line.state, line.confirm_by = "checked", report.confirm_by
        line.sentence = (_("%(reporter_name)s reported %(claim)s; the engine agrees; waiting for "
                           "%(waiting_for)s.")
                         % {"reporter_name": reporting.reporter_name(report), "claim": claim, "waiting_for": waiting_for})
    elif report.status == Report.Status.AWAITING_OPPONENT:
        line.state, line.confirm_by = "reported", report.confirm_by
        line.sentence = (_("%(reporter_name)s reported %(claim)s; waiting for %(waiting_for)s.")
                         % {"reporter_name": reporting.reporter_name(report), "claim": claim, "waiting_for": waiting_for})
    else:  # disputed, or adjudication failed: an organizer decides
        line.state, line.since = "disputed", report.updated_at
        if report.status == Report.Status.FAILED:
            why = _("the engine could not check the replay")
        elif report.status_reason == line.engine or not report.status_reason:
            why = _("the engine disagrees")
        else:
            why = f"disputed: {report.status_reason}"
        line.sentence = f"{reporting.reporter_name(report)} reported {claim}; {why}"
    verdict = verdict_result(report)
    if verdict is not None and verdict.differs_from(report):
        line.verdict = verdict
        line.verdict_text = claim_text(verdict.kind, verdict.winner, verdict.condition, None)
        line.initial = result_form_initial(battle, kind=verdict.kind, winner_id=getattr(verdict.winner, "pk", None),
                                           condition=verdict.condition, player_1_id=verdict.player_1.pk)
    else:
        line.initial = result_form_initial(battle, kind=report.kind, winner_id=report.winner_id,
                                           condition=report.condition or "", forfeited_by_id=report.forfeited_by_id,
                                           player_1_id=report.player_1_id)
    return line


def open_report_of(battle):
    """The battle's open report the desk shows: the latest one."""
    return _open_reports([battle]).get(battle.pk)


def _open_reports(battles):
    reports = {}
    for report in (Report.objects.filter(battle__in=[b.pk for b in battles], status__in=Report.OPEN_STATUSES)
                   .select_related("reported_by", "winner", "forfeited_by", "player_1", "adjudication")
                   .order_by("-created_at", "-id")):
        reports.setdefault(report.battle_id, report)
    by_pk = {b.pk: b for b in battles}
    for report in reports.values():
        report.battle = by_pk[report.battle_id]  # the battle already loaded, with its event and generals
    return reports


# --- the page's data --------------------------------------------------------------------------------

_RELATED = ("event", "group", "season", "general_a", "general_b", "winner", "forfeited_by", "player_1")


def _current_round(rounds):
    """The first round with a battle still to decide, else the last (as the printed pairings)."""
    for label, battles in rounds:
        if any(not b.kind for b in battles):
            return label
    return rounds[-1][0] if rounds else None


def gather(event, *, user=None, group_id=None, season_id=None, round_label=None, now=None):
    """The desk of `event` as `user` (an organizer) sees it: by default each group of its latest
    stage (the Final Group once it exists) at its current round, or the league's current season;
    `group_id` / `season_id` and `round_label` choose one. Http404 for a group or season not of
    this event. The user's own battles are marked `own`: they do not decide them (R90)."""
    now = now or timezone.now()
    mine = trust.general_of(user)
    groups = event.groups.order_by("-stage", "index")
    seasons = event.seasons.order_by("-number")
    if group_id is not None:
        groups, seasons = groups.filter(pk=group_id), seasons.none()
    elif season_id is not None:
        groups, seasons = groups.none(), seasons.filter(pk=season_id)
    else:
        if event.groups.filter(stage=Group.Stage.FINAL).exists():
            groups = groups.filter(stage=Group.Stage.FINAL)
        current = event.current_season()
        seasons = seasons.filter(pk=current.pk) if current else seasons.none()
    groups, seasons = list(groups), list(seasons)
    if (group_id is not None or season_id is not None) and not (groups or seasons):
        raise Http404(_("This event has no such group or season."))

    chosen = []  # (Sheet without lines, [battles])
    if event.format == Event.Format.SWISS:
        groups, seasons = [], []
        chosen.extend(_swiss_sheets(event, round_label))
    for group in groups:
        rounds = schedule_by_round(Battle.objects.filter(group=group).select_related(*_RELATED))
        labels = [label for label, _ in rounds]
        label = round_label if round_label in labels else _current_round(rounds)
        battles = next((items for item_label, items in rounds if item_label == label), [])
        chosen.append((Sheet(group.name, group.get_stage_display(), label or _("No battles"), labels, [],
                             group_id=group.pk), battles))
    for season in seasons:
        battles = sorted(Battle.objects.filter(season=season).select_related(*_RELATED),
                         key=lambda b: (b.playoff, b.number, b.pk))
        still = [b for b in battles if not b.kind]
        chosen.append((Sheet(season.name, _("League season"), _("Scheduled battles") if still else _("All battles"), [], [],
                             season_id=season.pk), still or battles))

    reports = _open_reports([b for _sheet, battles in chosen for b in battles])
    sheets = []
    for sheet, battles in chosen:
        sheet.lines = [line_for(b, reports.get(b.pk), table=table, now=now) for table, b in enumerate(battles, 1)]
        sheets.append(sheet)
    disputes, confirmations = waiting_lines(event, now=now)
    for line in (*[line for sheet in sheets for line in sheet.lines], *disputes, *confirmations):
        line.own = mine is not None and line.battle.involves(mine)
    return Desk(event=event, sheets=sheets, disputes=disputes, confirmations=confirmations, now=now,
                tables=_table_lines(event, round_label) if event.table_size > 2 else [])


def _table_lines(event, round_label):
    _labels, chosen = chosen_swiss_round(event, round_label)
    if chosen is None:
        return []
    lines = []
    for table in chosen.tables.prefetch_related("seats__general", "reports").order_by("number"):
        statuses = {report.status for report in table.reports.all()}
        waiting = ("disputed" if TableReport.Status.DISPUTED in statuses
                   else "reported" if TableReport.Status.AWAITING in statuses else "")
        lines.append(TableLine(table=table, players=[seat.general.name for seat in table.seats.all()],
                               result=result_text(table, table.eliminations, table.finished)
                               if table.is_decided else "", waiting=waiting))
    return lines


def swiss_label(swiss_round):
    return _("Swiss round %(number)s") % {"number": swiss_round.number} if swiss_round.stage == SwissRound.Stage.SWISS else (
        _("Top cut, round %(number)s") % {"number": swiss_round.number})


def chosen_swiss_round(event, round_label=None):
    """(every round label in order, the round asked for by its label or else the latest) of a Swiss
    event; ([], None) before its first round."""
    rounds = sorted(SwissRound.objects.filter(event=event).select_related("bye"),
                    key=lambda r: (r.stage == SwissRound.Stage.TOP_CUT, r.number))
    labels = [swiss_label(r) for r in rounds]
    chosen = next((r for r, label in zip(rounds, labels, strict=True) if label == round_label),
                  rounds[-1] if rounds else None)
    return labels, chosen


def _swiss_sheets(event, round_label):
    """A Swiss event's desk: the latest paired round (or the one asked for), tables in order."""
    labels, chosen = chosen_swiss_round(event, round_label)
    if chosen is None:
        return []
    battles = list(Battle.objects.filter(swiss_round=chosen).select_related(*_RELATED).order_by("number"))
    return [(Sheet(event.game_system.short_name, chosen.get_stage_display(), swiss_label(chosen), labels, []),
             battles)]


def waiting_lines(event, *, now=None):
    """The event's disputes (oldest first) and reports waiting for confirmation (soonest to count by
    itself first), one line per battle, whatever its round."""
    now = now or timezone.now()
    battles = list(Battle.objects.filter(event=event, kind="", reports__status__in=Report.OPEN_STATUSES)
                   .select_related(*_RELATED).distinct())
    reports = _open_reports(battles)
    lines = [line_for(b, reports[b.pk], now=now) for b in battles if b.pk in reports]
    disputes = sorted((line for line in lines if line.state == "disputed"), key=lambda line: line.since)
    confirmations = sorted((line for line in lines if line.state in ("reported", "checked")),
                           key=lambda line: (line.confirm_by is None, line.confirm_by or now))
    return disputes, confirmations


# --- what the organizer does --------------------------------------------------------------------------

def accept_report(report, *, user):
    """One click: the report counts as reported (no reason needed: both the report and the
    organizer's acceptance are in the audit trail)."""
    return reporting.confirm_report(report, user=user).recorded


def accept_verdict(report, *, user):
    """One click: the engine's verdict counts instead of the report, as an override whose reason
    is the verdict itself."""
    report = Report.objects.select_related("battle", "battle__event", "battle__general_a", "battle__general_b",
                                           "winner", "forfeited_by", "player_1", "reported_by").get(pk=report.pk)
    verdict = verdict_result(report)
    if verdict is None:
        raise Conflict(_("The engine's verdict gives no result to accept for this report."))
    text = claim_text(verdict.kind, verdict.winner, verdict.condition, None)
    engine = _adjudication(report).engine_version
    return reporting.override_report(
        report, user=user, reason=f"Accepted the rules engine's verdict{f' ({engine})' if engine else ''}: {text}.",
        kind=verdict.kind, winner=verdict.winner, condition=verdict.condition, forfeited_by=None,
        player_1=verdict.player_1).recorded


def record(battle, *, user, outcome, reason=""):
    """The one result form: the open report's own result without a reason accepts it as reported;
    anything else is the organizer's decision (`reporting.decide_battle`: a first result, an
    override or a correction, the last two with a reason)."""
    report = open_report_of(battle) if not battle.kind else None
    same = report is not None and report.status in DECIDABLE and (
        outcome["kind"], getattr(outcome.get("winner"), "pk", None), outcome.get("condition") or "",
        getattr(outcome.get("forfeited_by"), "pk", None)) == report.claim() and (
        outcome.get("player_1") is None or outcome["player_1"].pk == report.player_1_id)
    if same and not (reason or "").strip():
        return accept_report(report, user=user)
    return reporting.decide_battle(battle, user=user, reason=reason, **outcome)
