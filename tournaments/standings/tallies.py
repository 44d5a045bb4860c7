"""Standings counters computed by the database: one aggregation over a group's or a season's battles,
the same counters `tournaments.domain.standings` counts in Python, ranked by the same
`rank_tallies`.

How it counts. What one battle gives one of its generals depends only on the *side* that general
had in it: its kind, its condition, and whether that general won it or forfeited it (or was the
disqualified one). The domain's own `tally` counts one representative battle for every such side
(`_side_vectors`); sides that give the same figures share a class, and sides that give nothing
(e.g. the disqualified general of a battle not fought) are not counted at all. So the statement
gives each side of each battle one small class number with a single `CASE`, counts the sides per
general and class (ten or eleven classes, packed three to an aggregate: four sums and a count
instead of one filtered aggregate per figure), and turns those counts into the figures with the
domain's per-class figures, per general, after the aggregation. No rule is spelled twice: change
the domain and the statement follows. Property tests compare both countings on random seasons and
groups, packed and unpacked (tests/tournaments/test_tallies.py).

Why: a league season of a million battles would otherwise be read row by row into Python.
"""
from __future__ import annotations

from functools import lru_cache

from django.db import connections
from django.utils.translation import gettext as _

from tournaments.domain import (
    COUNTERS,
    VICTORY_CONDITIONS,
    BattleResult,
    DomainError,
    ForfeitAward,
    Kind,
    Outcome,
)
from tournaments.domain.standings import tally
from tournaments.models import Battle

_ME, _THEM = "1", "2"


def _side_vectors(forfeit_award):
    """{(kind, role, condition): figures of COUNTERS} for every side a general can have in a battle,
    from the domain's counting of one such battle. `role`: for a victory, whether this general won;
    for a forfeit or a battle not fought (R23), whether this general forfeited or was disqualified."""
    def figures(outcome):
        counted = tally((_ME, _THEM), [BattleResult(_ME, _THEM, outcome)], forfeit_award=forfeit_award)[_ME]
        return tuple(counted[name] for name in COUNTERS)

    sides = {("", None, None): figures(None)}
    for won in (True, False):
        for condition in VICTORY_CONDITIONS:
            sides[Kind.VICTORY.value, won, condition] = figures(
                Outcome(Kind.VICTORY, winner=_ME if won else _THEM, condition=condition))
    for mine in (True, False):
        loser, other = (_ME, _THEM) if mine else (_THEM, _ME)
        sides[Kind.FORFEIT.value, mine, None] = figures(Outcome(Kind.FORFEIT, winner=other, forfeited_by=loser))
        sides[Kind.UNPLAYED_DQ.value, mine, None] = figures(Outcome(Kind.UNPLAYED_DQ, disqualified=loser))
    for kind in (Kind.STALEMATE, Kind.RESOLVE):
        sides[kind.value, None, None] = figures(Outcome(kind))
    assert {kind for kind, _, _ in sides} == {"", *(k.value for k in Kind)}, "every kind of battle needs its side"
    return sides


def _quote(text):
    return "'" + text.replace("'", "''") + "'"


def _side_class(vectors, classes, general):
    """The SQL CASE giving one side of a battle (the side of the general in column `general`) its
    class number, or NULL when that side counts nothing."""
    def code(key):
        index = classes.get(vectors[key])
        return "NULL" if index is None else str(index)

    def by_condition(won):
        codes = {condition: code((Kind.VICTORY.value, won, condition)) for condition in VICTORY_CONDITIONS}
        if len(set(codes.values())) == 1:
            return next(iter(codes.values()))
        return ("CASE condition " + " ".join(f"WHEN {_quote(c)} THEN {n}" for c, n in codes.items())
                + " ELSE NULL END")

    def by_role(kind, column):
        mine, other = code((kind, True, None)), code((kind, False, None))
        return mine if mine == other else f"CASE WHEN {column} = {general} THEN {mine} ELSE {other} END"

    branches = {
        Kind.VICTORY.value: (f"CASE WHEN winner_id = {general} THEN {by_condition(True)} "
                             f"ELSE {by_condition(False)} END"),
        Kind.FORFEIT.value: by_role(Kind.FORFEIT.value, "forfeited_by_id"),
        Kind.UNPLAYED_DQ.value: by_role(Kind.UNPLAYED_DQ.value, "forfeited_by_id"),
        Kind.STALEMATE.value: code((Kind.STALEMATE.value, None, None)),
        Kind.RESOLVE.value: code((Kind.RESOLVE.value, None, None)),
        "": code(("", None, None)),
    }
    return "CASE kind " + " ".join(f"WHEN {_quote(kind)} THEN {sql}" for kind, sql in branches.items()) + " END"


def _figure(classes, position):
    """One counter as a sum of the class counts c0, c1, ... weighted by what each class gives."""
    terms = []
    for vector, index in classes.items():
        weight = vector[position]
        if weight == 1:
            terms.append(f"c{index}")
        elif weight:
            terms.append(f"c{index} * ({weight})")
    return " + ".join(terms) or "0"


# Class counts travel packed, FIELD_BITS bits each, several to one SUM of int4 values (the largest
# value, 2 ** (FIELD_BITS * (PER_SUM - 1)), stays an int4): fewer aggregates per side of a battle.
# Exact while no general has 2 ** FIELD_BITS sides or more in the table; `side_count` says, and a table
# with such a general is counted again without packing (`_fetch_counted`).
FIELD_BITS = 15


@lru_cache(maxsize=32)
def _counting(scope, forfeit_opp, forfeit_counts_as_victory, packed=True, field_bits=FIELD_BITS):
    """The `sides` and `counted` common table expressions (positional parameters: the scope's id,
    False, the scope's id, False). `counted`: general, every name of COUNTERS, side_count (the
    general's sides of battles counted; 0 when not packed)."""
    vectors = _side_vectors(ForfeitAward(opp=forfeit_opp, counts_as_victory=forfeit_counts_as_victory))
    zero = (0,) * len(COUNTERS)
    classes = {}
    for vector in vectors.values():
        if vector != zero:
            classes.setdefault(vector, len(classes))
    table = Battle._meta.db_table
    per_side = "\n    UNION ALL\n".join(
        f"    SELECT {general} AS general, {_side_class(vectors, classes, general)} AS code\n"
        f"      FROM {table} WHERE {scope} = %s AND playoff = %s"
        for general in ("general_a_id", "general_b_id"))
    figures = ", ".join(f"{_figure(classes, position)} AS {name}" for position, name in enumerate(COUNTERS))
    indexes = list(classes.values())
    if packed:
        per_sum = 30 // field_bits + 1
        sums, unpacked = ["COUNT(*) AS side_count"], []
        for first in range(0, len(indexes), per_sum):
            fields = indexes[first:first + per_sum]
            sums.append(f"SUM(CASE code {' '.join(f'WHEN {i} THEN {1 << field_bits * n}' for n, i in enumerate(fields))}"
                        f" ELSE 0 END) AS p{first}")
            for n, index in enumerate(fields):
                value = f"p{first}" if n == 0 else f"p{first} / {1 << field_bits * n}"
                unpacked.append(f"{value} AS c{index}" if n == len(fields) - 1 else
                                f"{value} %% {1 << field_bits} AS c{index}")
        class_counts = (f"side_count, {', '.join(unpacked)} FROM (SELECT general, {', '.join(sums)} "
                        f"FROM sides GROUP BY general) packed")
    else:
        # SUM(CASE ...) rather than COUNT(*) FILTER (WHERE ...): the same count, measurably cheaper per
        # row on PostgreSQL 15 (docs/performance.md, section 2).
        class_counts = ("0 AS side_count, " + ", ".join(f"SUM(CASE WHEN code = {i} THEN 1 ELSE 0 END) AS c{i}"
                                                   for i in indexes) + " FROM sides GROUP BY general")
    return (f"sides AS (\n{per_side}\n), counted AS (\n"
            f"    SELECT general, {figures}, side_count\n"
            f"      FROM (SELECT general, {class_counts}) per_class\n)")


def _fetch_counted(cursor, statement, scope, scope_id, forfeit_award, params=()):
    """Run `statement(counting_sql)` and fetch its rows, whose last column is `side_count`: counted again
    without packing when a general's sides could have overflowed a packed field."""
    sql = _counting(scope, forfeit_award.opp, forfeit_award.counts_as_victory, True, FIELD_BITS)
    cursor.execute(statement(sql), [scope_id, False, scope_id, False, *params])
    rows = cursor.fetchall()
    limit = 1 << FIELD_BITS
    if any(row[-1] is not None and row[-1] >= limit for row in rows):
        sql = _counting(scope, forfeit_award.opp, forfeit_award.counts_as_victory, False)
        cursor.execute(statement(sql), [scope_id, False, scope_id, False, *params])
        rows = cursor.fetchall()
    return rows


def _scope(group_id, season_id):
    return ("group_id", group_id) if group_id is not None else ("season_id", season_id)


def count_in_database(*, generals, forfeit_award, group_id=None, season_id=None, add_unknown=False, using="default"):
    """{general key: {counter: value}} for every general in `generals`, counted over the regular
    (non-playoff, R24) battles of one group or one season. A battle's general outside `generals` is
    refused, or counted too with `add_unknown`."""
    scope, scope_id = _scope(group_id, season_id)
    tallies = {key: dict.fromkeys(COUNTERS, 0) for key in generals}
    with connections[using].cursor() as cursor:
        rows = _fetch_counted(cursor, lambda counting: f"WITH {counting}\nSELECT * FROM counted", scope, scope_id,
                              forfeit_award)
    for general_id, *values, _side_count in rows:
        key = str(general_id)
        if key not in tallies and not add_unknown:
            raise DomainError(_("A battle names general %(key)s, who is not in this group or season.")
                              % {"key": key})
        tallies[key] = dict(zip(COUNTERS, values, strict=True))
    return tallies
