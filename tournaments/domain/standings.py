"""Standings: OPP, then the seven tie-breakers in the seed's order (R24).

`compute_standings` is the one computation behind every group, final and league table: battle
results in, ordered rows out. OPP are the sums of `opp_awards` per battle, so a table and the
per-battle figures (crosstables) can never disagree.

The order of `TIEBREAKERS` is the order of the rules. Each entry says how a battle counts for it, and
views and the database's counting follow the table, so adding a tie-breaker is one entry there and
one field of `StandingRow` (an assertion below names a field nobody fills).
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from rules_engine.conditions import Condition
from tournaments.domain.errors import DomainError
from tournaments.domain.opp import DEFAULT_FORFEIT_AWARD, ForfeitAward, opp_awards
from tournaments.domain.outcomes import BattleResult, Kind

# How one decided, non-playoff battle counts for one of its generals: (result, general, forfeit award) -> n.
Rule = Callable[[BattleResult, str, ForfeitAward], int]


@dataclass(frozen=True)
class Metric:
    key: str  # a StandingRow field
    label: str
    short: str  # column heading
    higher_is_better: bool
    counts: Rule  # what one battle adds to it for one general


def _won(result, general):
    return result.outcome.kind is Kind.VICTORY and result.outcome.winner == general


def _victory_by(condition: Condition) -> Rule:
    return lambda result, general, award: int(_won(result, general) and result.outcome.condition == condition)


def _each_general_of(kind: Kind) -> Rule:
    return lambda result, general, award: int(result.outcome.kind is kind)


def _forfeited(result, general):
    return result.outcome.kind is Kind.FORFEIT and result.outcome.forfeited_by == general


# R24, the seed's order: OPP, then Tie Breakers 1-7. One entry per figure: its words, its direction and
# how a battle counts for it; the views render one column per entry, the database's counting
# (tournaments/standings/tallies.py) follows the rules here, and StandingRow has one field per key.
TIEBREAKERS: tuple[Metric, ...] = (
    Metric("opp", "Organized Play Points", "OPP", True,
           lambda result, general, award: opp_awards(result, award)[general]),
    Metric("victories", "Victories", "V", True,  # R22: a forfeit won counts when the award says so
           lambda result, general, award: int(_won(result, general) or (
               award.counts_as_victory and result.outcome.kind is Kind.FORFEIT and result.outcome.winner == general))),
    Metric("shackle_victories", "Victories by Shackle", "Sh", True, _victory_by(Condition.SHACKLE)),
    Metric("crush_victories", "Victories by Crush", "Cr", True, _victory_by(Condition.CRUSH)),
    Metric("paralyze_victories", "Victories by Paralyze", "Pa", True, _victory_by(Condition.PARALYZE)),
    Metric("blunt_victories", "Victories by Blunt", "Bl", True, _victory_by(Condition.BLUNT)),
    # both generals of a Stalemate lose by Stalemate (seed, R21); likewise for Resolve
    Metric("stalemate_defeats", "Defeats by Stalemate", "St", False, _each_general_of(Kind.STALEMATE)),
    Metric("resolve_defeats", "Defeats by Resolve", "Re", False, _each_general_of(Kind.RESOLVE)),
)
METRICS_BY_KEY: dict[str, Metric] = {metric.key: metric for metric in TIEBREAKERS}

# Figures shown beside the tie-breakers that never order a table.
OTHER_FIGURES: dict[str, Rule] = {
    # battles fought or forfeited; not the battles unplayed because of a disqualification (R72, R23)
    "played": lambda result, general, award: int(result.outcome.kind is not Kind.UNPLAYED_DQ),
    # lost to a victor or by forfeit; Stalemate and Resolve are counted on their own
    "defeats": lambda result, general, award: int(
        (result.outcome.kind is Kind.VICTORY and result.outcome.winner != general) or _forfeited(result, general)),
    "forfeits": lambda result, general, award: int(_forfeited(result, general)),  # R22
}
_RULES = tuple((metric.key, metric.counts) for metric in TIEBREAKERS) + tuple(OTHER_FIGURES.items())


@dataclass(frozen=True)
class StandingRow:
    general: str
    place: int
    shared: bool  # still tied with another row after every tie-breaker
    opp: int
    victories: int  # includes forfeits won when the event's forfeit award counts as a Victory (R22)
    shackle_victories: int
    crush_victories: int
    paralyze_victories: int
    blunt_victories: int
    stalemate_defeats: int  # both generals of a Stalemate lose by Stalemate (seed, R21)
    resolve_defeats: int  # likewise for Resolve
    played: int  # battles fought or forfeited; not the battles unplayed because of a disqualification (R72)
    defeats: int  # lost to a victor or by forfeit; Stalemate and Resolve are counted on their own
    forfeits: int  # forfeits on record by this general (R22)
    disqualified: bool  # keeps the place the figures give, cannot advance or win (R23)
    pending: int  # scheduled battles not decided yet

    def figure(self, key: str) -> int:
        if key not in METRICS_BY_KEY and key not in COUNTERS:
            raise KeyError(key)
        return getattr(self, key)

    def sort_key(self) -> tuple[int, ...]:
        """Smaller is better: the figures in TIEBREAKERS order, negated where higher is better."""
        return _sort_key({m.key: self.figure(m.key) for m in TIEBREAKERS})


COUNTERS = (*(key for key, _ in _RULES), "pending")  # pending: scheduled battles not decided yet


def general_order(key: str) -> tuple:
    """Order of general keys among generals equal on every figure: numeric keys by number ("2" before
    "17"), then any other keys alphabetically. Only there to make the listing independent of input order."""
    if key.isascii() and key.isdigit():
        return (0, int(key), key)
    return (1, 0, key)


def _tally(generals, results, forfeit_award):
    tallies = {g: dict.fromkeys(COUNTERS, 0) for g in generals}
    for result in results:
        for general in result.generals:
            if general not in tallies:
                raise DomainError(f"A battle between {result.a} and {result.b} names general {general}, who is "
                                  "not in this group or season; add them to its generals or leave that battle out.",
                                  field="results")
        if result.playoff:
            continue  # R24: playoff battles never change OPP totals or tie-break figures
        for general in result.generals:
            counters = tallies[general]
            if result.outcome is None:
                counters["pending"] += 1
                continue
            for key, counts in _RULES:
                counters[key] += counts(result, general, forfeit_award)
    return tallies


def tally(generals: Iterable[str], results: Iterable[BattleResult], *,
          forfeit_award: ForfeitAward = DEFAULT_FORFEIT_AWARD) -> dict[str, dict[str, int]]:
    """The counting half of `compute_standings`: {general: {counter: value}} for every name of
    COUNTERS. `tournaments.standings.tallies` counts one representative battle per kind of side with it, so
    the database's counting takes every figure from here."""
    return _tally(list(generals), results, forfeit_award)


def compute_standings(generals: Iterable[str], results: Iterable[BattleResult], *,
                      disqualified: Collection[str] = (),
                      forfeit_award: ForfeitAward = DEFAULT_FORFEIT_AWARD) -> list[StandingRow]:
    """Rows ordered by OPP and the tie-breakers (R24).

    Rows equal on every figure share a place ("1, 1, 3") with `shared` set, and are listed by
    `general_order`, so the result never depends on the order of `generals` or `results`.
    Disqualified generals keep the place their figures give and are marked (R23); `decide_place`
    passes over them. `disqualified` may name generals outside this table (an event-wide list).
    A battle naming a general outside `generals` is refused. A scheduled battle of a disqualified
    general stays pending until it is recorded as UNPLAYED_DQ.
    """
    keys = sorted(set(generals), key=general_order)
    return rank_tallies(_tally(keys, results, forfeit_award), disqualified=disqualified)


def rank_tallies(tallies: Mapping[str, Mapping[str, int]], *,
                 disqualified: Collection[str] = ()) -> list[StandingRow]:
    """The ordering half of `compute_standings`: per-general counters (every name of COUNTERS) in,
    ordered rows out. Lets a caller count elsewhere (e.g. in the database) and rank the same way."""
    out = set(disqualified)
    # general_order is unique per general, so sorting the tuples never compares past it.
    keyed = sorted([(_sort_key(counters), general_order(general), general, counters)
                    for general, counters in tallies.items()])
    rows: list[StandingRow] = []
    count, previous, place = len(keyed), None, 0
    for index, (key, _order, general, counters) in enumerate(keyed):
        tied_before = key == previous
        tied_after = index + 1 < count and keyed[index + 1][0] == key
        if not tied_before:
            place = index + 1
        previous = key
        values = {name: counters[name] for name in COUNTERS}
        values.update(general=general, place=place, shared=tied_before or tied_after, disqualified=general in out)
        rows.append(_new_row(values))
    return rows


_RANKED = tuple((metric.key, metric.higher_is_better) for metric in TIEBREAKERS)
_ROW_FIELDS = frozenset(field.name for field in fields(StandingRow))
assert {"general", "place", "shared", "disqualified", *COUNTERS} == _ROW_FIELDS, "a StandingRow field nobody fills"


def _new_row(values: dict) -> StandingRow:
    """`StandingRow(**values)` for `values` naming every field, without the frozen dataclass's
    per-field `object.__setattr__`: a 10,000-general table builds its rows several times faster.
    The same object (StandingRow has no defaults, no __post_init__, no slots)."""
    row = object.__new__(StandingRow)
    row.__dict__.update(values)
    return row


def _sort_key(counters) -> tuple[int, ...]:
    """StandingRow.sort_key for plain counters: computed once per general when ranking."""
    return tuple([-counters[key] if higher else counters[key] for key, higher in _RANKED])


@dataclass(frozen=True)
class Decision:
    decided: str | None  # the general who takes the place
    tied: tuple[str, ...] = ()  # still tied there, when decided is None: playoff battles decide (R24)


def decide_place(rows: Sequence[StandingRow], place: int = 1) -> Decision:
    """Who takes `place` (1 = the general who advances or wins) among the generals allowed to advance
    or win: disqualified generals are passed over (R23), and the next eligible generals move up.

    When several eligible generals are equal on every figure at that position, nobody is decided and
    `tied` lists all of them in standings order; playoff battles between them decide (R24). When
    fewer than `place` generals are eligible (e.g. all disqualified): Decision(None, ()).
    """
    if place < 1:
        raise DomainError(f"Places start at 1; {place} is not a place.", field="place")
    eligible = sorted((row for row in rows if not row.disqualified),
                      key=lambda row: (row.sort_key(), general_order(row.general)))
    if len(eligible) < place:
        return Decision(decided=None)
    target = eligible[place - 1].sort_key()
    tied = tuple(row.general for row in eligible if row.sort_key() == target)
    if len(tied) == 1:
        return Decision(decided=tied[0])
    return Decision(decided=None, tied=tied)


def decide_champion(rows: Sequence[StandingRow], counted: Collection[str] | None = None) -> Decision:
    """`decide_place(rows, 1)` for the place that crowns (a season's champion, a tournament's Victor).
    R112: a champion needs at least one counted battle, so generals with none are passed over like
    disqualified ones; when nobody has one, nobody is decided and nobody is tied. `counted` names the
    generals with a counted battle when that is wider than the table (a tournament's earlier stages);
    by default a row's own battles played (R72) count."""
    def has_counted(row):
        return row.played > 0 or (counted is not None and row.general in counted)

    return decide_place([row if has_counted(row) else replace(row, disqualified=True) for row in rows], 1)
