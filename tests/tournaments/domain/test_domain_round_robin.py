"""Round-robin schedules (Berger tables): everyone meets everyone once, once per round, sides balanced."""
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain import DomainError, Pairing, round_robin


def keys(n):
    return [str(i) for i in range(1, n + 1)]


def assert_round_robin(field, pairings):
    n = len(field)
    meetings = Counter(frozenset((p.first, p.second)) for p in pairings)
    assert set(meetings) == {frozenset(pair) for pair in combinations(field, 2)}  # everyone meets everyone
    assert set(meetings.values()) <= {1}  # ... exactly once
    assert {p.round for p in pairings} == set(range(1, n))
    for round_number in range(1, n):
        playing = [g for p in pairings if p.round == round_number for g in (p.first, p.second)]
        assert sorted(playing) == sorted(field)  # everyone plays, once
    assert [p.number for p in pairings] == list(range(1, len(pairings) + 1))
    assert [p.round for p in pairings] == sorted(p.round for p in pairings)  # numbered in round order
    listed_first = Counter(p.first for p in pairings)
    floor, ceil = (n - 1) // 2, n // 2
    for general in field:
        assert floor <= listed_first[general] <= ceil


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_every_group_size_the_rules_allow(n):
    field = keys(n)
    pairings = round_robin(field)
    assert len(pairings) == n * (n - 1) // 2
    assert_round_robin(field, pairings)


def test_round_one_is_the_berger_table_of_four_and_six():
    assert [(p.round, p.number, p.first, p.second) for p in round_robin(keys(4))] == [
        (1, 1, "1", "4"), (1, 2, "2", "3"), (2, 3, "4", "3"), (2, 4, "1", "2"), (3, 5, "2", "4"), (3, 6, "3", "1")]
    six = [(p.first, p.second) for p in round_robin(keys(6))]
    assert six == [("1", "6"), ("2", "5"), ("3", "4"), ("6", "4"), ("5", "3"), ("1", "2"),
                   ("2", "6"), ("3", "1"), ("4", "5"), ("6", "5"), ("1", "4"), ("2", "3"),
                   ("3", "6"), ("4", "2"), ("5", "1")]


@pytest.mark.parametrize("n", [4, 8, 16])
def test_sides_alternate_nobody_is_listed_on_the_same_side_three_rounds_running(n):
    pairings = round_robin(keys(n))
    for general in keys(n):
        sides = "".join("F" if p.first == general else "S" for p in pairings if general in (p.first, p.second))
        assert "FFF" not in sides and "SSS" not in sides, (general, sides)


@given(st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=11, unique=True).map(lambda keys: keys * 2)
       .map(lambda keys: [f"{k}#{i}" for i, k in enumerate(keys)]))
def test_any_even_field_gets_a_full_deterministic_schedule(field):
    pairings = round_robin(field)
    assert pairings == round_robin(list(field))
    assert all(isinstance(p, Pairing) for p in pairings)
    assert_round_robin(field, pairings)


@pytest.mark.parametrize(("field", "sentence"), [
    ([], "A round robin group needs an even number of generals, at least 2 (R25); this one has 0: add 2."),
    (["1", "2", "3"],
     "A round robin group needs an even number of generals, at least 2 (R25); this one has 3: add or remove 1."),
])
def test_an_odd_or_empty_group_is_refused(field, sentence):  # groups are even (R25)
    with pytest.raises(DomainError) as refused:
        round_robin(field)
    assert str(refused.value) == sentence


def test_a_general_listed_twice_is_refused():
    with pytest.raises(DomainError, match="A round robin needs each general once; 2 is listed more than once."):
        round_robin(["1", "2", "2", "3"])
