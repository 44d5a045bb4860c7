"""Public exports of an event: registrations, schedule, results and standings, as CSV or JSON.

Each export is a `Table`: columns (a key for JSON, the public name for the CSV header) and rows of
plain values. Only what the public pages show goes in: counted results (a battle's own result
fields), never reports, replays or dispute reasons, which belong to the battle's generals and
organizers. The standings columns follow `TIEBREAKERS`, so a new tie-breaker is exported as soon as
it is ranked.

A Swiss event (any game) exports its own shapes under the same names: the schedule and results by
stage (Swiss round or top cut), round and table, with the byes, each result's points by the event's
scoring and its raw facts (a column per fact of the game, two for a fact per side); the standings with
score, record and a column per tie-breaker of the event, in its order and named as its game names it.
At multiplayer tables (Warlord CCG, 3-4 players) the schedule and results are
by table: its players in seat order, finished or not, the winner and the elimination order.
Events in groups export exactly as before. A game with lists adds the lists export: each player's
current list (status, version, time, violation codes), row by row only for who may see that list
(tournaments.lists.services.may_see_list: closed lists, the organizers only).

Times (when a result was decided, a bye given, a list submitted) are kept as moments in the rows. The CSV
writes them in the event's zone, ISO 8601 with the offset (2026-11-26T10:00:00+01:00), and names the zone in
the column's header ("Decided at (Europe/Berlin)"), as every page shows the event's times; the JSON keeps
them in UTC with the offset as before and names the event's zone once, in its "event" object.
"""
from __future__ import annotations

import csv
import io
import re
import zoneinfo
from dataclasses import dataclass
from datetime import datetime

from tournaments import trust
from tournaments.domain import TIEBREAKERS, opp_awards
from tournaments.lists.services import event_lists, may_see_list
from tournaments.models import Battle, Group, SwissRound
from tournaments.models import Table as SeatedTable  # a multiplayer table; `Table` here is an export's
from tournaments.standings.tables import battle_result, group_standings, season_standings
from tournaments.swiss import standings as swiss_standings
from tournaments.timezones import zone_of

EXPORTS = ("registrations", "schedule", "results", "standings")
LISTS = "lists"  # a game with lists: as each list is visible (`lists_table`), not public as the others

# A spreadsheet runs a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A spreadsheet may split a cell again where it holds a field separator of some locale (",", ";", a tab,
# "|") or a line end: a formula character after one of them (past spaces and quotes) would start a cell too.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t|\r\n][\s\"]*)(?=[=+\-@])")


# The columns holding a moment (a datetime in the rows): the CSV writes them in the event's zone.
TIME_COLUMNS = frozenset({"decided_at", "submitted_at"})


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]  # (key, public name)
    rows: list[dict]
    time_zone: str = "UTC"  # the event's zone (an IANA name): the CSV's times are in it

    def as_json(self, event):
        return {
            "event": {"slug": event.slug, "name": event.name, "time_zone": self.time_zone},
            "export": self.name,
            "columns": [{"key": key, "label": label} for key, label in self.columns],
            "rows": [{key: value.isoformat() if isinstance(value, datetime) else value for key, value in row.items()}
                     for row in self.rows],
        }

    def csv_header(self):
        """The public column names; a time column names the zone its times are in."""
        return [f"{label} ({self.time_zone})" if key in TIME_COLUMNS else label for key, label in self.columns]

    def csv_cell(self, value):
        if isinstance(value, datetime):
            return value.astimezone(zoneinfo.ZoneInfo(self.time_zone)).isoformat(timespec="seconds")
        return value


def export_table(event, name, columns, rows):
    """An export of `event`, its times in the event's zone."""
    return Table(name, columns, rows, time_zone=zone_of(event).key)


def safe_cell(value):
    """A CSV cell a spreadsheet shows as text, whatever separator its locale splits on (OWASP): a string
    that would start a formula gets a leading quote, and so does a formula character after a separator or
    a line end inside it (`Alice;=cmd|...` is written `Alice;'=cmd|...`). Numbers stay
    numbers (a negative OPP is a figure, not a formula); None is an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    text = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", str(value))
    return "'" + text if text.lstrip(' "').startswith(FORMULA_STARTS) else text


def to_csv(table):
    """UTF-8 text with a header row of the public column names; every cell quoted (OWASP), so a
    separator inside a cell stays inside it for a reader that honours quotes."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    writer.writerow([safe_cell(label) for label in table.csv_header()])
    for row in table.rows:
        writer.writerow([safe_cell(table.csv_cell(row.get(key))) for key, _label in table.columns])
    return out.getvalue()


def _name(general):
    return general.name if general is not None else None


def where_of(battle):
    if battle.group_id:
        return battle.group.name
    return battle.season.name if battle.season_id else ""


def stage_of(battle):
    if battle.group_id:
        return battle.group.get_stage_display()
    return "League season" if battle.season_id else ""


def _battles(event):
    return (event.battles.select_related("group", "season", "general_a", "general_b", "winner", "forfeited_by",
                                         "player_1")
            .order_by("-group__stage", "group__index", "season__number", "playoff", "round", "number", "pk"))


def registrations_table(event):
    disqualified = {dq.general_id: dq for dq in event.disqualifications.all()}
    rows = []
    for registration in event.registrations.select_related("general").order_by("number"):
        dq = disqualified.get(registration.general_id)
        row = {
            "number": registration.number, "general": registration.general.name, "seed": registration.seed,
            "status": registration.get_status_display(), "status_reason": registration.status_reason,
            "disqualified": dq is not None, "disqualification": dq.get_reason_display() if dq else None,
            "disqualification_details": dq.details if dq else None,
        }
        if event.is_swiss:  # a player who left between rounds keeps their place (tournaments.swiss.rounds.drop)
            row["dropped_after_round"] = registration.dropped_after_round
        rows.append(row)
    columns = (
        ("number", "Number"), ("general", "General"), ("seed", "Seed"), ("status", "Status"),
        ("status_reason", "Status reason"), ("disqualified", "Disqualified"),
        ("disqualification", "Disqualification"), ("disqualification_details", "Disqualification details"),
    )
    if event.is_swiss:
        columns += (("dropped_after_round", "Dropped after round"),)
    return export_table(event, "registrations", columns, rows)


def table_numbers(battles):
    """{battle pk: table} numbering each round's battles 1, 2, … in battle order, per group or season."""
    tables, counters = {}, {}
    for battle in sorted(battles, key=lambda b: (b.group_id or 0, b.season_id or 0, b.playoff, b.round, b.number,
                                                 b.pk)):
        key = (battle.group_id, battle.season_id, battle.playoff, battle.round)
        counters[key] = counters.get(key, 0) + 1
        tables[battle.pk] = counters[key]
    return tables


def schedule_table(event):
    if event.is_swiss:
        return swiss_schedule_table(event)
    battles = list(_battles(event))
    tables = table_numbers(battles)
    rows = [{
        "stage": stage_of(b), "where": where_of(b), "round": "Playoff" if b.playoff else b.round,
        "battle": b.number, "table": tables[b.pk], "general_a": b.general_a.name, "general_b": b.general_b.name,
        "state": "decided" if b.kind else "to play",
    } for b in battles]
    return export_table(event, "schedule", (
        ("stage", "Stage"), ("where", "Group or season"), ("round", "Round"), ("battle", "Battle"),
        ("table", "Table"), ("general_a", "General A"), ("general_b", "General B"), ("state", "State"),
    ), rows)


def results_table(event):
    """Counted results only: a battle's result fields are set once its report is confirmed or an
    organizer records it."""
    if event.is_swiss:
        return swiss_results_table(event)
    rows = []
    for battle in _battles(event).exclude(kind=""):
        awards = opp_awards(battle_result(battle), event.forfeit_award)
        dq = battle.kind == Battle.Kind.UNPLAYED_DQ  # the disqualified general is kept in forfeited_by
        rows.append({
            "stage": stage_of(battle), "where": where_of(battle),
            "round": "Playoff" if battle.playoff else battle.round, "battle": battle.number,
            "general_a": battle.general_a.name, "general_b": battle.general_b.name,
            "result": battle.get_kind_display(), "condition": battle.get_condition_display() or None,
            "winner": _name(battle.winner), "forfeited_by": None if dq else _name(battle.forfeited_by),
            "disqualified": _name(battle.forfeited_by) if dq else None,
            "opp_a": awards[battle.general_a.key], "opp_b": awards[battle.general_b.key],
            "player_1": _name(battle.player_1), "respect_shown": battle.respect_shown,
            "outcome": battle.outcome_text(),
            "decided_at": battle.decided_at,
        })
    return export_table(event, "results", (
        ("stage", "Stage"), ("where", "Group or season"), ("round", "Round"), ("battle", "Battle"),
        ("general_a", "General A"), ("general_b", "General B"), ("result", "Result"), ("condition", "Condition"),
        ("winner", "Winner"), ("forfeited_by", "Forfeited by"), ("disqualified", "Not fought: disqualified"),
        ("opp_a", "OPP A"), ("opp_b", "OPP B"), ("player_1", "Player-1"), ("respect_shown", "General Respect shown"),
        ("outcome", "Outcome"), ("decided_at", "Decided at"),
    ), rows)


STANDINGS_COLUMNS = (
    ("table", "Group or season"), ("stage", "Stage"), ("place", "Place"), ("shared", "Place shared"),
    ("general", "General"),
    *((metric.key, metric.label) for metric in TIEBREAKERS),
    ("played", "Battles played"), ("pending", "Battles still to play"), ("defeats", "Defeats"),
    ("forfeits", "Forfeits"), ("disqualified", "Disqualified"), ("decided", "Advances or wins"),
)


def _standing_rows(name, stage, table, decided):
    rows = []
    for row, general in table.entries():
        rows.append({
            "table": name, "stage": stage, "place": row.place, "shared": row.shared, "general": general.name,
            **{metric.key: row.figure(metric.key) for metric in TIEBREAKERS},
            "played": row.played, "pending": row.pending, "defeats": row.defeats, "forfeits": row.forfeits,
            "disqualified": row.disqualified, "decided": decided is not None and decided.pk == general.pk,
        })
    return rows


def standings_table(event):
    """Every group's and season's standings, in the order the event page shows them (R24)."""
    if event.is_swiss:
        return swiss_standings_table(event)
    rows = []
    for group in event.groups.select_related("winner").order_by("-stage", "index"):
        rows += _standing_rows(group.name, str(Group.Stage(group.stage).label), group_standings(group),
                              group.winner)
    for season in event.seasons.select_related("champion").order_by("-number"):
        rows += _standing_rows(season.name, "League season", season_standings(season), season.champion)
    return export_table(event, "standings", STANDINGS_COLUMNS, rows)


# --- Swiss events ---------------------------------------------------------------------------------------

def _swiss_battles(event):
    return (Battle.objects.filter(event=event, swiss_round__isnull=False)
            .select_related("swiss_round", "general_a", "general_b", "winner", "forfeited_by")
            .order_by("-swiss_round__stage", "swiss_round__number", "number", "pk"))


def _byes(event):
    return (event.swiss_rounds_paired.filter(stage=SwissRound.Stage.SWISS).exclude(bye=None)
            .select_related("bye").order_by("number"))


def _in_order(battle_rows, bye_rows):
    """Battles and byes of each round together: the Swiss rounds first, a round's bye after its tables."""
    stages = {str(SwissRound.Stage.SWISS.label): 0, str(SwissRound.Stage.TOP_CUT.label): 1}
    return sorted([*battle_rows, *bye_rows],
                  key=lambda row: (stages[row["stage"]], row["round"], row["table"] is None, row["table"] or 0))


SWISS_SCHEDULE_COLUMNS = (
    ("stage", "Stage"), ("round", "Round"), ("table", "Table"), ("general_a", "Player A"),
    ("general_b", "Player B"), ("state", "State"),
)


def _multiplayer_tables(event):
    return (SeatedTable.objects.filter(event=event).select_related("swiss_round").prefetch_related("seats__general")
            .order_by("swiss_round__number", "number"))


def _seated_names(table):
    return [seat.general.name for seat in sorted(table.seats.all(), key=lambda seat: seat.seat)]


MULTIPLAYER_SCHEDULE_COLUMNS = (
    ("stage", "Stage"), ("round", "Round"), ("table", "Table"), ("players", "Players in seat order"),
    ("state", "State"),
)


def multiplayer_schedule_table(event):
    """Every table of every round with its players, seat 1 first; then the top cut's two-player battles."""
    tables = [{"stage": t.swiss_round.get_stage_display(), "round": t.swiss_round.number, "table": t.number,
               "players": ", ".join(_seated_names(t)), "state": "decided" if t.is_decided else "to play"}
              for t in _multiplayer_tables(event)]
    cut = [{"stage": b.swiss_round.get_stage_display(), "round": b.round, "table": b.number,
            "players": f"{b.general_a.name}, {b.general_b.name}", "state": "decided" if b.kind else "to play"}
           for b in _swiss_battles(event)]
    return export_table(event, "schedule", MULTIPLAYER_SCHEDULE_COLUMNS, _in_order(tables, cut))


def multiplayer_results_table(event):
    """Every counted table: finished or not, the winner, the elimination order (first out first); then
    the top cut's counted battles, the loser as the one eliminated."""
    cut = [{"stage": b.swiss_round.get_stage_display(), "round": b.round, "table": b.number,
            "players": f"{b.general_a.name}, {b.general_b.name}", "finished": True, "winner": _name(b.winner),
            "eliminated": (b.general_b if b.winner_id == b.general_a_id else b.general_a).name if b.winner_id else "",
            "decided_at": b.decided_at}
           for b in _swiss_battles(event).exclude(kind="")]
    rows = []
    for t in _multiplayer_tables(event).exclude(finished=None):
        names = {seat.general_id: seat.general.name for seat in t.seats.all()}
        left = [name for general, name in names.items() if general not in t.eliminations]
        rows.append({
            "stage": t.swiss_round.get_stage_display(), "round": t.swiss_round.number, "table": t.number,
            "players": ", ".join(_seated_names(t)), "finished": t.finished,
            "winner": left[0] if t.finished and len(left) == 1 else None,
            "still_in": None if t.finished else ", ".join(left),
            "eliminated": ", ".join(names.get(general, "?") for general in t.eliminations),
            "decided_at": t.decided_at,
        })
    return export_table(event, "results", (
        ("stage", "Stage"), ("round", "Round"), ("table", "Table"), ("players", "Players in seat order"),
        ("finished", "Finished"), ("winner", "Winner"), ("still_in", "Still in when time ran out"),
        ("eliminated", "Eliminated, first out first"), ("decided_at", "Decided at"),
    ), _in_order(rows, cut))


def swiss_schedule_table(event):
    """Every pairing of the Swiss rounds and the top cut, table by table, and each round's bye."""
    if event.table_size > 2:
        return multiplayer_schedule_table(event)
    battles = [{"stage": b.swiss_round.get_stage_display(), "round": b.round, "table": b.number,
                "general_a": b.general_a.name, "general_b": b.general_b.name,
                "state": "decided" if b.kind else "to play"} for b in _swiss_battles(event)]
    byes = [{"stage": r.get_stage_display(), "round": r.number, "table": None, "general_a": r.bye.name,
             "general_b": None, "state": "bye"} for r in _byes(event)]
    return export_table(event, "schedule", SWISS_SCHEDULE_COLUMNS, _in_order(battles, byes))


def fact_columns(system):
    """A column per raw fact of the game's results; a fact per side gets one per player (A, B)."""
    columns = []
    for fact in system.result_facts:
        if fact.per_side:
            columns += [(f"fact_{fact.key}_a", f"{fact.label} (A)"), (f"fact_{fact.key}_b", f"{fact.label} (B)")]
        else:
            columns.append((f"fact_{fact.key}", fact.label))
    return tuple(columns)


def _fact_cells(system, facts):
    cells = {}
    for fact in system.result_facts:
        value = (facts or {}).get(fact.key)
        if fact.per_side:
            cells[f"fact_{fact.key}_a"] = (value or {}).get("a")
            cells[f"fact_{fact.key}_b"] = (value or {}).get("b")
        else:
            cells[f"fact_{fact.key}"] = value
    return cells


def _swiss_points(event, battle, scoring):
    """(points of A, points of B) by the event's scoring; a top-cut battle or one not fought scores none
    (the standings count the Swiss rounds only)."""
    if battle.swiss_round.stage != SwissRound.Stage.SWISS or battle.kind not in event.game_system.outcomes:
        return None, None
    first, second = event.game_system.outcomes[battle.kind]
    outcome_a = first if battle.winner_id in (None, battle.general_a_id) else second
    outcome_b = first if battle.winner_id in (None, battle.general_b_id) else second
    return float(scoring.points(outcome_a)), float(scoring.points(outcome_b))


def swiss_results_table(event):
    """Counted results of the Swiss rounds and the top cut with their points and raw facts, and the byes."""
    if event.table_size > 2:
        return multiplayer_results_table(event)
    system, scoring = event.game_system, swiss_standings.scoring_of(event)
    rows = []
    for battle in _swiss_battles(event).exclude(kind=""):
        kind = system.result_kind(battle.kind)
        points_a, points_b = _swiss_points(event, battle, scoring)
        dq = battle.kind == Battle.Kind.UNPLAYED_DQ
        rows.append({
            "stage": battle.swiss_round.get_stage_display(), "round": battle.round, "table": battle.number,
            "general_a": battle.general_a.name, "general_b": battle.general_b.name,
            "result": kind.label if kind else battle.get_kind_display(),
            "winner": _name(battle.winner), "forfeited_by": None if dq else _name(battle.forfeited_by),
            "points_a": points_a, "points_b": points_b, **_fact_cells(system, battle.facts),
            "outcome": battle.outcome_text(),
            "decided_at": battle.decided_at,
        })
    byes = [{"stage": r.get_stage_display(), "round": r.number, "table": None, "general_a": r.bye.name,
             "result": "Bye", "points_a": float(scoring.points("bye")), "outcome": f"{r.bye.name} has the bye",
             "decided_at": r.paired_at} for r in _byes(event)]
    return export_table(event, "results", (
        ("stage", "Stage"), ("round", "Round"), ("table", "Table"), ("general_a", "Player A"),
        ("general_b", "Player B"), ("result", "Result"), ("winner", "Winner"), ("forfeited_by", "Forfeited by"),
        ("points_a", "Points A"), ("points_b", "Points B"), *fact_columns(system), ("outcome", "Outcome"),
        ("decided_at", "Decided at"),
    ), _in_order(rows, byes))


def swiss_standings_table(event):
    """The Swiss standings (tournaments.swiss.standings.table): a column per tie-breaker of the event,
    in its order, named as the game names it."""
    table = swiss_standings.table(event)
    rows = [{"place": line.rank, "shared": line.shared, "general": line.general.name,
             "score": line.score, "wins": line.wins, "draws": line.draws, "losses": line.losses, "byes": line.byes,
             **dict(line.tie_breaks), "dropped": line.dropped,
             "decided": event.victor_id is not None and event.victor_id == line.general.pk}
            for line in table.lines]
    return export_table(event, "standings", (
        ("place", "Place"), ("shared", "Place shared"), ("general", "Player"), ("score", "Score"), ("wins", "Wins"),
        ("draws", "Draws"), ("losses", "Losses"), ("byes", "Byes"),
        *((key, label) for key, label, _explanation in table.tie_breakers),
        ("dropped", "Dropped"), ("decided", "Winner"),
    ), rows)


# --- lists ------------------------------------------------------------------------------------------------

LISTS_COLUMNS = (
    ("general", "Player"), ("status", "Status"), ("version", "Version"), ("submitted_at", "Submitted at"),
    ("violations", "Violations"), ("accepted_reason", "Accepted because"), ("summary", "List"),
)


def has_lists(event):
    return event.game_system.has_lists


def may_export_lists(user, event):
    """The organizers; others when they may see a list (open lists once public, a player their own)."""
    return has_lists(event) and (trust.may_organize(user, event)
                                 or any(may_see_list(user, event, registration)
                                        for registration, _version in event_lists(event)))


def lists_table(event, user):
    """Each registered player's current list, in registration order, as far as `user` may see it
    (may_see_list): status (valid, violations, accepted, withdrawn, none), version, when it was submitted
    and the codes of its violations."""
    checker = event.game_system.list_checker
    rows = []
    for registration, version in event_lists(event):
        if not may_see_list(user, event, registration):
            continue
        readable = version is not None and not version.withdrawn
        rows.append({
            "general": registration.general.name, "status": version.status if version else "none",
            "version": version.version if version else None,
            "submitted_at": version.submitted_at if version else None,
            "violations": ", ".join(v["code"] for v in version.violations) if readable else "",
            "accepted_reason": version.accepted_reason if readable and version.accepted_at else None,
            "summary": checker.summary(version.content) if readable else None,
        })
    return export_table(event, LISTS, LISTS_COLUMNS, rows)


def offered(event, user):
    """The exports the event's page offers `user`: the public ones, and the lists when they may see any."""
    return (*EXPORTS, LISTS) if may_export_lists(user, event) else EXPORTS


BUILDERS = {
    "registrations": registrations_table,
    "schedule": schedule_table,
    "results": results_table,
    "standings": standings_table,
}
