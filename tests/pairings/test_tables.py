"""Multiplayer tables (Warlord CCG, warlord-ccg-decks.md section 6): sizes, seating without repeat
table-mates, a table's report checked, placement points."""
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.swiss import SwissEntrant
from pairings.tables import check_table_result, placement_points, seat_tables, table_sizes


def entrant(id, score=0, rank=None):
    return SwissEntrant(id=id, score=score, rank=id if rank is None else rank, opponents=frozenset(),
                        had_bye=False)


def tablemates(*tables):
    mates = {}
    for table in tables:
        for player in table:
            mates[player] = mates.get(player, frozenset()) | (frozenset(table) - {player})
    return mates


def repeats(tables, previous):
    return sum(b in previous.get(a, ()) for table in tables for a, b in combinations(table, 2))


@pytest.mark.parametrize(("players", "size", "sizes"), [
    (3, 4, [3]), (4, 4, [4]), (5, 4, [5]), (6, 4, [3, 3]), (7, 4, [4, 3]), (9, 4, [3, 3, 3]),
    (10, 4, [4, 3, 3]), (12, 4, [4, 4, 4]), (13, 4, [4, 3, 3, 3]),
    (3, 3, [3]), (4, 3, [4]), (5, 3, [5]), (7, 3, [4, 3]), (8, 3, [4, 4]), (9, 3, [3, 3, 3]), (10, 3, [4, 3, 3]),
])
def test_table_sizes_never_leave_a_table_of_two(players, size, sizes):
    assert table_sizes(players, size) == sizes


def test_too_few_players_or_a_size_other_than_3_or_4_is_refused():
    with pytest.raises(ValueError, match="A table needs at least 3 players; 2 are playing"):
        table_sizes(2, 4)
    with pytest.raises(ValueError, match="Tables seat 3 or 4 players, not 5"):
        table_sizes(10, 5)


def test_round_one_seats_by_rank_best_first():
    """Ten players at tables of 4: 4, 3, 3, filled in rank order."""
    assert seat_tables([entrant(i) for i in range(1, 11)], 4, {}) == [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)]


def test_players_with_more_points_sit_together():
    """Scores of 1-8: 0, 9, 3, 6, 9, 0, 3, 6. By score, then rank: 2, 5 (9), 4, 8 (6) at table 1;
    3, 7 (3), 1, 6 (0) at table 2."""
    field = [entrant(i, score) for i, score in enumerate((0, 9, 3, 6, 9, 0, 3, 6), start=1)]
    assert seat_tables(field, 4, {}) == [(2, 5, 4, 8), (3, 7, 1, 6)]


def test_sixteen_players_on_equal_scores_meet_nobody_again():
    """Round 1 seated 1-4, 5-8, 9-12, 13-16. On equal scores seating by rank would repeat every table;
    a seating with one player from each old table at every new table exists, and is found."""
    previous = tablemates((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16))
    tables = seat_tables([entrant(i) for i in range(1, 17)], 4, previous)
    assert sorted(p for t in tables for p in t) == list(range(1, 17))
    assert [len(t) for t in tables] == [4, 4, 4, 4]
    assert repeats(tables, previous) == 0


def test_an_unavoidable_repeat_is_kept_to_the_fewest():
    """Eight players were at 1-4 and 5-8. Two new tables of 4 from two old tables: at best two from each
    old table at each new one, 1 repeat pair per old table per new table, 4 in all."""
    previous = tablemates((1, 2, 3, 4), (5, 6, 7, 8))
    tables = seat_tables([entrant(i) for i in range(1, 9)], 4, previous)
    assert repeats(tables, previous) == 4


def test_seating_does_not_depend_on_the_input_order():
    previous = tablemates((1, 2, 3), (4, 5, 6), (7, 8, 9))
    field = [entrant(i, i % 3) for i in range(1, 10)]
    assert seat_tables(field, 3, previous) == seat_tables(field[::-1], 3, previous)


def partitions(items, sizes):
    """Every split of `items` into tables of the given sizes (as a multiset)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = (first, *others)
            remaining = [p for p in rest if p not in others]
            for more in partitions(remaining, left_sizes):
                yield [table, *more]


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 10), size=st.sampled_from([3, 4]), rounds=st.integers(1, 3),
       seed=st.integers(0, 2 ** 32 - 1))
def test_no_repeat_table_mate_while_one_is_avoidable(players, size, rounds, seed):
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    previous: dict = {}
    for _ in range(rounds):
        rng.shuffle(ids)
        start, tables = 0, []
        for table_size in table_sizes(players, size):
            tables.append(ids[start:start + table_size])
            start += table_size
        for player, mates in tablemates(*tables).items():
            previous[player] = previous.get(player, frozenset()) | mates
    field = [entrant(i, rng.choice([0, 3])) for i in range(1, players + 1)]
    tables = seat_tables(field, size, previous)
    assert sorted(len(t) for t in tables) == sorted(table_sizes(players, size))
    assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
    fewest = min(repeats(split, previous) for split in partitions(list(range(1, players + 1)),
                                                                   table_sizes(players, size)))
    assert repeats(tables, previous) == fewest


def test_a_finished_table_ranks_the_winner_then_the_reverse_of_eliminations():
    """Eliminated 3, then 1, then 4; 2 won. Places: 2, 4, 1, 3 -> 4, 3, 2, 1 points."""
    assert placement_points([3, 1, 4], [2], True, [4, 3, 2, 1]) == {2: 4, 4: 3, 1: 2, 3: 1}


def test_an_unfinished_table_shares_the_places_of_the_players_still_in():
    """Time ran out with 1, 2 and 4 still in, 3 eliminated: 1, 2, 4 share places 1-3, (4 + 3 + 2) / 3 = 3
    each; 3 is fourth with 1."""
    assert placement_points([3], [1, 2, 4], False, [4, 3, 2, 1]) == {1: 3, 2: 3, 4: 3, 3: 1}
    assert placement_points([], [1, 2, 3], False, [3, 1, 0]) == pytest.approx({1: 4 / 3, 2: 4 / 3, 3: 4 / 3})


def test_places_beyond_the_points_list_score_nothing():
    """A table of five under points for four places: the first eliminated, fifth, gets 0."""
    assert placement_points([5, 4, 3, 2], [1], True, [4, 3, 2, 1]) == {1: 4, 2: 3, 3: 2, 4: 1, 5: 0}


@pytest.mark.parametrize(("eliminations", "survivors", "finished", "words"), [
    ([1, 1], [2], True, "never both or twice"),
    ([1], [1, 2], False, "never both or twice"),
    ([1], [2, 3], True, "has one player left"),
    ([1, 2], [3], False, "at least two players still in"),
])
def test_placements_of_an_impossible_table_are_refused(eliminations, survivors, finished, words):
    with pytest.raises(ValueError, match=words):
        placement_points(eliminations, survivors, finished, [3, 2, 1])


def test_a_right_report_has_no_problems():
    assert check_table_result([1, 2, 3, 4], [3, 1, 4], 2, True) == []
    assert check_table_result([1, 2, 3, 4], [3], None, False) == []


@pytest.mark.parametrize(("players", "eliminations", "winner", "finished", "problem"), [
    ([1, 2, 3], [1, 1], 3, True, "Player 1 is eliminated twice; nobody can be eliminated twice."),
    ([1, 2, 3], [1, 9], 3, True, "Player 9 is eliminated but not seated at this table."),
    ([1, 2, 3], [1], 3, True, "Every player appears exactly once, as eliminated or as the winner; "
                              "player 2 is neither."),
    ([1, 2, 3, 4], [1], 3, True, "Every player appears exactly once, as eliminated or as the winner; "
                                 "players 2, 4 are neither."),
    ([1, 2, 3], [1, 2], None, True, "A finished game needs its winner, the last player left."),
    ([1, 2, 3], [1, 2], 7, True, "The winner, player 7, is not seated at this table."),
    ([1, 2, 3], [1, 2, 3], 3, True, "Player 3 is both the winner and eliminated; a player appears once, "
                                    "as eliminated or as the winner."),
    ([1, 2, 3], [1], 2, False, "An unfinished game has no winner; leave the winner out or report the game "
                               "as finished."),
    ([1, 2, 3], [1, 2], None, False, "Only player 3 is left, so the game is over: report it as finished "
                                     "with player 3 as the winner."),
    ([1, 2, 2], [1], 2, True, "Player 2 is seated twice at this table; list each player once."),
])
def test_a_wrong_report_is_explained(players, eliminations, winner, finished, problem):
    assert problem in check_table_result(players, eliminations, winner, finished)
