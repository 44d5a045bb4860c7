"""Swiss pairing: worked examples derived by hand, and random events checked against independent rules."""
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.swiss import SwissEntrant, SwissError, SwissPairing, pair_round, suggested_rounds


def entrant(id, score=0, rank=None, met=(), had_bye=False):
    return SwissEntrant(id=id, score=score, rank=id if rank is None else rank, opponents=frozenset(met),
                        had_bye=had_bye)


@pytest.mark.parametrize(("players", "rounds"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3),
                                                 (9, 4), (16, 4), (17, 5), (64, 6)])
def test_suggested_rounds_are_ceil_log2(players, rounds):
    assert suggested_rounds(players) == rounds


def test_round_one_of_eight_is_top_half_against_bottom_half():
    """All on 0 points, one score group ranked 1-8: the top half (1-4) meets the bottom half (5-8) in
    order, 1v5, 2v6, 3v7, 4v8; tables in rank order of the higher player. No bye in an even field."""
    pairing = pair_round([entrant(i) for i in range(1, 9)])
    assert pairing == SwissPairing(pairs=((1, 5), (2, 6), (3, 7), (4, 8)), bye=None, rematches=())


def test_round_one_of_seven_gives_the_bye_to_the_lowest_rank():
    """Seven players: rank 7 sits out; the other six pair top half v bottom half, 1v4, 2v5, 3v6."""
    pairing = pair_round([entrant(i) for i in range(1, 8)])
    assert pairing.bye == 7
    assert pairing.pairs == ((1, 4), (2, 5), (3, 6))


def test_odd_field_of_five_over_three_rounds_byes_go_to_different_players():
    """3 points a win, 3 a bye, the higher-ranked player always wins.

    Round 1, ranks = ids: 5 (lowest) has the bye; 1v3 and 2v4 (top half 1,2 v bottom half 3,4).
    Scores: 1, 2, 5 on 3; 3, 4 on 0. Standings: 1, 2, 5, 3, 4.
    Round 2: the bye goes to the lowest player without one: 4 (0 points, rank 5). The 3-point group
    1, 2, 5 is odd, so its lowest, 5, floats down to 3: 1v2, 5v3 (no rematches).
    Scores: 1 and 5 on 6; 2 and 4 on 3; 3 on 0. Standings: 1, 5, 2, 4, 3.
    Round 3: 3 has had no bye and is lowest, and sitting 3 out leaves 1, 5, 2, 4 pairable without a
    rematch: 1v4 and 5v2. (The score-group pairing 1v5, 2v4 would repeat 2v4 from round 1.)
    Byes: 5, 4, 3 - three different players."""
    round_1 = pair_round([entrant(i) for i in range(1, 6)])
    assert (round_1.pairs, round_1.bye) == (((1, 3), (2, 4)), 5)

    round_2 = pair_round([entrant(1, 3, 1, {3}), entrant(2, 3, 2, {4}), entrant(5, 3, 3, (), True),
                          entrant(3, 0, 4, {1}), entrant(4, 0, 5, {2})])
    assert (round_2.pairs, round_2.bye) == (((1, 2), (5, 3)), 4)

    round_3 = pair_round([entrant(1, 6, 1, {3, 2}), entrant(5, 6, 2, {3}, True), entrant(2, 3, 3, {4, 1}),
                          entrant(4, 3, 4, {2}, True), entrant(3, 0, 5, {1, 5})])
    assert round_3 == SwissPairing(pairs=((1, 4), (5, 2)), bye=3, rematches=())


def test_an_avoidable_rematch_is_avoided():
    """Four players. Round 1: 1 beat 3, 2 beat 4. Round 2: 1 beat 2, 3 beat 4. Scores 1: 6, 2: 3, 3: 3,
    4: 0. Score groups alone would float 1 to the top of the 3-point group (1v2) and leave 3v4: two
    rematches. 1 has met 2 and 3, so 1 meets 4, and 2v3 is new: no rematch, at the price of 1 floating
    two groups down."""
    pairing = pair_round([entrant(1, 6, 1, {3, 2}), entrant(2, 3, 2, {4, 1}),
                          entrant(3, 3, 3, {1, 4}), entrant(4, 0, 4, {2, 3})])
    assert pairing == SwissPairing(pairs=((1, 4), (2, 3)), bye=None, rematches=())


def test_an_unavoidable_rematch_is_reported():
    """Four players after three rounds have all met. 1 has 9 points, 2 has 6, 3 has 3, 4 has 0.
    Every pairing repeats two meetings, so the score differences decide: 1v2 and 3v4 (3 and 3
    apart) beat 1v3 and 2v4 (6 and 6) and 1v4 and 2v3 (9 and 3). Both are reported as rematches."""
    everyone = {1, 2, 3, 4}
    pairing = pair_round([entrant(i, score, i, everyone - {i}) for i, score in ((1, 9), (2, 6), (3, 3), (4, 0))])
    assert pairing == SwissPairing(pairs=((1, 2), (3, 4)), bye=None, rematches=((1, 2), (3, 4)))


def test_only_the_forced_rematch_is_played():
    """Six players on 0 points; 1 has met all five others (a replayed game on record, say). Whoever
    meets 1 meets them again, but nobody else has to: one rematch. Rank order then gives the classic
    1v4, 2v5, 3v6, and 1v4 is the rematch reported."""
    met = {1: {2, 3, 4, 5, 6}, 2: {1}, 3: {1}, 4: {1}, 5: {1}, 6: {1}}
    pairing = pair_round([entrant(i, 0, i, met[i]) for i in range(1, 7)])
    assert pairing == SwissPairing(pairs=((1, 4), (2, 5), (3, 6)), bye=None, rematches=((1, 4),))


def test_a_player_who_dropped_is_simply_not_paired():
    """Six players; round 1: 1v4, 2v5, 3v6, higher rank wins. 2 drops. Round 2 has five players: 1 and
    3 on 3 points, 4, 5, 6 on 0. The lowest, 6, has the bye; 1v3 and 4v5 meet nobody twice (5's only
    opponent, 2, has gone)."""
    pairing = pair_round([entrant(1, 3, 1, {4}), entrant(3, 3, 3, {6}),
                          entrant(4, 0, 4, {1}), entrant(5, 0, 5, {2}), entrant(6, 0, 6, {3})])
    assert pairing == SwissPairing(pairs=((1, 3), (4, 5)), bye=6, rematches=())


def test_a_late_entry_starts_on_zero_points():
    """Five players played round 1 (1 beat 3, 2 beat 4, 5 had the bye); 9 enters late with 0 points and
    the last rank. Six players: the 3-point group 1, 2, 5 is odd, so 5 floats down to the top of the
    0-point bracket 5, 3, 4, 9 (top half 5, 3 v bottom half 4, 9): 1v2, 5v4, 3v9."""
    pairing = pair_round([entrant(1, 3, 1, {3}), entrant(2, 3, 2, {4}), entrant(5, 3, 3, (), True),
                          entrant(3, 0, 4, {1}), entrant(4, 0, 5, {2}), entrant(9, 0, 6)])
    assert pairing == SwissPairing(pairs=((1, 2), (5, 4), (3, 9)), bye=None, rematches=())


def test_a_floater_goes_one_score_group_down_not_two():
    """1 (6 points) has met 2 (3 points); 3 has 3, 4 has 0. 1 must float: 1v3 (3 apart) and 2v4 (3
    apart) cost 9 + 9 in squared differences; 1v4 (6 apart) and 2v3 (0) cost 36. One group each way
    wins."""
    pairing = pair_round([entrant(1, 6, 1, {2}), entrant(2, 3, 2, {1}), entrant(3, 3, 3), entrant(4, 0, 4)])
    assert pairing.pairs == ((1, 3), (2, 4))


def test_the_lowest_of_an_odd_group_floats_to_the_top_of_the_next():
    """Scores 6, 6, 6, 3, 3, 0 for 1-6, nobody has met. The 6-point group is odd: its lowest, 3, meets
    the top of the 3-point group, 4; then 5 is left and meets 6. Tables: 1v2, 3v4, 5v6."""
    pairing = pair_round([entrant(i, score) for i, score in enumerate((6, 6, 6, 3, 3, 0), start=1)])
    assert pairing.pairs == ((1, 2), (3, 4), (5, 6))


def test_when_everybody_had_a_bye_the_lowest_gets_a_second():
    pairing = pair_round([entrant(i, 3, i, (), True) for i in range(1, 4)])
    assert pairing.bye == 3


def test_shared_ranks_and_input_order_do_not_change_the_pairing():
    """Ranks 1, 2, 2, 4 (a shared rank): the id settles the order of the two rank-2 players."""
    field = [entrant(10, 3, 1), entrant(30, 3, 2), entrant(20, 3, 2), entrant(40, 3, 4)]
    assert pair_round(field) == pair_round(field[::-1])
    assert pair_round(field).pairs == ((10, 30), (20, 40))


def test_fractional_scores_pair_exactly():
    field = [entrant(1, 1.5), entrant(2, 1.5), entrant(3, 0.5), entrant(4, 0.5)]
    assert pair_round(field).pairs == ((1, 2), (3, 4))


def test_a_player_listed_twice_is_refused():
    with pytest.raises(SwissError, match="more than once"):
        pair_round([entrant(1), entrant(1), entrant(2)])
    with pytest.raises(ValueError):
        pair_round([entrant(1), entrant(1)])


def test_one_player_gets_the_bye_and_nobody_gets_nothing():
    assert pair_round([entrant(1)]) == SwissPairing(pairs=(), bye=1, rematches=())
    assert pair_round([]) == SwissPairing(pairs=(), bye=None, rematches=())


# --- random events -------------------------------------------------------------------------------------

def perfect_matching_exists(nodes, allowed):
    """Brute force with memory over the set of nodes still unpaired: can they all be paired along
    `allowed` edges? Independent of the matching library."""
    nodes = list(nodes)

    @cache
    def pairable(left):
        if not left:
            return True
        first, rest = left[0], left[1:]
        return any(allowed(first, other) and pairable(rest[:i] + rest[i + 1:]) for i, other in enumerate(rest))

    return pairable(tuple(nodes))


BYE = "bye"


def rematch_free_pairing_exists(field):
    by_id = {e.id: e for e in field}
    eligible = {e.id for e in field if not e.had_bye} or set(by_id)
    nodes = list(by_id) + ([BYE] if len(field) % 2 else [])

    def allowed(a, b):
        if BYE in (a, b):
            return (b if a == BYE else a) in eligible
        return b not in by_id[a].opponents and a not in by_id[b].opponents

    return perfect_matching_exists(nodes, allowed)


def shared_ranks(scores):
    return {player: 1 + sum(other > score for other in scores.values()) for player, score in scores.items()}


@settings(max_examples=150, deadline=None)
@given(size=st.integers(2, 20), seed=st.integers(0, 2 ** 32 - 1), drop_chance=st.sampled_from([0, 0.1, 0.25]))
def test_random_events_follow_the_pairing_rules(size, seed, drop_chance):
    rng = random.Random(seed)
    active = list(range(1, size + 1))
    scores = dict.fromkeys(active, 0)
    met = {player: set() for player in active}
    byes = dict.fromkeys(active, 0)
    for _round in range(rng.randint(1, suggested_rounds(size) + 1)):
        active = [p for p in active if rng.random() >= drop_chance] or active[:1]
        ranks = shared_ranks({p: scores[p] for p in active})
        field = [SwissEntrant(p, scores[p], ranks[p], frozenset(met[p]), byes[p] > 0) for p in active]
        pairing = pair_round(field)

        seated = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye is not None else [])
        assert sorted(seated) == sorted(active)  # everyone once
        assert (pairing.bye is not None) == (len(active) % 2 == 1)  # a bye only in an odd field
        if pairing.bye is not None and any(byes[p] == 0 for p in active):
            assert byes[pairing.bye] == 0  # a second bye only when everybody has had one
        assert pairing.rematches == tuple(pair for pair in pairing.pairs if pair[1] in met[pair[0]])
        if rematch_free_pairing_exists(field):
            assert pairing.rematches == ()
        for better, worse in pairing.pairs:
            assert (-scores[better], ranks[better], better) < (-scores[worse], ranks[worse], worse)
        assert pair_round(rng.sample(field, len(field))) == pairing  # the input order changes nothing

        for first, second in pairing.pairs:
            met[first].add(second)
            met[second].add(first)
            outcome = rng.choice(["first", "second", "draw"])
            scores[first] += {"first": 3, "second": 0, "draw": 1}[outcome]
            scores[second] += {"first": 0, "second": 3, "draw": 1}[outcome]
        if pairing.bye is not None:
            scores[pairing.bye] += 3
            byes[pairing.bye] += 1
