"""Multiplayer tables (Warlord CCG): seating a round, checking a table's report, placement points.

The game text names no table size and no scoring (warlord-ccg-decks.md section 6); these are the
platform's choices, set by the organizer.

Table sizes. An event seats tables of 3 or 4 (`table_size`). A field that does not divide evenly gets
tables of the other size (4 at a size of 3, 3 at a size of 4), as few as possible: 10 players at 4 sit
4, 3, 3; 7 players at 3 sit 4, 3. Never a table of 2: five players, the one count that 3s and 4s cannot
make, sit at one table of 5. Fewer than 3 players cannot make a table. Bigger tables come first.

Seating. Players are ordered by score, rank and id (as for Swiss pairing) and fill the tables in
turn, best players at table 1. Then pairs of players at different tables are swapped while a swap
makes the seating better, each time the best swap (the first of equals, in that order), judged in
this order:
  1. fewest repeat table-mates: two players at one table who sat together before (either one's
     record of previous table-mates is enough);
  2. the closest scores at each table: the sum, over every two players at a table, of the square of
     their score difference;
  3. the least movement from the seating by score: the sum over players of the square of the number
     of tables between their table and the one they would have by score.
The search stops when no swap helps. Swaps alone can get stuck with repeats a different seating
would avoid, so when repeats are left a depth-first search looks for a seating with fewer (the
fewest, on fields up to a dozen or so; within a budget of seats tried on bigger ones, where repeats
are rarely forced), and the swaps then settle scores and movement without adding a repeat. Every
step goes in a fixed order, so the same field gives the same tables.

Placements (section 6: "The last player in the game wins"; finishing order is the platform's choice).
A finished game ranks the winner first, then the others in the reverse of the order they were
eliminated (the last eliminated is second). In an unfinished game the players still in share the
places they cover, each getting the average of those places' points, and the eliminated players
follow in reverse elimination order. Places beyond `points_by_place` score 0.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations

from pairings.swiss import SwissEntrant, SwissError, exact, field_order

TABLE_SIZES = (3, 4)


def table_sizes(players: int, table_size: int) -> list[int]:
    """The sizes of the tables for `players` at the event's `table_size` (see "Table sizes")."""
    if table_size not in TABLE_SIZES:
        raise SwissError(f"Tables seat 3 or 4 players, not {table_size}.")
    if players < 3:
        raise SwissError(f"A table needs at least 3 players; {players} "
                         f"{'is' if players == 1 else 'are'} playing this round.")
    other = 7 - table_size
    for off_size in range(table_size):
        rest = players - off_size * other
        if rest >= 0 and rest % table_size == 0:
            return sorted([table_size] * (rest // table_size) + [other] * off_size, reverse=True)
    return [players]  # 5: the only count 3s and 4s cannot make


def seat_tables(entrants: Sequence[SwissEntrant], table_size: int,
                previous_tablemates: Mapping[int, frozenset[int]]) -> list[tuple[int, ...]]:
    """Tables of ids, table 1 first, each listed best first (see "Seating")."""
    if len({entrant.id for entrant in entrants}) != len(entrants):
        raise SwissError("A round seats each player once; a player is listed more than once.")
    field = field_order(entrants)
    sizes = table_sizes(len(field), table_size)
    seating = _SwapSearch(field, sizes, previous_tablemates)
    seating.improve()
    if seating.repeats():
        fewer = _fewest_repeats(seating.repeat, sizes, seating.repeats())
        if fewer is not None:
            seating.table_of = fewer
            seating.improve()
    return seating.tables()


class _SwapSearch:
    """Seating by position in the field; `table_of[position]` is a table number."""

    def __init__(self, field, sizes, previous_tablemates):
        self.n = len(field)
        scores = [exact(entrant.score) for entrant in field]
        scale = math.lcm(*(score.denominator for score in scores))
        self.scores = [int(score * scale) for score in scores]
        ids = [entrant.id for entrant in field]
        self.ids = ids

        def sat_together(a, b):
            return ids[b] in previous_tablemates.get(ids[a], frozenset()) or \
                ids[a] in previous_tablemates.get(ids[b], frozenset())

        self.repeat = [[sat_together(a, b) for b in range(self.n)] for a in range(self.n)]
        self.by_score = [table for table, size in enumerate(sizes) for _ in range(size)]
        self.table_of = list(self.by_score)

    def _member_cost(self, position, table, companions):
        """What `position` adds at `table` beside `companions` (positions): (repeats, spread, movement)."""
        repeats = sum(self.repeat[position][other] for other in companions)
        spread = sum((self.scores[position] - self.scores[other]) ** 2 for other in companions)
        return repeats, spread, (table - self.by_score[position]) ** 2

    def _members(self):
        members: dict[int, list[int]] = {}
        for position, table in enumerate(self.table_of):
            members.setdefault(table, []).append(position)
        return members

    def _swap_gain(self, a, b, members):
        """Change in (repeats, spread, movement) when a and b (at different tables) trade seats."""
        table_a, table_b = self.table_of[a], self.table_of[b]
        others_a = [p for p in members[table_a] if p != a]
        others_b = [p for p in members[table_b] if p != b]
        before = (self._member_cost(a, table_a, others_a), self._member_cost(b, table_b, others_b))
        after = (self._member_cost(a, table_b, others_b), self._member_cost(b, table_a, others_a))
        return tuple(after[0][i] + after[1][i] - before[0][i] - before[1][i] for i in range(3))

    def improve(self):
        while True:
            members = self._members()
            best, best_gain = None, (0, 0, 0)
            for a, b in combinations(range(self.n), 2):
                if self.table_of[a] == self.table_of[b]:
                    continue
                gain = self._swap_gain(a, b, members)
                if gain < best_gain:
                    best, best_gain = (a, b), gain
            if best is None:
                return
            a, b = best
            self.table_of[a], self.table_of[b] = self.table_of[b], self.table_of[a]

    def repeats(self) -> int:
        members = self._members()
        return sum(self.repeat[a][b] for table in members.values() for a, b in combinations(table, 2))

    def tables(self) -> list[tuple[int, ...]]:
        members = self._members()
        return [tuple(self.ids[p] for p in sorted(members[table])) for table in sorted(members)]


SEARCH_BUDGET = 200_000  # seats tried; about a second at most


def _fewest_repeats(repeat, sizes, to_beat) -> list[int] | None:
    """A seating with fewer than `to_beat` repeats and the fewest the search can find, or None.

    Depth first, player by player in field order, each into the table that adds the fewest repeats
    first; a branch stops when it cannot beat the best so far. Empty tables of one size are alike, so
    only the first of them is tried. Exact for small fields; for big ones the budget may end the
    search early with the best found (the swap search rarely leaves repeats there)."""
    n, count = len(repeat), len(sizes)
    members: list[list[int]] = [[] for _ in range(count)]
    table_of = [0] * n
    best: dict = {"repeats": to_beat, "seating": None}
    budget = [SEARCH_BUDGET]

    def place(position, repeats_so_far):
        if position == n:
            best["repeats"], best["seating"] = repeats_so_far, list(table_of)
            return
        choices, empty_sizes_tried = [], set()
        for table in range(count):
            if len(members[table]) == sizes[table]:
                continue
            if not members[table]:
                if sizes[table] in empty_sizes_tried:
                    continue
                empty_sizes_tried.add(sizes[table])
            added = sum(repeat[position][other] for other in members[table])
            choices.append((added, table))
        for added, table in sorted(choices):
            if repeats_so_far + added >= best["repeats"] or budget[0] <= 0 or best["repeats"] == 0:
                return
            budget[0] -= 1
            members[table].append(position)
            table_of[position] = table
            place(position + 1, repeats_so_far + added)
            members[table].pop()

    place(0, 0)
    if best["seating"] is None:
        return None
    return _in_table_order(best["seating"], sizes)


def _in_table_order(seating, sizes):
    """The same groups, renumbered so that among tables of one size the group with the better players
    (by their best position) takes the earlier table."""
    groups: dict[int, list[int]] = {}
    for position, table in enumerate(seating):
        groups.setdefault(table, []).append(position)
    renumbered = [0] * len(seating)
    for size in sorted(set(sizes), reverse=True):
        tables = [table for table, table_size in enumerate(sizes) if table_size == size]
        ordered = sorted((group for group in groups.values() if len(group) == size), key=min)
        for table, group in zip(tables, ordered, strict=True):
            for position in group:
                renumbered[position] = table
    return renumbered


def check_table_result(players: Sequence[int], eliminations: Sequence[int], winner: int | None,
                       finished: bool) -> list[str]:
    """What is wrong with a table's report (section 6), one sentence each; empty when it is right."""
    problems = []
    seated = set(players)
    for player in sorted({p for p in players if list(players).count(p) > 1}):
        problems.append(f"Player {player} is seated twice at this table; list each player once.")
    seen = set()
    for player in eliminations:
        if player not in seated:
            problems.append(f"Player {player} is eliminated but not seated at this table.")
        if player in seen:
            problems.append(f"Player {player} is eliminated twice; nobody can be eliminated twice.")
        seen.add(player)
    left = [player for player in dict.fromkeys(players) if player not in seen]
    if finished:
        problems += _check_winner(winner, seated, seen, left)
    elif winner is not None:
        problems.append("An unfinished game has no winner; leave the winner out or report the game as "
                        "finished.")
    elif not left:
        problems.append("Every player is eliminated, but an unfinished game has players still in; the last "
                        "player left is the winner of a finished game.")
    elif len(left) == 1:
        problems.append(f"Only player {left[0]} is left, so the game is over: report it as finished with "
                        f"player {left[0]} as the winner.")
    return problems


def _check_winner(winner, seated, eliminated, left):
    if winner is None:
        return ["A finished game needs its winner, the last player left."]
    problems = []
    if winner not in seated:
        problems.append(f"The winner, player {winner}, is not seated at this table.")
    if winner in eliminated:
        problems.append(f"Player {winner} is both the winner and eliminated; a player appears once, "
                        "as eliminated or as the winner.")
    unaccounted = [player for player in left if player != winner]
    if unaccounted:
        listed = ", ".join(str(player) for player in unaccounted)
        problems.append(f"Every player appears exactly once, as eliminated or as the winner; player"
                        f"{'s' if len(unaccounted) > 1 else ''} {listed} "
                        f"{'are' if len(unaccounted) > 1 else 'is'} neither.")
    return problems


def finishing_order(eliminations: Sequence[int], survivors: Sequence[int]) -> list[int]:
    """Survivors first (the winner, in a finished game), then the reverse of the elimination order."""
    return [*survivors, *reversed(eliminations)]


def placement_points(eliminations: Sequence[int], survivors: Sequence[int], finished: bool,
                     points_by_place: Sequence[float]) -> dict[int, float]:
    """Points per player for one table (see "Placements"). A finished game has one survivor, the
    winner; an unfinished one has at least two."""
    everyone = [*eliminations, *survivors]
    if len(set(everyone)) != len(everyone):
        raise SwissError("Each player of a table is eliminated once or still in, never both or twice.")
    if finished and len(survivors) != 1:
        raise SwissError(f"A finished game has one player left, the winner; this one has {len(survivors)}.")
    if not finished and len(survivors) < 2:
        raise SwissError("An unfinished game has at least two players still in; with one left it is "
                         "finished and that player is the winner.")
    points = [exact(figure) for figure in points_by_place]
    points += [Fraction(0)] * (len(everyone) - len(points))
    order = finishing_order(eliminations, survivors)
    shared = sum(points[:len(survivors)], Fraction(0)) / len(survivors)
    awards = {player: shared if place < len(survivors) else points[place] for place, player in enumerate(order)}
    return {player: float(award) for player, award in awards.items()}
