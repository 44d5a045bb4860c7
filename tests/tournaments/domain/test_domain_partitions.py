"""Qualifying groups (R25): the partitions a field allows, the refusals, and the three ways to fill them."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain import (
    DomainError,
    assign_random,
    assign_snake,
    check_partition,
    possible_partitions,
    validate_manual,
)


def keys(n):
    return [str(i) for i in range(1, n + 1)]


@pytest.mark.parametrize(("n", "partitions"), [
    (0, []), (2, []), (4, [(2, 2)]), (6, []), (8, [(2, 4), (4, 2)]), (12, [(2, 6), (6, 2)]),
    (16, [(2, 8), (4, 4), (8, 2)]), (24, [(2, 12), (4, 6), (6, 4), (12, 2)]),
])
def test_possible_partitions_worked_examples(n, partitions):  # R25; 8 is the seed's own example
    assert possible_partitions(n) == partitions


@given(st.integers(min_value=-5, max_value=400))
def test_possible_partitions_are_exactly_the_even_by_even_factorizations(n):  # R25
    expected = [(c, n // c) for c in range(1, max(n, 0) + 1) if n % c == 0 and c % 2 == 0 and (n // c) % 2 == 0]
    assert possible_partitions(n) == expected
    assert bool(expected) == (n > 0 and n % 4 == 0)


@pytest.mark.parametrize(("n", "group_count", "size"), [(4, 2, 2), (8, 2, 4), (8, 4, 2), (16, 8, 2), (12, 6, 2)])
def test_check_partition_gives_the_group_size(n, group_count, size):
    assert check_partition(n, group_count) == size


@pytest.mark.parametrize(("n", "group_count", "sentence"), [
    (8, 3, "8 generals can form 2 groups of 4 or 4 groups of 2; 3 groups is not one of them."),
    (8, 1, "8 generals can form 2 groups of 4 or 4 groups of 2; 1 group is not one of them."),
    (4, 4, "4 generals can form 2 groups of 2; 4 groups is not one of them."),
    (16, 16, "16 generals can form 2 groups of 8, 4 groups of 4 or 8 groups of 2; 16 groups is not one of them."),
    (6, 2, "6 generals cannot form equal even groups: register 2 more or remove 2."),
    (10, 2, "10 generals cannot form equal even groups: register 2 more or remove 2."),
    (5, 2, "5 generals cannot form equal even groups: register 3 more or remove 1."),
    (7, 2, "7 generals cannot form equal even groups: register 1 more or remove 3."),
    (9, 2, "9 generals cannot form equal even groups: register 3 more or remove 1."),
    (3, 2, "3 generals cannot form equal even groups: register 1 more."),
    (2, 2, "2 generals cannot form equal even groups: register 2 more."),
    (1, 2, "1 general cannot form equal even groups: register 3 more."),
    (0, 2, "0 generals cannot form equal even groups: register 4 more."),
])
def test_check_partition_refusals_say_what_works_or_what_to_change(n, group_count, sentence):  # R25
    with pytest.raises(DomainError) as refused:
        check_partition(n, group_count)
    assert str(refused.value) == sentence
    assert refused.value.field == "group_count"


def test_a_random_draw_is_reproducible_from_its_seed_and_the_registration_order():
    field = keys(16)
    first = assign_random(field, 4, seed=4242)
    assert first == assign_random(list(field), 4, seed=4242)
    assert sorted(k for group in first for k in group) == sorted(field)
    assert [len(group) for group in first] == [4, 4, 4, 4]
    assert first != assign_random(field, 4, seed=4243)  # a different seed is a different draw (for this one)


@given(st.integers(min_value=1, max_value=6), st.sampled_from([0, 1]), st.integers())
def test_a_random_draw_is_a_valid_partition_and_does_not_change_its_input(half_size, count_index, seed):
    field = keys(4 * half_size)
    partitions = possible_partitions(len(field))
    group_count, size = partitions[count_index % len(partitions)]
    before = list(field)
    groups = assign_random(field, group_count, seed)
    assert field == before
    assert groups == assign_random(field, group_count, seed)
    validate_manual(field, groups)
    assert all(len(group) == size for group in groups)


def test_snake_seeding_goes_out_and_back():
    assert assign_snake(keys(8), 2) == [["1", "4", "5", "8"], ["2", "3", "6", "7"]]
    assert assign_snake(keys(8), 4) == [["1", "8"], ["2", "7"], ["3", "6"], ["4", "5"]]
    assert assign_snake(keys(16), 4) == [
        ["1", "8", "9", "16"], ["2", "7", "10", "15"], ["3", "6", "11", "14"], ["4", "5", "12", "13"]]
    assert assign_snake(keys(8), 2) == assign_snake(keys(8), 2)


@given(st.integers(min_value=1, max_value=8))
def test_snake_groups_have_equal_seed_sums_when_the_laps_are_even(quarter):
    field = keys(8 * quarter)  # 2 groups, an even number of laps: the serpentine balances exactly
    groups = assign_snake(field, 2)
    assert sum(map(int, groups[0])) == sum(map(int, groups[1]))


def test_assignments_refuse_a_field_that_cannot_be_grouped():
    with pytest.raises(DomainError, match="6 generals cannot form equal even groups"):
        assign_random(keys(6), 2, seed=1)
    with pytest.raises(DomainError, match="8 generals can form 2 groups of 4 or 4 groups of 2; 8 groups"):
        assign_snake(keys(8), 8)
    with pytest.raises(DomainError, match="Each general can be placed once; general Cleo is listed more than once."):
        assign_random(["Ana", "Bo", "Cleo", "Cleo"], 2, seed=1)
    with pytest.raises(DomainError, match="; generals 1 and 3 are listed more than once."):
        assign_snake(["1", "3", "1", "3"], 2)


def test_a_manual_assignment_that_works_passes():
    assert validate_manual(keys(8), [["1", "5", "2", "6"], ["3", "4", "7", "8"]]) is None


@pytest.mark.parametrize(("groups", "sentence"), [
    ([["1", "2"], ["3", "1"]],
     "General 1 is placed in more than one group; each general belongs to exactly one."),
    ([["2", "1", "3"], ["1", "2", "4"]],
     "Generals 2 and 1 are placed in more than one group; each general belongs to exactly one."),
    ([["1", "2"], ["3", "9"]],
     "General 9 is not registered; only registered generals can be placed."),
    ([["1", "2"], ["3", "8", "9"]],
     "Generals 8 and 9 are not registered; only registered generals can be placed."),
    ([["1", "2"], ["3"]],
     "Every registered general needs a group; missing: 4."),
    ([["1"], ["3"]],
     "Every registered general needs a group; missing: 2, 4."),
    ([["1", "2", "3"], ["4"]],
     "Every group needs 2 generals, but the groups have 3 and 1; move generals until the groups are equal."),
    ([["1", "2", "3", "4"]],
     "4 generals can form 2 groups of 2; 1 group is not one of them."),
])
def test_a_manual_assignment_is_refused_naming_who_or_what(groups, sentence):  # R25
    with pytest.raises(DomainError) as refused:
        validate_manual(keys(4), groups)
    assert str(refused.value) == sentence


def test_a_manual_assignment_of_a_field_that_cannot_be_grouped_says_what_to_change():
    with pytest.raises(DomainError, match="6 generals cannot form equal even groups: register 2 more or remove 2"):
        validate_manual(keys(6), [["1", "2", "3"], ["4", "5", "6"]])
