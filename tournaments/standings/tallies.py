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
instead of one filtered aggregate per figure), and Python turns each general's counts into the figures
with the domain's per-class figures. No rule is spelled twice: change the domain and the statement
follows. Property tests compare both countings on random seasons and
groups, packed and unpacked (tests/tournaments/test_tallies.py).

Why: a league season of a million battles would otherwise be read row by row into Python.
"""
from __future__ import annotations

from dataclasses import dataclass
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
    """One counter as a sum of the class counts c0, c1, ... weighted by what each class gives (a Python
    expression)."""
    terms = []
    for vector, index in classes.items():
        weight = vector[position]
        if type(weight) is not int:
            raise TypeError(f"a figure must be a whole number, not {weight!r}")
        if weight == 1:
            terms.append(f"c{index}")
        elif weight:
            terms.append(f"c{index} * ({weight})")
    return " + ".join(terms) or "0"


# Class counts travel packed, FIELD_BITS bits each, several to one SUM of int4 values (the largest
# value, 2 ** (FIELD_BITS * (PER_SUM - 1)), stays an int4): fewer aggregates per side of a battle.
# Exact while no general has 2 ** FIELD_BITS sides or more in the table; `side_count` says, and a table
# with such a general is counted again without packing (`_counted_rows`).
FIELD_BITS = 15


@dataclass(frozen=True)
class _Counting:
    sql: str  # positional parameters: the scope's id, False, the scope's id, False
    figures: object  # one row's counts (the columns after `general`) -> {counter: value}


@lru_cache(maxsize=32)
def _counting(scope, forfeit_opp, forfeit_counts_as_victory, packed=True, field_bits=FIELD_BITS):
    """The statement giving, per general, `general`, `side_count` (the general's sides of battles counted)
    and the class counts (packed: several to a sum), and the function turning the counts into figures.

    The figures are computed here rather than in the statement: PostgreSQL took longer to plan and run
    twelve sums of class counts over three levels of subqueries than Python takes to compute them (for a
    64-general group, a quarter of a millisecond against a few hundredths; docs/performance.md, section 2)."""
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
    indexes = list(classes.values())
    if packed:
        per_sum = 30 // field_bits + 1
        sums, arguments, unpacking = [], [], []
        for first in range(0, len(indexes), per_sum):
            fields = indexes[first:first + per_sum]
            sums.append(f"SUM(CASE code {' '.join(f'WHEN {i} THEN {1 << field_bits * n}' for n, i in enumerate(fields))}"
                        f" ELSE 0 END) AS p{first}")
            arguments.append(f"p{first}")
            for n, index in enumerate(fields):
                value = f"p{first} >> {field_bits * n}" if n else f"p{first}"
                unpacking.append(f"c{index} = {value}" if n == len(fields) - 1 else
                                 f"c{index} = {value} & {(1 << field_bits) - 1}")
    else:
        # SUM(CASE ...) rather than COUNT(*) FILTER (WHERE ...): the same count, measurably cheaper per
        # row on PostgreSQL 15 (docs/performance.md, section 2).
        sums = [f"SUM(CASE WHEN code = {i} THEN 1 ELSE 0 END) AS c{i}" for i in indexes]
        arguments, unpacking = [f"c{i}" for i in indexes], []
    sql = (f"WITH sides AS (\n{per_side}\n)\n"
           f"SELECT general, COUNT(*) AS side_count, {', '.join(sums)} FROM sides GROUP BY general")
    # Generated like the statement, from the domain's figures (whole numbers, checked by _figure) and the
    # names of COUNTERS: one line per class count, one sum per counter.
    source = "\n    ".join([f"def figures(side_count, {', '.join(arguments)}):", *unpacking, "return {" + ", ".join(
        f"{name!r}: {_figure(classes, position)}" for position, name in enumerate(COUNTERS)) + "}"])
    namespace = {}
    exec(compile(source, f"<the figures of {scope} tables>", "exec"), namespace)
    return _Counting(sql=sql, figures=namespace["figures"])


def _counted_rows(cursor, scope, scope_id, forfeit_award):
    """[(general id, {counter: value})] of the generals with a side in the scope's battles; counted again
    without packing when a general's sides could have overflowed a packed field."""
    counting = _counting(scope, forfeit_award.opp, forfeit_award.counts_as_victory, True, FIELD_BITS)
    params = [scope_id, False, scope_id, False]
    cursor.execute(counting.sql, params)
    rows = cursor.fetchall()
    if any(row[1] >= 1 << FIELD_BITS for row in rows):
        counting = _counting(scope, forfeit_award.opp, forfeit_award.counts_as_victory, False)
        cursor.execute(counting.sql, params)
        rows = cursor.fetchall()
    figures = counting.figures
    return [(general, figures(*counts)) for general, *counts in rows]


def _scope(group_id, season_id):
    return ("group_id", group_id) if group_id is not None else ("season_id", season_id)


def count_in_database(*, generals, forfeit_award, group_id=None, season_id=None, add_unknown=False, using="default"):
    """{general key: {counter: value}} for every general in `generals`, counted over the regular
    (non-playoff, R24) battles of one group or one season. A battle's general outside `generals` is
    refused, or counted too with `add_unknown`."""
    scope, scope_id = _scope(group_id, season_id)
    with connections[using].cursor() as cursor:
        rows = _counted_rows(cursor, scope, scope_id, forfeit_award)
    tallies = dict.fromkeys(generals)  # in their order, then any other general of the battles
    for general_id, figures in rows:
        key = str(general_id)
        if not add_unknown and key not in tallies:
            raise DomainError(_("A battle names general %(key)s, who is not in this group or season.")
                              % {"key": key})
        tallies[key] = figures
    for key, figures in tallies.items():
        if figures is None:  # no battle counted yet
            tallies[key] = dict.fromkeys(COUNTERS, 0)
    return tallies
