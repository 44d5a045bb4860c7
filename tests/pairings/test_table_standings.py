"""Standings of multiplayer tables (Warlord CCG, warlord-ccg-decks.md section 6): placement points, the
record, sos / omw / h2h worked out by hand, exact shares, shared ranks, drops and refused reports."""
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.swiss import SwissError, exact
from pairings.swiss_standings import SwissRow
from pairings.table_standings import TABLE_TIE_BREAKERS, TableGame, table_points, table_standings
from pairings.tables import placement_points, table_sizes

POINTS = (4, 2, 1, 0)
SIX = (1, 2, 3, 4, 5, 6)

# Six players, two rounds, tables of 3, points 4 / 2 / 1:
#   round 1: table (1, 2, 3) finished, 3 out then 2: 1 wins 4, 2 gets 2, 3 gets 1
#            table (4, 5, 6) time ran out after 6 went out: 4 and 5 share (4 + 2) / 2 = 3 each, 6 gets 1
#   round 2: table (1, 5, 6) finished, 1 out then 6: 5 wins 4, 6 gets 2, 1 gets 1
#            table (2, 3, 4) finished, 2 out then 4: 3 wins 4, 4 gets 2, 2 gets 1
TWO_ROUNDS = (
    TableGame(1, (1, 2, 3), (3, 2), True), TableGame(1, (4, 5, 6), (6,), False),
    TableGame(2, (1, 5, 6), (1, 6), True), TableGame(2, (2, 3, 4), (2, 4), True),
)


def summary(rows):
    return [(row.id, row.rank, row.score, dict(row.tie_breaks)) for row in rows]


def test_scores_and_records_by_hand():
    """Scores: 1 = 4 + 1 = 5, 2 = 2 + 1 = 3, 3 = 1 + 4 = 5, 4 = 3 + 2 = 5, 5 = 3 + 4 = 7, 6 = 1 + 2 = 3.
    Records: 1 W L, 2 L L, 3 L W, 4 D L (still in when time ran out), 5 D W, 6 L L; never a bye."""
    rows = table_standings(SIX, TWO_ROUNDS, POINTS, [])
    assert [(row.id, row.rank, row.score, row.wins, row.draws, row.losses, row.byes) for row in rows] == [
        (5, 1, 7, 1, 1, 0, 0),
        (1, 2, 5, 1, 0, 1, 0), (3, 2, 5, 1, 0, 1, 0), (4, 2, 5, 0, 1, 1, 0),
        (2, 5, 3, 0, 0, 2, 0), (6, 5, 3, 0, 0, 2, 0)]
    assert all(isinstance(row, SwissRow) and not row.dropped for row in rows)


def test_strength_of_schedule_by_hand():
    """SOS, table-mates' scores once per table:
    1: 2 (3) + 3 (5), then 5 (7) + 6 (3) = 18.   2: 1 (5) + 3 (5), then 3 (5) + 4 (5) = 20.
    3: 1 (5) + 2 (3), then 2 (3) + 4 (5) = 16.   4: 5 (7) + 6 (3), then 2 (3) + 3 (5) = 18.
    5: 4 (5) + 6 (3), then 1 (5) + 6 (3) = 16.   6: 4 (5) + 5 (7), then 1 (5) + 5 (7) = 24.
    On 5 points 1 and 4 (18) share rank 2 ahead of 3 (16); on 3 points 6 (24) is ahead of 2 (20)."""
    rows = table_standings(SIX, TWO_ROUNDS, POINTS, ["sos"])
    assert summary(rows) == [
        (5, 1, 7, {"sos": 16}), (1, 2, 5, {"sos": 18}), (4, 2, 5, {"sos": 18}), (3, 4, 5, {"sos": 16}),
        (6, 5, 3, {"sos": 24}), (2, 6, 3, {"sos": 20})]


def test_table_mates_win_rate_by_hand():
    """Table wins / tables: 1, 3, 5 won one of two = 1/2; 2, 4, 6 won none = 0, floored to 1/3 (4's
    shared first place at the unfinished table is not a win).
    OMW, over every table-mate at every table:
    1: 2, 3, 5, 6 = (1/3 + 1/2 + 1/2 + 1/3) / 4 = 5/12.   2: 1, 3, 3, 4 = (1/2 + 1/2 + 1/2 + 1/3) / 4 = 11/24.
    3: 1, 2, 2, 4 = (1/2 + 1/3 + 1/3 + 1/3) / 4 = 3/8.    4: 5, 6, 2, 3 = (1/2 + 1/3 + 1/3 + 1/2) / 4 = 5/12.
    5: 4, 6, 1, 6 = (1/3 + 1/3 + 1/2 + 1/3) / 4 = 3/8.    6: 4, 5, 1, 5 = (1/3 + 1/2 + 1/2 + 1/2) / 4 = 11/24.
    Ranks 1, 2, 2, 4, 5, 5: 1 and 4 are equal, and so are 2 and 6."""
    rows = table_standings(SIX, TWO_ROUNDS, POINTS, ["omw"])
    assert [(row.id, row.rank) for row in rows] == [(5, 1), (1, 2), (4, 2), (3, 4), (2, 5), (6, 5)]
    assert {row.id: row.tie_breaks[0][1] for row in rows} == pytest.approx(
        {1: 5 / 12, 2: 11 / 24, 3: 3 / 8, 4: 5 / 12, 5: 3 / 8, 6: 11 / 24})


def test_players_equal_on_everything_share_the_rank_listed_by_id():
    """1 and 4 are equal on score (5), sos (18) and omw (5/12): they share rank 2 and 3 takes rank 4."""
    rows = table_standings(SIX, TWO_ROUNDS, POINTS, ["sos", "omw"])
    assert [(row.id, row.rank) for row in rows] == [(5, 1), (1, 2), (4, 2), (3, 4), (6, 5), (2, 6)]
    assert dict(rows[1].tie_breaks) == pytest.approx({"sos": 18, "omw": 5 / 12})
    assert rows[1].tie_breaks == rows[2].tie_breaks


def test_head_to_head_among_players_who_have_not_all_shared_a_table_decides_nothing():
    """1, 3 and 4 are tied on 5 points, but 1 and 4 never sat together: all show 0 and share rank 2;
    2 and 6 (3 points) never sat together either."""
    rows = table_standings(SIX, TWO_ROUNDS, POINTS, ["h2h"])
    assert [(row.id, row.rank, row.tie_breaks) for row in rows] == [
        (5, 1, (("h2h", 0),)), (1, 2, (("h2h", 0),)), (3, 2, (("h2h", 0),)), (4, 2, (("h2h", 0),)),
        (2, 5, (("h2h", 0),)), (6, 5, (("h2h", 0),))]


# Three rounds, every table finished, points 4 / 2 / 1:
#   round 1: (1, 2, 3) out 3, 2 -> 1: 4, 2: 2, 3: 1      (4, 5, 6) out 6, 4 -> 5: 4, 4: 2, 6: 1
#   round 2: (1, 4, 5) out 4, 1 -> 5: 4, 1: 2, 4: 1      (2, 3, 6) out 3, 2 -> 6: 4, 2: 2, 3: 1
#   round 3: (1, 2, 6) out 6, 2 -> 1: 4, 2: 2, 6: 1      (3, 4, 5) out 4, 5 -> 3: 4, 5: 2, 4: 1
# Scores: 1 = 10, 5 = 10, 2 = 6, 3 = 6, 6 = 6, 4 = 4.
THREE_ROUNDS = (
    TableGame(1, (1, 2, 3), (3, 2), True), TableGame(1, (4, 5, 6), (6, 4), True),
    TableGame(2, (1, 4, 5), (4, 1), True), TableGame(2, (2, 3, 6), (3, 2), True),
    TableGame(3, (1, 2, 6), (6, 2), True), TableGame(3, (3, 4, 5), (4, 5), True),
)


def test_head_to_head_counts_the_tables_the_tied_players_shared():
    """1 and 5 (10 points) shared the round 2 table only: 5 won it (4), 1 was second (2), so 5 is first.
    2, 3 and 6 (6 points) all sat together at some table: at round 1 (2 and 3) 2 scored 2, 3 scored 1;
    at round 2 (2, 3, 6) 6 scored 4, 2 scored 2, 3 scored 1; at round 3 (2 and 6) 2 scored 2, 6 scored 1.
    Head to head: 2 = 6, 6 = 5, 3 = 2. 4, alone on 4 points, shows 0."""
    rows = table_standings(SIX, THREE_ROUNDS, POINTS, ["h2h"])
    assert summary(rows) == [
        (5, 1, 10, {"h2h": 4}), (1, 2, 10, {"h2h": 2}),
        (2, 3, 6, {"h2h": 6}), (6, 4, 6, {"h2h": 5}), (3, 5, 6, {"h2h": 2}), (4, 6, 4, {"h2h": 0})]


def test_head_to_head_is_taken_among_exactly_the_players_still_tied():
    """After sos, 2 (1 + 3, 3 + 6, 1 + 6 = 16 + 12 + 16 = 44) is ahead of 3 and 6 (42 each: 3 met
    1 + 2, 2 + 6, 4 + 5; 6 met 4 + 5, 2 + 3, 1 + 2). Head to head is then between 3 and 6 alone: their
    one shared table (round 2) gives 6 four points and 3 one, while 2's own head to head stays 0.
    1 (sos 12 + 14 + 12 = 38) is ahead of 5 (10 + 14 + 10 = 34) before head to head is reached; 4 met
    5 + 6, 1 + 5, 3 + 5 = 16 + 20 + 16 = 52."""
    rows = table_standings(SIX, THREE_ROUNDS, POINTS, ["sos", "h2h"])
    assert summary(rows) == [
        (1, 1, 10, {"sos": 38, "h2h": 0}), (5, 2, 10, {"sos": 34, "h2h": 0}),
        (2, 3, 6, {"sos": 44, "h2h": 0}), (6, 4, 6, {"sos": 42, "h2h": 4}), (3, 5, 6, {"sos": 42, "h2h": 1}),
        (4, 6, 4, {"sos": 52, "h2h": 0})]


def test_players_still_in_when_time_runs_out_share_the_places_they_cover():
    """A table of 4 stopped with 1 out: 2, 3 and 4 share places 1-3, (4 + 2 + 1) / 3 = 7/3 each, and each
    has a draw; 1 is fourth with 0 and a loss. Stopped with 1 and 2 out, 3 and 4 share (4 + 2) / 2 = 3,
    2 (out last) is third with 1."""
    rows = table_standings([1, 2, 3, 4], [TableGame(1, (1, 2, 3, 4), (1,), False)], POINTS, [])
    assert [(row.id, row.rank, row.wins, row.draws, row.losses) for row in rows] == [
        (2, 1, 0, 1, 0), (3, 1, 0, 1, 0), (4, 1, 0, 1, 0), (1, 4, 0, 0, 1)]
    assert {row.id: row.score for row in rows} == pytest.approx({1: 0, 2: 7 / 3, 3: 7 / 3, 4: 7 / 3})
    rows = table_standings([1, 2, 3, 4], [TableGame(1, (1, 2, 3, 4), (1, 2), False)], POINTS, [])
    assert [(row.id, row.rank, row.score, row.draws) for row in rows] == [
        (3, 1, 3, 1), (4, 1, 3, 1), (2, 3, 1, 0), (1, 4, 0, 0)]


# Eight players, tables of 4, points 4 / 2 / 1 / 0:
#   round 1: (1, 3, 4, 5) finished, out 4, 5, 1 -> 3: 4, 1: 2, 5: 1, 4: 0
#            (2, 6, 7, 8) stopped, 8 out        -> 2, 6, 7: 7/3 each, 8: 0
#   round 2: (1, 2, 3, 4) stopped, 3 out        -> 1, 2, 4: 7/3 each, 3: 0
#            (5, 6, 7, 8) finished, out 5, 6, 7 -> 8: 4, 7: 2, 6: 1, 5: 0
#   round 3: (1, 5, 6, 7) stopped, 5 out        -> 1, 6, 7: 7/3 each, 5: 0
#            (2, 3, 4, 8) finished, out 3, 4, 2 -> 8: 4, 2: 2, 4: 1, 3: 0
# 1 scored 2 + 7/3 + 7/3, 2 scored 7/3 + 7/3 + 2 and 7 scored 7/3 + 2 + 7/3: 20/3 each.
SHARES = (
    TableGame(1, (1, 3, 4, 5), (4, 5, 1), True), TableGame(1, (2, 6, 7, 8), (8,), False),
    TableGame(2, (1, 2, 3, 4), (3,), False), TableGame(2, (5, 6, 7, 8), (5, 6, 7), True),
    TableGame(3, (1, 5, 6, 7), (5,), False), TableGame(3, (2, 3, 4, 8), (3, 4, 2), True),
)


def test_shared_places_add_up_exactly_so_equal_scores_share_the_rank():
    """Added up as floats in round order, 1's 2 + 7/3 + 7/3 and 2's 7/3 + 7/3 + 2 differ in the last
    digit; exactly they are both 20/3, as is 7's, so 1, 2 and 7 share rank 2 behind 8 (4 + 4 = 8)."""
    floats = {player: [placement_points(list(table.eliminations), list(table.survivors), table.finished, POINTS)
                       .get(player) for table in SHARES if player in table.seats] for player in (1, 2)}
    assert sum(floats[1]) != sum(floats[2])  # what comparing floats would get wrong
    rows = table_standings(range(1, 9), SHARES, POINTS, [])
    assert [(row.id, row.rank) for row in rows] == [(8, 1), (1, 2), (2, 2), (7, 2), (6, 5), (3, 6), (4, 7),
                                                    (5, 8)]
    assert {row.id: row.score for row in rows} == pytest.approx(
        {1: 20 / 3, 2: 20 / 3, 3: 4, 4: 10 / 3, 5: 1, 6: 17 / 3, 7: 20 / 3, 8: 8})
    assert (rows[1].wins, rows[1].draws, rows[1].losses) == (0, 2, 1)


def test_table_points_match_tables_placement_points_exactly():
    table = TableGame(1, (1, 2, 3, 4), (1,), False)
    assert table_points(table, POINTS) == {2: Fraction(7, 3), 3: Fraction(7, 3), 4: Fraction(7, 3), 1: 0}
    assert table_points(table, POINTS) == pytest.approx(placement_points([1], [2, 3, 4], False, POINTS))


def test_places_beyond_the_points_list_score_nothing():
    rows = table_standings([1, 2, 3, 4], [TableGame(1, (1, 2, 3, 4), (4, 3, 2), True)], [3, 1], [])
    assert [(row.id, row.score) for row in rows] == [(1, 3), (2, 1), (3, 0), (4, 0)]


def test_dropped_players_keep_their_row_and_count_for_their_table_mates():
    """6 dropped after round 2: marked, ranked by the same figures, and its 3 points still in 4's sos."""
    kept = table_standings(SIX, TWO_ROUNDS, POINTS, ["sos", "omw"])
    dropped = table_standings(SIX, TWO_ROUNDS, POINTS, ["sos", "omw"], dropped=frozenset({6}))
    assert [(row.id, row.rank, row.score, row.tie_breaks) for row in dropped] == \
        [(row.id, row.rank, row.score, row.tie_breaks) for row in kept]
    assert [row.id for row in dropped if row.dropped] == [6]
    assert next(row for row in dropped if row.id == 4).tie_breaks[0] == ("sos", 18)


def test_a_player_without_tables_has_a_row_of_zeros():
    rows = table_standings([1, 2, 3, 9], [TableGame(1, (1, 2, 3), (3, 2), True)], POINTS, ["sos", "omw", "h2h"])
    assert rows[-1] == SwissRow(id=9, rank=4, score=0, wins=0, draws=0, losses=0, byes=0,
                                tie_breaks=(("sos", 0), ("omw", 0), ("h2h", 0)), dropped=False)


def test_the_same_table_listed_twice_counts_once():
    table = TableGame(1, (1, 2, 3), (3, 2), True)
    assert table_standings([1, 2, 3], [table, table], POINTS, []) == table_standings([1, 2, 3], [table], POINTS, [])


@pytest.mark.parametrize(("tables", "sentence"), [
    ([TableGame(2, (1, 2, 3, 4), (3, 3), False)],
     "Round 2: Player 3 is eliminated twice; nobody can be eliminated twice."),
    ([TableGame(1, (1, 2, 3), (3, 2, 1), True)],
     "Round 1: A finished game needs its winner, the last player left."),
    ([TableGame(1, (1, 2, 3), (3,), True)],
     "Round 1: Every player appears exactly once, as eliminated or as the winner; player 2 is neither."),
    ([TableGame(1, (1, 2, 3), (3, 2), False)],
     "Round 1: Only player 1 is left, so the game is over: report it as finished with player 1 as the winner."),
    ([TableGame(1, (1, 2, 3, 4), (5,), False)], "Round 1: Player 5 is eliminated but not seated at this table."),
    ([TableGame(1, (1, 2, 7), (7, 2), True)], "Round 1: player 7 is seated but is not in the event's players."),
    ([TableGame(3, (1,), (), True)], "Round 3: a table needs at least two players; player 1 sits alone at this one."),
    ([TableGame(1, (1, 2, 3), (3, 2), True), TableGame(1, (3, 4, 5), (5, 4), True)],
     "Round 1: player 3 sits at two tables; a player has one table per round."),
])
def test_a_wrong_table_is_refused_naming_the_round(tables, sentence):
    with pytest.raises(SwissError) as refused:
        table_standings([1, 2, 3, 4, 5], tables, POINTS, [])
    assert str(refused.value) == sentence


def test_only_the_table_tie_breakers_can_be_chosen():
    with pytest.raises(SwissError, match=r"Unknown tie-breaker 'sos_median'; choose from sos, omw, h2h\."):
        table_standings(SIX, TWO_ROUNDS, POINTS, ["sos_median"])
    with pytest.raises(SwissError, match="one is listed twice"):
        table_standings(SIX, TWO_ROUNDS, POINTS, ["sos", "sos"])
    assert set(TABLE_TIE_BREAKERS) == {"sos", "omw", "h2h"}


def test_a_dropped_stranger_and_a_player_listed_twice_are_refused():
    with pytest.raises(SwissError, match="Dropped player 9 is not in the event's players"):
        table_standings(SIX, TWO_ROUNDS, POINTS, [], dropped=frozenset({9}))
    with pytest.raises(SwissError, match="listed more than once"):
        table_standings([1, 1, 2, 3, 4, 5, 6], TWO_ROUNDS, POINTS, [])


@st.composite
def events(draw):
    """A field of 3-10 players, 1-3 rounds seated at tables of 3 or 4, each table finished or stopped."""
    count = draw(st.integers(3, 10))
    players = list(range(1, count + 1))
    size = draw(st.sampled_from((3, 4)))
    tables = []
    for round_number in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        start = 0
        for seats in table_sizes(count, size):
            seated = tuple(order[start:start + seats])
            start += seats
            out = draw(st.permutations(seated))
            finished = draw(st.booleans())
            left = 1 if finished else draw(st.integers(2, seats))
            tables.append(TableGame(round_number, seated, tuple(out[:seats - left]), finished))
    points = draw(st.lists(st.sampled_from((0, 1, 2, 3, 4, 6, 0.5, 0.1, 1.25)), max_size=5))
    keys = draw(st.permutations(("sos", "omw", "h2h")))[:draw(st.integers(0, 3))]
    return players, tables, points, keys


@settings(max_examples=150, deadline=None)
@given(event=events())
def test_scores_add_up_to_the_points_handed_out_at_every_table(event):
    players, tables, points, keys = event
    rows = table_standings(players, tables, points, keys)
    handed_out = [sum((exact(figure) for figure in points[:len(table.seats)]), Fraction(0)) for table in tables]
    for table, total in zip(tables, handed_out, strict=True):
        awards = table_points(table, points)
        assert sum(awards.values(), Fraction(0)) == total
        assert awards == pytest.approx(placement_points(list(table.eliminations), list(table.survivors),
                                                        table.finished, points))
    assert sum(row.score for row in rows) == pytest.approx(float(sum(handed_out)))
    assert sorted(row.id for row in rows) == players
    for row in rows:
        played = sum(row.id in table.seats for table in tables)
        assert row.wins + row.draws + row.losses == played and row.byes == 0
    assert sum(row.wins for row in rows) == sum(table.finished for table in tables)
    for position, row in enumerate(rows):
        assert row.rank == position + 1 or row.rank == rows[position - 1].rank
