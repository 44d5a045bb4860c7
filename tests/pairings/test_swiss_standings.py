"""Swiss standings: scores, tie-breaker figures worked out by hand, shared ranks, drops."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.swiss_standings import TIE_BREAKERS, Scoring, SwissGame, SwissRow, swiss_standings

# Five players, three rounds, 3/1/0 and 3 for a bye:
#   round 1: 1 beat 2, 3 drew 4, 5 bye
#   round 2: 5 beat 1, 2 beat 3, 4 bye
#   round 3: 1 beat 4, 2 drew 5, 3 bye
FIVE = (
    SwissGame(1, 1, 2, "win"), SwissGame(1, 3, 4, "draw"), SwissGame(1, 5, None, "bye"),
    SwissGame(2, 5, 1, "win"), SwissGame(2, 2, 3, "win"), SwissGame(2, 4, None, "bye"),
    SwissGame(3, 1, 4, "win"), SwissGame(3, 2, 5, "draw"), SwissGame(3, 3, None, "bye"),
)
PLAYERS = (1, 2, 3, 4, 5)


def table(rows):
    return [(row.id, row.rank, row.score, dict(row.tie_breaks)) for row in rows]


def test_scores_and_records():
    """1: W L W = 6. 2: L W D = 4. 3: D L bye = 4. 4: D bye L = 4. 5: bye W D = 7."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), [])
    by_id = {row.id: row for row in rows}
    assert [(r.id, r.score, r.wins, r.draws, r.losses, r.byes) for r in rows][:2] == [
        (5, 7, 1, 1, 0, 1), (1, 6, 2, 0, 1, 0)]
    assert (by_id[3].wins, by_id[3].draws, by_id[3].losses, by_id[3].byes) == (0, 1, 1, 1)


def test_strength_of_schedule_by_hand():
    """SOS, opponents' scores, byes adding nothing:
    1 met 2 (4), 5 (7), 4 (4) = 15; 2 met 1 (6), 3 (4), 5 (7) = 17; 3 met 4 (4), 2 (4) = 8;
    4 met 3 (4), 1 (6) = 10; 5 met 1 (6), 2 (4) = 10.
    2, 3 and 4 are tied on 4 points; SOS orders them 2 (17), 4 (10), 3 (8)."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), ["sos"])
    assert table(rows) == [(5, 1, 7, {"sos": 10}), (1, 2, 6, {"sos": 15}), (2, 3, 4, {"sos": 17}),
                           (4, 4, 4, {"sos": 10}), (3, 5, 4, {"sos": 8})]


def test_opponents_win_rate_by_hand():
    """Win rates over games played (byes left out, a draw half a win):
    1: W L W = 2/3; 2: L W D = 1.5/3 = 1/2; 3: D L = 1/4, floored to 1/3; 4: D L = 1/4 -> 1/3;
    5: W D = 3/4.
    OMW: 1 met 2, 5, 4: (1/2 + 3/4 + 1/3) / 3 = 19/36. 2 met 1, 3, 5: (2/3 + 1/3 + 3/4) / 3 = 7/12.
    3 met 4, 2: (1/3 + 1/2) / 2 = 5/12. 4 met 3, 1: (1/3 + 2/3) / 2 = 1/2. 5 met 1, 2: (2/3 + 1/2) / 2
    = 7/12. Among the 4-point players: 2 (7/12), 4 (1/2), 3 (5/12)."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), ["omw"])
    assert [(row.id, row.rank) for row in rows] == [(5, 1), (1, 2), (2, 3), (4, 4), (3, 5)]
    omw = {row.id: row.tie_breaks[0][1] for row in rows}
    assert omw == pytest.approx({1: 19 / 36, 2: 7 / 12, 3: 5 / 12, 4: 1 / 2, 5: 7 / 12})


def test_median_strength_of_schedule_drops_the_best_and_worst_opponent():
    """1 met scores 4, 7, 4: without 7 and one 4, 4. 2 met 6, 4, 7: 6. With two games (3, 4, 5) nothing
    is dropped: 8, 10, 10."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), ["sos_median"])
    assert {row.id: row.tie_breaks for row in rows} == {
        1: (("sos_median", 4),), 2: (("sos_median", 6),), 3: (("sos_median", 8),),
        4: (("sos_median", 10),), 5: (("sos_median", 10),)}


def test_head_to_head_among_players_who_have_not_all_met_decides_nothing():
    """2, 3, 4 are tied on 4 points, but 2 never met 4: head to head does not apply, all show 0 and share
    rank 3 - the standings read 1, 2, 3, 3, 3, listed by id within the shared rank."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), ["h2h"])
    assert [(row.id, row.rank, row.tie_breaks) for row in rows] == [
        (5, 1, (("h2h", 0),)), (1, 2, (("h2h", 0),)), (2, 3, (("h2h", 0),)), (3, 3, (("h2h", 0),)),
        (4, 3, (("h2h", 0),))]


def test_head_to_head_decides_between_two_who_met():
    """Round 1: 1 beat 2, 3 beat 4. Round 2: 1 beat 3, 4 beat 2. 3 and 4 are tied on 3 points and met:
    3 scored 3 against 4, 4 scored 0 against 3, so 3 is second and 4 third."""
    games = [SwissGame(1, 1, 2, "win"), SwissGame(1, 3, 4, "win"), SwissGame(2, 1, 3, "win"),
             SwissGame(2, 4, 2, "win")]
    rows = swiss_standings([1, 2, 3, 4], games, Scoring(), ["h2h"])
    assert [(row.id, row.rank, row.tie_breaks) for row in rows] == [
        (1, 1, (("h2h", 0),)), (3, 2, (("h2h", 3),)), (4, 3, (("h2h", 0),)), (2, 4, (("h2h", 0),))]


def test_players_equal_on_everything_share_a_rank_as_1_2_2_4():
    """Round 1: 1 beat 2, 3 beat 4. Round 2: 1 beat 3, 2 beat 4. 2 and 3 both have 3 points and SOS 6
    (2 met 1 and 4: 6 + 0; 3 met 4 and 1: 0 + 6) and never met: ranks 1, 2, 2, 4."""
    games = [SwissGame(1, 1, 2, "win"), SwissGame(1, 3, 4, "win"), SwissGame(2, 1, 3, "win"),
             SwissGame(2, 2, 4, "win")]
    rows = swiss_standings([4, 3, 2, 1], games, Scoring(), ["sos", "h2h"])
    assert [(row.id, row.rank) for row in rows] == [(1, 1), (2, 2), (3, 2), (4, 4)]


def test_tie_breakers_apply_in_the_chosen_order():
    """Round 1: 1 beat 2, 3 beat 4, 5 beat 6. Round 2: 1 beat 3, 2 beat 6, 4 beat 5.
    Scores: 1 on 6; 2, 3, 4, 5 on 3; 6 on 0.
    SOS: 2 met 1 and 6: 6 + 0 = 6; 3 met 4 and 1: 3 + 6 = 9; 4 met 3 and 5: 3 + 3 = 6; 5 met 6 and 4: 3.
    Points destroyed: 2: 400 + 500 = 900; 3: 100 + 0 = 100; 4: 0 + 500 = 500; 5: 300 + 400 = 700.
    SOS first: 3 (9), then 2 and 4 (6 each, points destroyed 900 before 500), then 5.
    Points destroyed first: 2 (900), 5 (700), 4 (500), 3 (100)."""
    games = [SwissGame(1, 1, 2, "win"), SwissGame(1, 2, 1, "loss", 400), SwissGame(1, 3, 4, "win", 100),
             SwissGame(1, 5, 6, "win", 300), SwissGame(2, 1, 3, "win"), SwissGame(2, 2, 6, "win", 500),
             SwissGame(2, 4, 5, "win", 500), SwissGame(2, 5, 4, "loss", 400)]
    players = [1, 2, 3, 4, 5, 6]
    rows = swiss_standings(players, games, Scoring(), ["sos", "points_destroyed"])
    assert [(row.id, row.rank) for row in rows] == [(1, 1), (3, 2), (2, 3), (4, 4), (5, 5), (6, 6)]
    assert [row.tie_breaks for row in rows[1:3]] == [(("sos", 9), ("points_destroyed", 100)),
                                                     (("sos", 6), ("points_destroyed", 900))]
    rows = swiss_standings(players, games, Scoring(), ["points_destroyed", "sos"])
    assert [row.id for row in rows] == [1, 2, 5, 4, 3, 6]


def test_a_dropped_player_keeps_a_row_and_counts_for_opponents():
    """5 drops after round 3: still first on 7 points, marked, and 1's SOS still counts 5's 7 (15)."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(), ["sos"], dropped=frozenset({5}))
    assert rows[0] == SwissRow(id=5, rank=1, score=7, wins=1, draws=1, losses=0, byes=1,
                               tie_breaks=(("sos", 10),), dropped=True)
    assert rows[1].tie_breaks == (("sos", 15),) and not rows[1].dropped


def test_a_game_listed_from_both_sides_counts_once():
    both_sides = list(FIVE) + [SwissGame(1, 2, 1, "loss"), SwissGame(2, 1, 5, "loss")]
    assert swiss_standings(PLAYERS, both_sides, Scoring(), ["sos", "omw"]) == \
        swiss_standings(PLAYERS, FIVE, Scoring(), ["sos", "omw"])


def test_scoring_is_the_events():
    """1 / 0.5 / 0 with a bye worth a win: 5 has bye + W + D = 2.5."""
    rows = swiss_standings(PLAYERS, FIVE, Scoring(win=1, draw=0.5, loss=0, bye=1), [])
    assert (rows[0].id, rows[0].score) == (5, 2.5)


@pytest.mark.parametrize(("games", "words"), [
    ([SwissGame(1, 1, 2, "win"), SwissGame(1, 2, 1, "win")], "disagree"),
    ([SwissGame(1, 1, 9, "win")], "not in the event"),
    ([SwissGame(1, 1, 2, "won")], "not a result"),
    ([SwissGame(1, 1, None, "win")], "bye only when no opponent"),
    ([SwissGame(1, 1, 2, "win"), SwissGame(1, 1, 3, "win")], "two different results"),
])
def test_inconsistent_games_are_refused(games, words):
    with pytest.raises(ValueError, match=words):
        swiss_standings([1, 2, 3], games, Scoring(), [])


def test_an_unknown_tie_breaker_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="Unknown tie-breaker 'buchholz'; choose from sos, sos_median"):
        swiss_standings(PLAYERS, FIVE, Scoring(), ["sos", "buchholz"])


def test_every_tie_breaker_has_words_for_players():
    assert {"sos", "omw", "h2h", "points_destroyed"} <= set(TIE_BREAKERS)
    for key, tie_breaker in TIE_BREAKERS.items():
        assert tie_breaker.key == key and tie_breaker.label and tie_breaker.explanation.endswith(".")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.sampled_from(["win", "draw", "loss"])),
                max_size=12),
       st.permutations(["sos", "omw", "h2h", "sos_median"]))
def test_ranks_follow_the_order_and_ties_share(raw, keys):
    games, busy = [], set()
    for number, (a, b, outcome) in enumerate(raw):
        round_number = number // 3 + 1
        if a == b or (round_number, a) in busy or (round_number, b) in busy:
            continue
        busy |= {(round_number, a), (round_number, b)}
        games.append(SwissGame(round_number, a, b, outcome))
    rows = swiss_standings(range(1, 7), games, Scoring(), keys)
    assert sorted(row.id for row in rows) == list(range(1, 7))
    for index, row in enumerate(rows):
        assert row.rank == 1 + sum(other.rank < row.rank for other in rows)  # 1, 2, 2, 4 style
        if index:
            before = rows[index - 1]
            assert before.score >= row.score
            # the same rank exactly when equal on every figure shown
            assert (before.rank == row.rank) == ((before.score, before.tie_breaks) == (row.score, row.tie_breaks))
    assert swiss_standings(range(6, 0, -1), games[::-1], Scoring(), keys) == rows
