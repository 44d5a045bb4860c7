"""Reaper's Warlord army lists: the spec's worked examples and each check of section 3 with its rulings.

Spec: shared/spec/reaper-warlord-armies.md. The section 5 examples are kept as files under
examples/reaper_warlord/ (the pool block and the examples block, unchanged); a test compares them with
the spec whenever the spec is at hand.
"""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from game_systems.base import UnusableInput, Violation
from game_systems.reaper_warlord import CHECKER
from game_systems.reaper_warlord.checker import check, model_costs, summary
from game_systems.reaper_warlord.options import Options, parse_options
from game_systems.reaper_warlord.pool import HEADER, parse_pool

EXAMPLES_DIR = Path(__file__).parent / "examples" / "reaper_warlord"
REPO = Path(__file__).resolve().parents[2]
SPEC_CANDIDATES = (REPO.parent / "shared" / "spec" / "reaper-warlord-armies.md",
                   Path("/work/shared/spec/reaper-warlord-armies.md"))
POOL_TEXT = (EXAMPLES_DIR / "pool.csv").read_text(encoding="utf-8")
EXAMPLES = json.loads((EXAMPLES_DIR / "examples.json").read_text(encoding="utf-8"))
POOL = parse_pool(POOL_TEXT)
DEFAULTS = Options()


def pairs(violations: list[Violation]) -> list[tuple[str, str]]:
    return [(violation.code, violation.message) for violation in violations]


def codes(violations: list[Violation]) -> list[str]:
    return [violation.code for violation in violations]


def troop(*models) -> dict:
    """A troop from (name, count) pairs or plain names."""
    return {"models": [{"name": m} if isinstance(m, str) else {"name": m[0], "count": m[1]} for m in models]}


def army(*troops, faction="Crusaders") -> dict:
    submission = {"troops": list(troops)}
    if faction is not None:
        submission["army_faction"] = faction
    return submission


def checked(submission, **options) -> list[Violation]:
    return check(submission, pool=POOL, options=parse_options(options, has_pool=True))


CAPTAIN_TROOP = troop("Example Data Card", ("Test Soldier", 6), "Test Elite")
MONSTER_TROOP = troop("Test Monster")


# --- section 5: every worked example --------------------------------------------------------------

def test_every_worked_example_of_section_5_is_here():
    assert [example["id"] for example in EXAMPLES] == ["RT01", "RT02", "RT03", "RT04", "RT05"]


def _spec_text() -> str | None:
    for candidate in SPEC_CANDIDATES:
        if candidate.exists():
            return candidate.read_text(encoding="utf-8")
    return None


def _spec_block(text: str, name: str) -> str:
    # The block's first character may sit on the fence line itself ("```json[").
    match = re.search(rf"<!-- block: {re.escape(name)} -->\s*```(?:csv|json)(.*?)```", text, re.S)
    assert match, f"block {name} not found in the spec"
    return match.group(1)


def test_the_example_files_are_the_spec_blocks_unchanged():
    text = _spec_text()
    if text is None:
        pytest.skip("the spec is not at hand in this checkout")
    assert json.loads(_spec_block(text, "rw-examples")) == EXAMPLES
    assert _spec_block(text, "rw-pool").strip() == POOL_TEXT.strip()


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["id"] for example in EXAMPLES])
def test_worked_example_gives_exactly_its_expected_violations(example):
    options = CHECKER.parse_options(example["event"], has_pool=True)
    violations = CHECKER.check(example["list"], pool=POOL, options=options)
    expected = [(item["code"], item["message"]) for item in example["expected"]]
    assert Counter(pairs(violations)) == Counter(expected)


def test_the_points_arithmetic_of_section_5():
    assert summary(EXAMPLES[0]["list"], pool=POOL) == "Crusaders, 3 troops, 510 points"
    assert summary(EXAMPLES[1]["list"], pool=POOL) == "Crusaders, 5 troops, 1000 points"


# --- section 5's extra unit cases ------------------------------------------------------------------

def test_an_army_without_troops_is_t00():
    assert pairs(checked({"army_faction": "Crusaders", "troops": []})) == [
        ("RW-T00", "The army has no troops; an army is made of one or more troops.")]


def test_no_faction_and_no_troops_is_f00_and_t00():
    assert pairs(checked({"troops": []})) == [
        ("RW-F00", "The list does not name the army's faction; every model must belong to it."),
        ("RW-T00", "The army has no troops; an army is made of one or more troops."),
    ]


def test_two_unique_captains_in_one_troop_are_t02_and_u01_and_only_t02_when_a4_is_off():
    submission = army(troop(("Example Data Card", 2), ("Test Soldier", 4)), MONSTER_TROOP)
    t02 = ("RW-T02", "Troop 1 has 2 Leaders (Example Data Card ×2); a troop is led by exactly one Leader.")
    u01 = ("RW-U01", "“Example Data Card” is Unique (Unq) and appears 2 times; an army may field it only once.")
    assert pairs(checked(submission)) == [t02, u01]
    assert pairs(checked(submission, unique_once_per_army=False)) == [t02]


# --- data errors: RW-E01, RW-E02 ---------------------------------------------------------------------

def test_an_unknown_name_is_reported_once_and_left_out_of_the_troop_checks():
    # Section 3: the unknown model is not a Leader, so troop 2 is judged on its Solo alone (no T03).
    submission = army(troop("Example Data Card", ("Test Soldier", 4), "Mystery Knight"),
                      troop("Test Monster", "Mystery Knight"))
    assert pairs(checked(submission)) == [
        ("RW-E01", "“Mystery Knight” is not in this event's model list, so it cannot be checked; ask the "
                   "organizer to add it or correct the name.")]


def test_a_troop_made_only_of_unknown_models_gets_no_t01_but_one_with_a_soldier_does():
    assert codes(checked(army(troop("Mystery Knight"), MONSTER_TROOP))) == ["RW-E01"]
    assert codes(checked(army(troop("Mystery Knight", ("Test Soldier", 4)), MONSTER_TROOP))) == [
        "RW-E01", "RW-T01"]


@pytest.mark.parametrize("count, shown", [(0, "0"), (-2, "-2"), (1.5, "1.5"), ("3", '"3"'), (True, "true"),
                                          (None, "null")])
def test_a_bad_count_is_e02_with_the_json_value(count, shown):
    submission = army(troop("Example Data Card", ("Test Soldier", 4)), {"models": [
        {"name": "Test Monster", "count": count}]})
    assert pairs(checked(submission)) == [
        ("RW-E02", f"“Test Monster”: the count must be a whole number of at least 1 (got {shown}).")]


def test_names_are_matched_ignoring_case_and_spacing_and_shown_as_the_model_list_spells_them():
    submission = army(troop("  example   DATA card ", ("test soldier", 3)), MONSTER_TROOP)
    assert pairs(checked(submission)) == [
        ("RW-T04", "Troop 1, led by “Example Data Card”, has 3 Soldiers; this Leader's troop capacity allows "
                   "4 to 10.")]


# --- faction: RW-F00, RW-F01 (RT7, A2, A15) ----------------------------------------------------------

def test_a_model_of_another_faction_is_reported_once_per_name():
    submission = army(troop("Example Data Card", ("Test Soldier", 3), "Other Soldier"),
                      troop("Test Sergeant", ("Test Soldier", 2), ("Other Soldier", 2)))
    assert pairs(checked(submission)) == [
        ("RW-F01", "“Other Soldier” (Other Faction) cannot be fielded in a Crusaders army; only an army of its "
                   "own faction can field it.")]


def test_a15_the_declared_faction_is_the_reference_not_the_majority():
    submission = army(CAPTAIN_TROOP, MONSTER_TROOP, faction="Other Faction")
    assert codes(checked(submission)) == ["RW-F01"] * 4


def test_a2_a_model_with_several_factions_serves_each_of_them():
    pool = parse_pool(HEADER + "\nTwo Flags,Crusaders;Other Faction,Good,30,Monster,no,,,,Lrg,,\n")
    options = parse_options({}, has_pool=True)
    for faction in ("Crusaders", "other faction"):
        assert check(army(troop("Two Flags"), faction=faction), pool=pool, options=options) == []
    assert pairs(check(army(troop("Two Flags"), faction="Reven"), pool=pool, options=options)) == [
        ("RW-F01", "“Two Flags” (Crusaders, Other Faction) cannot be fielded in a Reven army; only an army of "
                   "its own faction can field it.")]


def test_a_blank_faction_is_f00():
    assert codes(checked(army(CAPTAIN_TROOP, faction="  "))) == ["RW-F00"]


# --- troops: RW-T01 .. RW-T05 (RT3, RT4, RT6, A5-A7) ------------------------------------------------

def test_t03_a_solo_with_company_names_the_first_solo_and_counts_every_model():
    submission = army(troop("Test Solitaire", ("Test Soldier", 2), "Test Monster"))
    assert pairs(checked(submission)) == [
        ("RW-T03", "Troop 1 has 4 models including the Solo model “Test Solitaire”; a Solo model must be a "
                   "troop on its own.")]


def test_t03_two_copies_of_a_solo_are_not_one_troop():
    assert codes(checked(army(troop(("Test Monster", 2))))) == ["RW-T03"]


def test_t01_soldiers_without_a_leader():
    assert pairs(checked(army(troop(("Test Soldier", 5)), MONSTER_TROOP))) == [
        ("RW-T01", "Troop 1 has no Leader and is not a single Solo model; a troop is either a Leader with "
                   "Soldiers and Elites, or one Solo model on its own.")]


def test_t01_an_empty_troop():
    assert codes(checked(army(CAPTAIN_TROOP, {"models": []}))) == ["RW-T01"]


def test_t02_names_every_leader_in_list_order_and_stops_the_capacity_checks():
    submission = army(troop("Test Sergeant", ("Test Soldier", 20), ("Test Warlord", 1), ("Test Sergeant", 1)))
    # 20 Soldiers would break every capacity here, but with two Leaders no capacity applies.
    assert pairs(checked(submission)) == [
        ("RW-T02", "Troop 1 has 3 Leaders (Test Sergeant ×2, Test Warlord); a troop is led by exactly one "
                   "Leader.")]


def test_t04_and_t05_both_fire_and_a6_only_soldiers_and_elites_count():
    # Sergeant (3-6/0): 7 Soldiers over two names, 1 Elite; the Sergeant itself counts toward neither.
    submission = army(troop("Test Sergeant", ("Test Soldier", 4), ("Test Archer", 3), "Test Elite"))
    assert pairs(checked(submission)) == [
        ("RW-T04", "Troop 1, led by “Test Sergeant”, has 7 Soldiers; this Leader's troop capacity allows 3 to 6."),
        ("RW-T05", "Troop 1, led by “Test Sergeant”, has 1 Elites; this Leader's troop capacity allows at "
                   "most 0."),
    ]


def test_a7_a_leader_whose_capacity_starts_at_0_stands_alone():
    pool = parse_pool(HEADER + "\nLone Hero,Crusaders,Good,60,Captain,no,0,4,1,Std,,\n")
    assert check(army(troop("Lone Hero")), pool=pool, options=DEFAULTS) == []


def test_a_repeated_name_in_a_troop_is_merged():
    submission = army(troop("Example Data Card", ("Test Soldier", 3), ("Test Soldier", 3), "Test Elite"))
    assert checked(submission) == []
    assert summary(submission, pool=POOL) == "Crusaders, 1 troop, 250 points"


def test_a8_a9_any_number_of_troops_and_warlord_rank_leaders():
    sergeant_troop = troop("Test Sergeant", ("Test Soldier", 3))
    assert checked(army(*[sergeant_troop] * 20), points_limit=5000) == []


# --- Unique and points: RW-U01 (A4), RW-P01 (RT1, RT2, A1) -------------------------------------------

def test_u01_counts_a_unique_name_across_troops():
    submission = army(troop("Test Solitaire"), troop("Test Solitaire"))
    assert pairs(checked(submission)) == [
        ("RW-U01", "“Test Solitaire” is Unique (Unq) and appears 2 times; an army may field it only once.")]
    assert checked(submission, unique_once_per_army=False) == []


def test_a_non_unique_model_may_appear_in_several_troops():
    assert checked(army(MONSTER_TROOP, MONSTER_TROOP, troop("Test Sergeant", ("Test Soldier", 3)))) == []


def test_p01_at_most_the_limit_and_no_minimum():
    assert checked(army(MONSTER_TROOP), points_limit=150) == []
    assert pairs(checked(army(MONSTER_TROOP), points_limit=149)) == [
        ("RW-P01", "The army costs 150 points; this event's limit is 149 points (1 over).")]


def test_p01_skips_unknown_models_and_bad_counts_so_it_never_raises_a_false_alarm():
    submission = army(troop("Mystery Knight"), {"models": [{"name": "Test Monster", "count": 0}]})
    assert codes(checked(submission, points_limit=1)) == ["RW-E01", "RW-E02"]


def test_messages_come_in_the_fixed_order_data_faction_troops_unique_points():
    submission = army(troop("Mystery Knight", ("Test Soldier", 2)), troop("Test Solitaire"),
                      troop("Test Solitaire"), troop(("Other Soldier", 90)))
    assert codes(checked(submission, points_limit=100)) == [
        "RW-E01", "RW-F01", "RW-T01", "RW-T01", "RW-U01", "RW-P01"]


# --- self-described models (section 2.2) -------------------------------------------------------------

SELF_DESCRIBED = parse_options({"model_source": "self_described"}, has_pool=False)


def described(**attributes) -> dict:
    entry = {"name": "Hero", "factions": ["Crusaders"], "cost": 100, "rank": "Captain",
             "capacity": {"soldiers_min": 0, "soldiers_max": 4, "elites_max": 1}}
    entry.update(attributes)
    return {key: value for key, value in entry.items() if value is not None}


def check_described(*entries, faction="Crusaders") -> list[Violation]:
    return check(army({"models": list(entries)}, faction=faction), pool=None, options=SELF_DESCRIBED)


def test_self_described_a_well_formed_leader_is_valid():
    assert check_described(described()) == []


def test_self_described_each_bad_attribute_has_its_e02_sentence_in_the_spec_order():
    entry = described(count=0, cost=-5, rank="Knight", capacity=None, factions=[])
    assert pairs(check_described(entry)) == [
        ("RW-E02", "“Hero”: the count must be a whole number of at least 1 (got 0)."),
        ("RW-E02", "“Hero”: the cost must be a whole number of points, 0 or more (got -5)."),
        ("RW-E02", "“Hero”: the rank must be one of Warlord, Captain, Sergeant, Elite, Soldier, Monster, "
                   "Solitaire (got \"Knight\")."),
        ("RW-E02", "“Hero”: the affiliation must name at least one faction (got [])."),
    ]


def test_self_described_missing_values_are_shown_as_nothing():
    entry = {"name": "Hero"}
    assert pairs(check_described(entry)) == [
        ("RW-E02", "“Hero”: the cost must be a whole number of points, 0 or more (got nothing)."),
        ("RW-E02", "“Hero”: the rank must be one of Warlord, Captain, Sergeant, Elite, Soldier, Monster, "
                   "Solitaire (got nothing)."),
        ("RW-E02", "“Hero”: the affiliation must name at least one faction (got nothing)."),
    ]


def test_self_described_a_leader_without_a_valid_capacity_still_leads_but_gets_no_t04():
    missing = described(capacity=None)
    upside_down = described(capacity={"soldiers_min": 5, "soldiers_max": 2, "elites_max": 0})
    assert pairs(check_described(missing, {**described(name="Second"), "capacity": None})) == [
        ("RW-E02", "“Hero”: a Leader needs a troop capacity (minimum and maximum Soldiers, maximum Elites, "
                   "minimum not above maximum) (got nothing)."),
        ("RW-E02", "“Second”: a Leader needs a troop capacity (minimum and maximum Soldiers, maximum Elites, "
                   "minimum not above maximum) (got null)."),
        ("RW-T02", "Troop 1 has 2 Leaders (Hero, Second); a troop is led by exactly one Leader."),
    ]
    assert pairs(check_described(upside_down)) == [
        ("RW-E02", "“Hero”: a Leader needs a troop capacity (minimum and maximum Soldiers, maximum Elites, "
                   "minimum not above maximum) (got {\"soldiers_min\": 5, \"soldiers_max\": 2, "
                   "\"elites_max\": 0}).")]


def test_self_described_a_capacity_on_a_non_leader():
    entry = described(name="Guard", rank="Elite", capacity="(0-4/1)")
    assert pairs(check_described(described(), entry)) == [
        ("RW-E02", "“Guard”: only Leader models have a troop capacity, and this model is a Elite.")]


def test_self_described_accepts_the_printed_forms():
    entry = {"name": "Example Data Card", "affiliation": "Crusaders/Good", "cost": 120,
             "rank_line": "Unq Captain (4-10/1)"}
    soldiers = {"name": "Test Soldier", "factions": "Crusaders", "cost": 15, "rank": "soldier", "count": 4}
    assert check_described(entry, soldiers) == []
    two = check(army({"models": [entry, soldiers]}, {"models": [entry, soldiers]}), pool=None,
                options=SELF_DESCRIBED)
    assert codes(two) == ["RW-U01"]


def test_self_described_an_invalid_rank_leaves_the_model_out_of_the_troop_checks():
    assert codes(check_described(described(rank="Knight", capacity=None))) == ["RW-E02"]


# --- unusable input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("submission, words", [
    ([], "not a JSON object"),
    ({"army_faction": "Crusaders"}, "no “troops” list"),
    ({"troops": {"models": []}}, "no “troops” list"),
    ({"troops": [["Test Monster"]]}, "Troop 1 is not a JSON object"),
    ({"troops": [{"models": ["Test Monster"]}]}, "Troop 1, model entry 1 is not a JSON object"),
    ({"troops": [{}]}, "Troop 1 has no “models” list"),
    ({"troops": [{"models": [{"count": 2}]}]}, "Troop 1, model entry 1 has no name"),
    ({"game": "warlord-ccg-4e", "troops": []}, "not Reaper's Warlord"),
])
def test_an_unreadable_list_is_unusable_input_saying_where(submission, words):
    with pytest.raises(UnusableInput, match=re.escape(words)):
        checked(submission)


def test_the_game_id_may_be_given():
    assert checked({"game": "reaper-warlord", **army(MONSTER_TROOP)}) == []


def test_pool_mode_without_a_pool_is_unusable():
    with pytest.raises(UnusableInput):
        check(army(MONSTER_TROOP), pool=None, options=DEFAULTS)


# --- options (section 2.4) ----------------------------------------------------------------------------

def test_options_defaults():
    assert parse_options({}, has_pool=True) == Options(points_limit=1000, model_source="pool",
                                                       unique_once_per_army=True)
    assert parse_options({}, has_pool=False).model_source == "self_described"


@pytest.mark.parametrize("raw", [{"points_limit": 0}, {"points_limit": "lots"}, {"points_limit": 99.5},
                                 {"model_source": "cards"}, {"unique_once_per_army": "maybe"},
                                 {"max_troops": 13}])
def test_bad_options_are_unusable(raw):
    with pytest.raises(UnusableInput):
        parse_options(raw, has_pool=True)


def test_model_source_pool_needs_a_model_list():
    with pytest.raises(UnusableInput, match="no model list"):
        parse_options({"model_source": "pool"}, has_pool=False)


# --- summary, costs, the checker object ---------------------------------------------------------------

def test_summary_without_the_model_list_leaves_the_points_out():
    assert summary(EXAMPLES[0]["list"]) == "Crusaders, 3 troops"
    assert summary({"troops": [1]}) == "Not a readable Reaper's Warlord list"


def test_model_costs_gives_one_model_s_cost_by_normalised_name():
    assert model_costs(EXAMPLES[3]["list"], pool=POOL) == {
        "example data card": 120, "test soldier": 15, "test elite": 40, "test sergeant": 50,
        "other soldier": 12, "test monster": 150}


def test_the_checker_object_speaks_the_list_checker_protocol():
    assert CHECKER.pool_label == "model list"
    assert CHECKER.pool_header == HEADER
    example = copy.deepcopy(EXAMPLES[2])
    options = CHECKER.parse_options(example["event"], has_pool=True)
    assert codes(CHECKER.check(example["list"], pool=CHECKER.parse_pool(POOL_TEXT), options=options)) == [
        "RW-P01"]
    assert CHECKER.summary(example["list"]) == "Crusaders, 3 troops"


def test_the_package_does_not_import_django():
    code = ("import sys, game_systems.reaper_warlord as rw; "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'")
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def test_self_described_null_is_shown_as_null_and_a_null_capacity_on_a_soldier_is_no_capacity():
    soldier = {"name": "Guard", "factions": ["Crusaders"], "cost": 10, "rank": "Soldier", "capacity": None}
    assert check_described(described(), soldier) == []
    assert pairs(check_described(described(rank=None, capacity=None) | {"rank": None})) == [
        ("RW-E02", "“Hero”: the rank must be one of Warlord, Captain, Sergeant, Elite, Soldier, Monster, "
                   "Solitaire (got null).")]


def test_self_described_capacity_may_be_given_as_three_flat_numbers():
    flat = described(capacity=None, soldiers_min=2, soldiers_max=3, elites_max=0)
    assert pairs(check_described(flat)) == [
        ("RW-T04", "Troop 1, led by “Hero”, has 0 Soldiers; this Leader's troop capacity allows 2 to 3.")]
