"""Standings counters computed by the database: one aggregation over a group's or a season's battles,
the same counters `tournaments.domain.standings` counts in Python, ranked by the same
`rank_tallies`. Every number in the SQL comes from the domain's tables (OPP per condition, the
Stalemate, Resolve and disqualification awards, the tie-break conditions), so the rules stay in one
place; a test compares both countings on seasons with every kind of result.

Why: a league season of a million battles would otherwise be read row by row into Python.
"""
from __future__ import annotations

from django.db import connection

from tournaments.domain import CONDITION_METRICS, COUNTERS, OPP_FOR_CONDITION, DomainError
from tournaments.domain.opp import RESOLVE_OPP, STALEMATE_OPP, UNPLAYED_DQ_OPP
from tournaments.models import Battle

_DECIDED_AND_FOUGHT = ("victory", "stalemate", "resolve", "forfeit")  # R72: unplayed_dq is not "played"


def _quote(text):
    return "'" + text.replace("'", "''") + "'"


def _count(condition):
    return f"COUNT(*) FILTER (WHERE {condition})"


def _counter_columns():
    # `won` and `mine` (this side forfeited, or is the disqualified one) are computed once per side
    # in the CTE below, so each counter is a cheap test on plain columns.
    opp_by_condition = " ".join(f"WHEN {_quote(c)} THEN {opp}" for c, opp in OPP_FOR_CONDITION.items())
    columns = {
        "opp": ("SUM(CASE kind"
                f" WHEN 'victory' THEN CASE WHEN won THEN CASE condition {opp_by_condition} ELSE 0 END ELSE 0 END"
                " WHEN 'forfeit' THEN CASE WHEN mine THEN 0 ELSE %(forfeit_opp)s END"
                f" WHEN 'stalemate' THEN {STALEMATE_OPP}"
                f" WHEN 'resolve' THEN {RESOLVE_OPP}"
                f" WHEN 'unplayed_dq' THEN CASE WHEN mine THEN 0 ELSE {UNPLAYED_DQ_OPP} END"
                " ELSE 0 END)"),
        "victories": _count("(kind = 'victory' AND won) OR (kind = 'forfeit' AND NOT mine AND %(forfeit_victory)s = 1)"),
        "stalemate_defeats": _count("kind = 'stalemate'"),
        "resolve_defeats": _count("kind = 'resolve'"),
        "played": _count("kind IN (" + ", ".join(map(_quote, _DECIDED_AND_FOUGHT)) + ")"),
        "defeats": _count("(kind = 'victory' AND NOT won) OR (kind = 'forfeit' AND mine)"),
        "forfeits": _count("kind = 'forfeit' AND mine"),
        "pending": _count("kind = ''"),
    }
    for condition, counter in CONDITION_METRICS.items():
        columns[counter] = _count(f"won AND condition = {_quote(condition)}")
    assert set(columns) == set(COUNTERS), "every standings counter needs its SQL"
    return columns


_COLUMNS = _counter_columns()
_SQL = """
WITH sides AS (
    SELECT general_a_id AS general, kind, condition,
           COALESCE(winner_id = general_a_id, %(false)s) AS won,
           COALESCE(forfeited_by_id = general_a_id, %(false)s) AS mine
      FROM {table} WHERE {scope} = %(scope_id)s AND playoff = %(false)s
    UNION ALL
    SELECT general_b_id AS general, kind, condition,
           COALESCE(winner_id = general_b_id, %(false)s) AS won,
           COALESCE(forfeited_by_id = general_b_id, %(false)s) AS mine
      FROM {table} WHERE {scope} = %(scope_id)s AND playoff = %(false)s
)
SELECT general, {columns} FROM sides GROUP BY general
"""


def count_in_database(*, generals, forfeit_award, group_id=None, season_id=None, add_unknown=False):
    """{general key: {counter: value}} for every general in `generals`, counted over the regular
    (non-playoff, R24) battles of one group or one season. A battle's general outside `generals` is
    refused, or counted too with `add_unknown`."""
    scope, scope_id = ("group_id", group_id) if group_id is not None else ("season_id", season_id)
    sql = _SQL.format(table=Battle._meta.db_table, scope=scope,
                      columns=", ".join(f"{expression} AS {name}" for name, expression in _COLUMNS.items()))
    params = {"scope_id": scope_id, "false": False, "forfeit_opp": forfeit_award.opp,
              "forfeit_victory": 1 if forfeit_award.counts_as_victory else 0}
    tallies = {key: dict.fromkeys(COUNTERS, 0) for key in generals}
    names = list(_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for general_id, *values in cursor.fetchall():
            key = str(general_id)
            if key not in tallies and not add_unknown:
                raise DomainError(f"A battle names general {key}, who is not in this group or season.")
            tallies[key] = {name: int(value or 0) for name, value in zip(names, values, strict=True)}
    return tallies
