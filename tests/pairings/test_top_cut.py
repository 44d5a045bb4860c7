"""The top cut: seeds in bracket order, so the best two seeds can meet only in the final."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairings.top_cut import (
    bracket_rounds,
    check_top_cut,
    next_round,
    seed_order,
    top_cut_first_round,
)


def test_bracket_order_for_4_8_and_16():
    assert top_cut_first_round([1, 2, 3, 4]) == [(1, 4), (2, 3)]
    assert top_cut_first_round(list(range(1, 9))) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert top_cut_first_round(list(range(1, 17))) == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]


def test_seeds_are_ids_in_standings_order():
    """Seeds are the ids of the top of the standings, seed 1 first."""
    assert top_cut_first_round([40, 10, 30, 20]) == [(40, 20), (10, 30)]


@pytest.mark.parametrize("size", [4, 8, 16])
def test_when_the_better_seed_always_wins_1_meets_2_in_the_final(size):
    """Each round halves the field; with the favourites winning, the semi-finals are 1v4 and 2v3."""
    pairs = top_cut_first_round(list(range(1, size + 1)))
    rounds = 1
    while len(pairs) > 1:
        if len(pairs) == 2:
            assert pairs == [(1, 4), (2, 3)]
        pairs = next_round([min(pair) for pair in pairs])
        rounds += 1
    assert pairs == [(1, 2)]
    assert rounds == bracket_rounds(size) == {4: 2, 8: 3, 16: 4}[size]


@given(st.sampled_from([4, 8, 16]))
def test_first_round_seeds_add_up_to_size_plus_one(size):
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


def test_winners_meet_their_neighbours():
    assert next_round([1, 5, 2, 3]) == [(1, 5), (2, 3)]


@pytest.mark.parametrize("size", [0, 2, 6, 12, 32])
def test_only_4_8_or_16(size):
    with pytest.raises(ValueError, match="4, 8 or 16"):
        bracket_rounds(size)
    with pytest.raises(ValueError, match="4, 8 or 16"):
        top_cut_first_round(list(range(1, size + 1)))


def test_the_cut_cannot_be_bigger_than_the_field():
    check_top_cut(8, 8)
    with pytest.raises(ValueError, match="A top cut of 8 needs at least 8 players; this event has 7"):
        check_top_cut(8, 7)


def test_repeated_or_odd_lists_are_refused():
    with pytest.raises(ValueError, match="listed twice"):
        top_cut_first_round([1, 2, 2, 3])
    with pytest.raises(ValueError, match="even number of winners"):
        next_round([1, 2, 3])
    with pytest.raises(ValueError, match="1 was given"):
        next_round([1])
