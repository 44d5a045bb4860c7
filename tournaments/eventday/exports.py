"""Public exports of an event: registrations, schedule, results and standings, as CSV or JSON.

Each export is a `Table`: columns (a key for JSON, the public name for the CSV header) and rows of
plain values. Only what the public pages show goes in: counted results (a battle's own result
fields), never reports, replays or dispute reasons, which belong to the battle's generals and
organizers. The standings columns follow `TIEBREAKERS`, so a new tie-breaker is exported as soon as
it is ranked.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from tournaments.domain import TIEBREAKERS, opp_awards
from tournaments.models import Battle, Group
from tournaments.standings.tables import battle_result, group_standings, season_standings

EXPORTS = ("registrations", "schedule", "results", "standings")

# A spreadsheet runs a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A spreadsheet may split a cell again where it holds a field separator of some locale (",", ";", a tab,
# "|") or a line end: a formula character after one of them (past spaces and quotes) would start a cell too.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t|\r\n][\s\"]*)(?=[=+\-@])")


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]  # (key, public name)
    rows: list[dict]

    def as_json(self, event):
        return {
            "event": {"slug": event.slug, "name": event.name},
            "export": self.name,
            "columns": [{"key": key, "label": label} for key, label in self.columns],
            "rows": self.rows,
        }


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
    writer.writerow([safe_cell(label) for _key, label in table.columns])
    for row in table.rows:
        writer.writerow([safe_cell(row.get(key)) for key, _label in table.columns])
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
        rows.append({
            "number": registration.number, "general": registration.general.name, "seed": registration.seed,
            "status": registration.get_status_display(), "status_reason": registration.status_reason,
            "disqualified": dq is not None, "disqualification": dq.get_reason_display() if dq else None,
            "disqualification_details": dq.details if dq else None,
        })
    return Table("registrations", (
        ("number", "Number"), ("general", "General"), ("seed", "Seed"), ("status", "Status"),
        ("status_reason", "Status reason"), ("disqualified", "Disqualified"),
        ("disqualification", "Disqualification"), ("disqualification_details", "Disqualification details"),
    ), rows)


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
    battles = list(_battles(event))
    tables = table_numbers(battles)
    rows = [{
        "stage": stage_of(b), "where": where_of(b), "round": "Playoff" if b.playoff else b.round,
        "battle": b.number, "table": tables[b.pk], "general_a": b.general_a.name, "general_b": b.general_b.name,
        "state": "decided" if b.kind else "to play",
    } for b in battles]
    return Table("schedule", (
        ("stage", "Stage"), ("where", "Group or season"), ("round", "Round"), ("battle", "Battle"),
        ("table", "Table"), ("general_a", "General A"), ("general_b", "General B"), ("state", "State"),
    ), rows)


def results_table(event):
    """Counted results only: a battle's result fields are set once its report is confirmed or an
    organizer records it."""
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
            "decided_at": battle.decided_at.isoformat() if battle.decided_at else None,
        })
    return Table("results", (
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
    rows = []
    for group in event.groups.select_related("winner").order_by("-stage", "index"):
        rows += _standing_rows(group.name, Group.Stage(group.stage).label, group_standings(group), group.winner)
    for season in event.seasons.select_related("champion").order_by("-number"):
        rows += _standing_rows(season.name, "League season", season_standings(season), season.champion)
    return Table("standings", STANDINGS_COLUMNS, rows)


BUILDERS = {
    "registrations": registrations_table,
    "schedule": schedule_table,
    "results": results_table,
    "standings": standings_table,
}
