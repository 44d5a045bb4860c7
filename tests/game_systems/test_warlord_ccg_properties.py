"""Properties of the Warlord CCG checker over generated lists (spec 2.1, 2.4, 3).

Lists are drawn from the spec's test pool plus names it lacks (E01), with counts that may break the
copy limit and starting counts that may exceed the count (S04), so violations of every group occur.
"""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game_systems.examples.warlord_ccg import POOL, as_multiset, base_deck, run, self_described

NAMES = sorted(card.name for card in POOL.cards.values()) + ["Unknown Knight", "Unknown Scroll"]
GROUP_RANK = {"E": 0, "S04": 1, "D": 2, "S": 3}


def group(code: str) -> int:
    kind = code.removeprefix("WCCG-")
    return GROUP_RANK["S04" if kind == "S04" else kind[0]]


@st.composite
def card_lists(draw):
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=len(NAMES), unique=True))
    cards = []
    for name in names:
        count = draw(st.integers(1, 5))
        starting = draw(st.one_of(st.just(0), st.integers(0, count + 1)))
        cards.append({"name": name, "count": count, "starting": starting})
    return cards


@st.composite
def list_with_a_split(draw):
    """A list and the same list with one entry split into two entries of the same card."""
    cards = draw(card_lists().filter(lambda cards: any(entry["count"] >= 2 for entry in cards)))
    splittable = [i for i, entry in enumerate(cards) if entry["count"] >= 2]
    index = draw(st.sampled_from(splittable))
    entry = cards[index]
    first_count = draw(st.integers(1, entry["count"] - 1))
    first_starting = draw(st.integers(0, entry["starting"]))
    first = {**entry, "count": first_count, "starting": first_starting}
    second = {**entry, "count": entry["count"] - first_count, "starting": entry["starting"] - first_starting}
    split = [*cards[:index], first, *cards[index + 1:]]
    split.insert(draw(st.integers(index + 1, len(split))), second)
    return cards, split, entry["name"]


def lord_lists_sorted(violations):
    """D05 lists the lord characters in the list's order; sort that inner list so it compares."""
    normalised = []
    for code, message in violations:
        if code == "WCCG-D05":
            head, rest = message.split(" (", 1)
            listed, tail = rest.split("); ", 1)
            message = f"{head} ({', '.join(sorted(listed.split(', ')))}); {tail}"
        normalised.append((code, message))
    return as_multiset(normalised)


@settings(max_examples=200, deadline=None)
@given(cards=card_lists(), data=st.data())
def test_violations_do_not_depend_on_the_order_of_rows(cards, data):
    """Names are unique keys (W3), so reordering distinct entries changes only the order of messages
    (and of the names listed inside a D05 sentence, which follow the list): the multiset of
    (code, sentence) is otherwise the same."""
    shuffled = data.draw(st.permutations(cards))
    assert lord_lists_sorted(run(shuffled)) == lord_lists_sorted(run(cards))


@settings(max_examples=200, deadline=None)
@given(case=list_with_a_split())
def test_splitting_an_entry_adds_exactly_one_e03_and_changes_nothing_else(case):
    """2.1: a repeated name is reported (E03) and merged, counts and starting counts added. So for ANY
    list (legal or not), splitting one entry into two entries of the same name whose counts and starting
    counts add up to the original ones gives the original violations plus exactly one E03 for that name.
    Checked as multisets, since the second part may sit anywhere after the first."""
    cards, split, name = case
    expected = as_multiset(run(cards)) + Counter(
        {("WCCG-E03", f"“{name}” is listed more than once; list each card once with its total count."): 1})
    assert as_multiset(run(split)) == expected


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_the_base_deck_split_anywhere_gives_only_e03(data):
    """The brief's case: a legal list stays legal apart from the E03 of the split name."""
    cards = base_deck()
    index = data.draw(st.sampled_from([i for i, entry in enumerate(cards) if entry["count"] >= 2]))
    entry = cards[index]
    starting = entry.get("starting", 0)
    first_starting = data.draw(st.integers(0, starting))
    split = [*cards, {"name": entry["name"], "count": 1, "starting": starting - first_starting}]
    split[index] = {**entry, "count": entry["count"] - 1, "starting": first_starting}
    assert run(split) == [
        ("WCCG-E03", f"“{entry['name']}” is listed more than once; list each card once with its total count.")]


@settings(max_examples=200, deadline=None)
@given(cards=card_lists())
def test_self_described_lists_with_the_pool_s_attributes_give_the_pool_s_verdict(cards):
    """2.2/2.3: the same attributes from either source give the same checks. Left out: names the pool
    lacks (E01 in one mode, bad attributes in the other) and cards with a pool max_copies, which a
    player cannot claim in a self-described list (W15)."""
    known = [entry for entry in cards
             if POOL.find(entry["name"]) is not None and POOL.find(entry["name"]).max_copies is None]
    assert run(self_described(known), pool=None) == run(known)


@settings(max_examples=200, deadline=None)
@given(cards=card_lists())
def test_messages_come_grouped_e_then_s04_then_d_then_s(cards):
    """Section 3: "Messages are shown in a fixed order (E, S04, D, S)"."""
    ranks = [group(code) for code, _ in run(cards)]
    assert ranks == sorted(ranks)
