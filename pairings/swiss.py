"""Swiss pairing of one round, as a maximum-weight matching.

Every entrant is a node; every two entrants are joined by an edge, rematches included, so a pairing
of everybody always exists. `networkx.max_weight_matching(maxcardinality=True)` first takes as many
edges as it can (everybody paired), then the heaviest such set. Each edge weight is a large constant
minus the edge's cost, and every pairing of the field has the same number of edges, so the heaviest
pairing is the one of least total cost. Costs are integers (scores are scaled to whole numbers) and
each part is multiplied past the largest total the parts below it can reach, so the parts compare
in this order and never trade against each other:

  a. everybody is paired once, or sits out on the bye (maximum cardinality; the bye only in an odd field);
  b. the bye node is joined only to entrants who have not had a bye (to everybody when all have);
  c. rematches: 1 per pair that has met before (fewest rematches);
  b'. the bye: 0 for the lowest-ranked entrant up to n - 1 for the best (see "The bye" below);
  d. score differences: per pair, the square of the difference of the two scores. Squares make one
     float across two score groups dearer than two floats across one each, and one float dearer than two;
  e. order inside a score group (Dutch, top half v bottom half): the field is cut into brackets the
     classic way, walking the score groups from the top, each odd bracket passing its lowest player to
     the top of the next one. Inside a bracket of k players, with positions i and j, a pair costs
     (|i - j| - k // 2) ** 2, so 1 v k/2+1, 2 v k/2+2, ... costs 0. A pair across two brackets costs
     n ** 2 plus the square of the distance of the two players in the field's order, more than any
     pair inside a bracket, so the floats go between neighbours: the lowest of the higher bracket
     meets the highest of the lower one.

The bye. In an odd field a bye node is added, joined as in b. The bye is settled first, by a matching
whose costs are only c and b': it goes to the lowest-ranked entrant who has not had a bye, among those
whose bye leaves a pairing with the fewest rematches (everybody when all have had one). "Lowest-ranked"
is the end of the field's order below: the lowest score, then the largest rank number, then the
largest id. With the bye known, the others are paired by a second matching with costs c, d and e, so
the brackets of e are cut without the player on the bye.

Field order. Entrants are ordered by score (highest first), then rank (1 first), then id. Ranks may
be shared (standings show 1, 2, 2, 4), so the id settles the order of entrants equal on score and
rank; it only makes the pairing independent of the input order. The graph is built in this order, so
the same entrants give the same pairing however they are listed.

Round 1 (all scores 0) is one bracket: rank 1 v rank n/2+1, 2 v n/2+2, ...; an odd field's lowest
rank takes the bye.

Output: each pair is (higher-ranked id, lower-ranked id); colours or seats follow that order. Tables
are listed best first: the higher score in the pair, then the pair's total score, then the position
of its higher-ranked entrant.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx


class SwissError(ValueError):
    """A refused Swiss, top cut or table step; `str(error)` is a sentence for the organizer (the services
    of tournaments.swiss pass it on as a refusal)."""


@dataclass(frozen=True)
class SwissEntrant:
    id: int  # a general's id
    score: float  # points so far
    rank: int  # 1 = best in the current standings (after tie-breakers); used for byes and colours
    opponents: frozenset[int]  # ids already met (byes not included)
    had_bye: bool


@dataclass(frozen=True)
class SwissPairing:
    pairs: tuple[tuple[int, int], ...]  # (higher-ranked id, lower-ranked id), ordered by table: best pair first
    bye: int | None
    rematches: tuple[tuple[int, int], ...]  # pairs that are rematches (only when unavoidable)


def suggested_rounds(players: int) -> int:
    """ceil(log2 players): enough rounds for one unbeaten player in a field of that size. 0 below 2."""
    if players < 2:
        return 0
    return (players - 1).bit_length()


def exact(number) -> Fraction:
    """A score as an exact fraction: 1.5 is 3/2 and 0.1 is 1/10, so sums and comparisons never drift."""
    if isinstance(number, int | Fraction):
        return Fraction(number)
    return Fraction(str(number))


def field_order(entrants: Iterable[SwissEntrant]) -> list[SwissEntrant]:
    """Best first: score, then rank, then id (see the module's "Field order")."""
    return sorted(entrants, key=lambda entrant: (-exact(entrant.score), entrant.rank, entrant.id))


def pair_round(entrants: Sequence[SwissEntrant]) -> SwissPairing:
    """The pairing of the next round for the entrants still playing (leave dropped players out; a late
    entry is an entrant with score 0 and no opponents). A single entrant gets the bye."""
    _check_entrants(entrants)
    field = field_order(entrants)
    bye = None
    if len(field) % 2:
        bye = _choose_bye(field)
        field = [entrant for entrant in field if entrant.id != bye]
    pairs = _pair_even_field(field)
    rematches = tuple(pair for pair in pairs if _met(field, *pair))
    return SwissPairing(pairs=pairs, bye=bye, rematches=rematches)


def _check_entrants(entrants):
    seen, repeated = set(), set()
    for entrant in entrants:
        (repeated if entrant.id in seen else seen).add(entrant.id)
    if repeated:
        listed = ", ".join(str(i) for i in sorted(repeated))
        raise SwissError(f"A Swiss round pairs each player once; {listed} "
                         f"{'is' if len(repeated) == 1 else 'are'} listed more than once.")


def _have_met(first: SwissEntrant, second: SwissEntrant) -> bool:
    # Either side's record is enough: a result corrected on one side only still counts as a meeting.
    return second.id in first.opponents or first.id in second.opponents


def _met(field, first_id, second_id):
    by_id = {entrant.id: entrant for entrant in field}
    return _have_met(by_id[first_id], by_id[second_id])


def _matching(graph: nx.Graph) -> set[tuple[int, int]]:
    return nx.max_weight_matching(graph, maxcardinality=True)


def _choose_bye(field: list[SwissEntrant]) -> int:
    """The bye (rules b, c, b'): costs are rematches * n + (n - 1 - position), position 0 the best."""
    n = len(field)
    bye_node = n
    eligible = [position for position, entrant in enumerate(field) if not entrant.had_bye] or list(range(n))
    # Any one pairing's cost is below `ceiling`, so every weight is positive.
    ceiling = n * n + n
    graph = nx.Graph()
    graph.add_nodes_from(range(n + 1))
    for first in range(n):
        for second in range(first + 1, n):
            graph.add_edge(first, second, weight=ceiling - n * _have_met(field[first], field[second]))
    for position in eligible:
        graph.add_edge(position, bye_node, weight=ceiling - (n - 1 - position))
    for first, second in _matching(graph):
        if bye_node in (first, second):
            return field[min(first, second)].id
    raise AssertionError("a maximum-cardinality matching of an odd field always holds the bye node")


def _brackets(field: list[SwissEntrant]) -> list[tuple[int, int, int]]:
    """(bracket number, position in bracket, bracket size) per position of an even field, cut as in e."""
    groups: list[list[int]] = []
    for position, entrant in enumerate(field):
        if groups and exact(field[groups[-1][0]].score) == exact(entrant.score):
            groups[-1].append(position)
        else:
            groups.append([position])
    brackets, carried = [], []
    for group in groups:
        bracket = carried + group
        carried = [bracket.pop()] if len(bracket) % 2 else []
        brackets.append(bracket)
    # An even field leaves nothing carried past the last group.
    placed = [(0, 0, 0)] * len(field)
    for number, bracket in enumerate(brackets):
        for index, position in enumerate(bracket):
            placed[position] = (number, index, len(bracket))
    return placed


def _pair_even_field(field: list[SwissEntrant]) -> tuple[tuple[int, int], ...]:
    n = len(field)
    if n == 0:
        return ()
    scores = [exact(entrant.score) for entrant in field]
    scale = math.lcm(*(score.denominator for score in scores))
    whole = [int(score * scale) for score in scores]
    placed = _brackets(field)

    def order_cost(first, second):  # e
        bracket_a, index_a, size = placed[first]
        bracket_b, index_b, _ = placed[second]
        if bracket_a == bracket_b:
            return (abs(index_a - index_b) - size // 2) ** 2
        return n * n + (second - first) ** 2

    pairs_in_field = n // 2
    order_range = pairs_in_field * 2 * n * n + 1  # above any pairing's total of e
    score_range = pairs_in_field * (max(whole) - min(whole)) ** 2 + 1  # above any pairing's total of d
    rematch_weight = score_range * order_range
    ceiling = (pairs_in_field + 1) * rematch_weight
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for first in range(n):
        for second in range(first + 1, n):
            cost = (rematch_weight * _have_met(field[first], field[second])
                    + order_range * (whole[first] - whole[second]) ** 2
                    + order_cost(first, second))
            graph.add_edge(first, second, weight=ceiling - cost)
    tables = sorted((min(edge), max(edge)) for edge in _matching(graph))
    tables.sort(key=lambda table: (-max(scores[table[0]], scores[table[1]]),
                                   -(scores[table[0]] + scores[table[1]]), table[0]))
    return tuple((field[better].id, field[worse].id) for better, worse in tables)
