"""Properties of the Reaper's Warlord checks that hold for every list, drawn by hypothesis from section 5's pool.

Spec: shared/spec/reaper-warlord-armies.md, sections 2.1 (merging) and 3 (per-troop evaluation).
"""
from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game_systems.base import Violation
from game_systems.reaper_warlord.checker import check
from game_systems.reaper_warlord.options import parse_options
from game_systems.reaper_warlord.pool import parse_pool

POOL = parse_pool((Path(__file__).parent / "examples" / "reaper_warlord" / "pool.csv").read_text(encoding="utf-8"))
DEFAULTS = parse_options({}, has_pool=True)
ROOMY = parse_options({"points_limit": 100_000}, has_pool=True)
NAMES = [model.name for model in POOL] + ["Mystery Knight"]
TROOP_NUMBER = re.compile(r"^Troop (\d+)")

entries = st.fixed_dictionaries(
    {"name": st.sampled_from(NAMES)},
    optional={"count": st.one_of(st.integers(1, 13), st.sampled_from([0, -1, 2.5, "2"]))},
)
troops = st.fixed_dictionaries({"models": st.lists(entries, max_size=5)})
armies = st.fixed_dictionaries(
    {"troops": st.lists(troops, max_size=5)},
    optional={"army_faction": st.sampled_from(["Crusaders", "Other Faction"])},
)


def canonical(violations: list[Violation], troop_numbers: dict[int, int] | None = None) -> Counter:
    """The violations as a multiset, with what the spec lets depend on list order taken out:

    - troop numbers are renumbered through `troop_numbers` (troops are "numbered from 1 in list order");
    - RW-T02's Leaders are sorted (they are listed in troop order);
    - RW-T03's Solo name is dropped (it names "the first Solo" of the troop).
    """
    result = Counter()
    for violation in violations:
        message = violation.message
        if troop_numbers:
            message = TROOP_NUMBER.sub(lambda m: f"Troop {troop_numbers[int(m.group(1))]}", message)
        if violation.code == "RW-T02":
            message = re.sub(r"\((.*)\)", lambda m: "(" + ", ".join(sorted(m.group(1).split(", "))) + ")",
                             message, count=1)
        if violation.code == "RW-T03":
            message = re.sub(r"“[^”]*”", "“…”", message)
        result[(violation.code, message)] += 1
    return result


@settings(max_examples=200, deadline=None)
@given(data=st.data(), submission=armies)
def test_violations_do_not_depend_on_the_order_of_troops_or_entries(data, submission):
    """For any list: shuffling its troops and the entries inside each troop gives the same multiset of
    violations, once each "Troop i" is renumbered to the troop's new place, RW-T02's Leaders are compared
    as a set and RW-T03's named Solo is left aside (the spec names "the first Solo")."""
    order = data.draw(st.permutations(range(len(submission["troops"]))), label="troop order")
    shuffled = copy.deepcopy(submission)
    shuffled["troops"] = [copy.deepcopy(submission["troops"][index]) for index in order]
    for troop in shuffled["troops"]:
        troop["models"] = data.draw(st.permutations(troop["models"]), label="entry order")
    new_number_of = {old + 1: new + 1 for new, old in enumerate(order)}
    assert canonical(check(shuffled, pool=POOL, options=DEFAULTS)) == canonical(
        check(submission, pool=POOL, options=DEFAULTS), new_number_of)


@st.composite
def valid_armies(draw):
    """Lists that break no rule: Leader troops within their capacity, Solos alone, each Unique name once."""
    leaders_left = ["Example Data Card", "Test Warlord"]  # the Unique Leaders, once each (A4)
    solitaire_left = True
    army_troops = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["leader", "solo"]))
        if kind == "solo":
            solo = "Test Solitaire" if solitaire_left and draw(st.booleans()) else "Test Monster"
            solitaire_left = solitaire_left and solo != "Test Solitaire"
            army_troops.append({"models": [{"name": solo}]})
            continue
        leader = draw(st.sampled_from(leaders_left + ["Test Sergeant"]))
        if leader in leaders_left:
            leaders_left.remove(leader)
        capacity = POOL.get(leader).capacity
        soldiers = draw(st.integers(capacity.soldiers_min, capacity.soldiers_max))
        archers = draw(st.integers(0, soldiers))
        elites = draw(st.integers(0, capacity.elites_max))
        models = [{"name": leader}]
        for name, count in (("Test Soldier", soldiers - archers), ("Test Archer", archers), ("Test Elite", elites)):
            if count:
                models.append({"name": name, "count": count})
        army_troops.append({"models": draw(st.permutations(models))})
    return {"army_faction": "Crusaders", "troops": army_troops}


def split_one_entry(data, submission):
    """The list with one entry of count k > 1 split into two entries of the same model in the same troop,
    counts a and k - a, the second placed anywhere in that troop."""
    places = [(t, e) for t, troop in enumerate(submission["troops"]) for e, entry in enumerate(troop["models"])
              if isinstance(entry.get("count"), int) and entry["count"] > 1]
    assume(places)
    troop_index, entry_index = data.draw(st.sampled_from(places), label="entry to split")
    split = copy.deepcopy(submission)
    models = split["troops"][troop_index]["models"]
    entry = models[entry_index]
    part = data.draw(st.integers(1, entry["count"] - 1), label="first part")
    second = {"name": entry["name"], "count": entry["count"] - part}
    entry["count"] = part
    models.insert(data.draw(st.integers(0, len(models)), label="where"), second)
    return split


@settings(max_examples=200, deadline=None)
@given(data=st.data(), submission=valid_armies())
def test_a_valid_list_stays_valid_when_an_entry_is_split(data, submission):
    """For any valid list: splitting a model entry of count k > 1 into two entries of the same model in
    the same troop (counts a and k - a) leaves it valid, since section 2.1 merges them again."""
    assert check(submission, pool=POOL, options=ROOMY) == []
    assert check(split_one_entry(data, submission), pool=POOL, options=ROOMY) == []


@settings(max_examples=200, deadline=None)
@given(data=st.data(), submission=armies)
def test_splitting_an_entry_changes_no_violation_of_any_list(data, submission):
    """For any list, valid or not: the same split gives the same multiset of violations, with RW-T02's
    Leaders compared as a set and RW-T03's named Solo left aside (the split part may come first)."""
    split = split_one_entry(data, submission)
    assert canonical(check(split, pool=POOL, options=DEFAULTS)) == canonical(
        check(submission, pool=POOL, options=DEFAULTS))
