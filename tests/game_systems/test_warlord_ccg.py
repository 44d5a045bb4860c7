"""Warlord CCG (4th edition) deck checks: spec shared/spec/warlord-ccg-decks.md, sections 3–5."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game_systems.base import UnusableInput
from game_systems.warlord_ccg import CHECKER, Options
from tests.game_systems.examples.warlord_ccg import (
    EXAMPLES,
    POOL,
    POOL_CSV,
    as_multiset,
    base_deck,
    codes,
    drop,
    example,
    run,
    self_described,
    set_entry,
)

SPEC = Path("/work/shared/spec/warlord-ccg-decks.md")
GROUP_ORDER = ["E", "S04", "D", "S"]


# --- section 5: every worked example --------------------------------------------------------------

def test_every_worked_example_of_section_5_is_covered():
    assert [item["id"] for item in EXAMPLES] == ["C01", "C02", "C03", "C04", "C05", "C06"]


@pytest.mark.skipif(not SPEC.exists(), reason="the spec is not on this machine")
def test_the_stored_examples_are_the_spec_s_own():
    text = SPEC.read_text(encoding="utf-8")

    def block(name):
        return re.search(r"<!-- block: " + name + r" -->\s*```[a-z]*(.*?)```", text, re.S).group(1).strip()

    assert block("ccg-pool") == POOL_CSV.strip()
    assert json.loads(block("ccg-examples")) == EXAMPLES


@pytest.mark.parametrize("item", EXAMPLES, ids=[item["id"] for item in EXAMPLES])
def test_worked_example_gives_exactly_its_expected_violations(item):
    options = CHECKER.parse_options(item["event"], has_pool=True)
    got = [(v.code, v.message) for v in CHECKER.check(item["list"], pool=POOL, options=options)]
    assert as_multiset(got) == as_multiset((e["code"], e["message"]) for e in item["expected"])


# --- section 5: the extra unit cases ----------------------------------------------------------------

def test_required_starting_army_not_marked_gives_s06_and_no_d06():
    unmarked = [{k: v for k, v in entry.items() if k != "starting"} for entry in base_deck()]
    no_warlord = drop(unmarked, "Test Warlord A")
    for cards in (unmarked, no_warlord):
        got = run(self_described(cards), pool=None, require_declared_starting_army=True)
        assert ("WCCG-S06", "This event asks you to mark your starting army (one Warlord, three 1st-level "
                "and two 2nd-level characters), and none is marked.") in got
        assert "WCCG-D06" not in [code for code, _ in got]


def test_starting_above_count_is_reported_then_capped_for_the_s_checks():
    cards = set_entry(base_deck(), "Dwarf Spearman", starting=4)
    assert run(cards) == [
        ("WCCG-S04", "“Dwarf Spearman” is marked 4 times for the starting army, but the deck has only 3."),
        # S01 sees 3 marked Spearmen, not 4 (3.1: capped at count).
        ("WCCG-S01", "The marked starting army has 1 character(s) with the Warlord trait, 4 1st-level and "
         "2 2nd-level characters; it must have exactly 1, 3 and 2."),
    ]


def test_pdf_lord_traits_report_only_the_warlord_violation():
    cards = base_deck() + [{"name": "Test Warlord B"}, {"name": "Test Daemonlord A"}, {"name": "Test Daemonlord B"}]
    warlords = ("WCCG-D05", "The deck has 2 characters with the Warlord trait (Test Warlord A, Test Warlord B); "
                "at most one is allowed.")
    assert run(cards, lord_traits=["Warlord", "Overlord", "Dragon Lord"]) == [warlords]
    assert run(cards) == [
        warlords,
        ("WCCG-D05", "The deck has 2 characters with the Daemonlord trait (Test Daemonlord A, Test Daemonlord B); "
         "at most one is allowed."),
    ]


# --- D: deck checks ----------------------------------------------------------------------------------

def test_base_deck_is_legal_in_both_card_sources():
    assert run(base_deck()) == []
    assert run(self_described(base_deck()), pool=None) == []


def test_d02_limit_is_the_pool_s_max_copies_when_set():
    """WT17, W15: Test Horde Order's own text allows 4."""
    assert run(base_deck() + [{"name": "Test Horde Order", "count": 4}]) == []
    assert run(base_deck() + [{"name": "Test Horde Order", "count": 5}]) == [
        ("WCCG-D02", "The deck has 5 copies of “Test Horde Order”; no more than 4 copies of any one card are allowed.")]


def test_players_cannot_raise_the_copy_limit_in_self_described_lists():
    cards = self_described(set_entry(base_deck(), "Item A", count=4, max_copies=4))
    assert codes(cards, pool=None) == ["WCCG-D02"]


def test_an_epic_card_twice_is_d04_not_d02():
    assert run(base_deck() + [{"name": "Test Relic", "count": 4}]) == [
        ("WCCG-D04", "“Test Relic” has the Epic trait and is in the deck 4 times; "
         "an Epic card may be included only once.")]
    assert run(base_deck() + [{"name": "Test Relic"}]) == []


def test_d03_allows_exactly_half_and_fails_one_more():
    """WT3, W5: 25 of 50 is fine; 26 of 51 is more than half. Actions are checked like characters."""
    cards = [entry for entry in self_described(base_deck()) if entry["name"] not in ("Item C", "Item D", "Item E")]
    cards += [{"name": f"Action {letter}", "type": "action", "count": 3} for letter in "FGH"]
    cards = set_entry(cards, "Item B", count=2)
    cards.append({"name": "Action I", "type": "action"})
    assert run(cards, pool=None) == []  # 20 characters, 5 items, 25 actions
    cards.append({"name": "Action J", "type": "action"})
    assert run(cards, pool=None) == [
        ("WCCG-D03", "26 of the deck's 51 cards are action cards; one card type may make up at most half "
         "the deck (25 of 51).")]


def test_d03_counts_starting_characters_and_unknown_cards_in_the_total():
    """WT4: the 6 starting characters are among the 20; E01 cards count toward the total only."""
    cards = [entry for entry in base_deck() if not entry["name"].startswith("Action")]
    assert run(cards) == [
        ("WCCG-D01", "The deck has 35 cards; a deck must have at least 50 cards, starting characters included."),
        ("WCCG-D03", "20 of the deck's 35 cards are character cards; one card type may make up at most half "
         "the deck (17 of 35)."),
    ]
    cards += [{"name": "Unknown Scroll", "count": 3}, {"name": "Unknown Wand", "count": 2}]
    assert codes(cards) == ["WCCG-E01", "WCCG-E01", "WCCG-D01"]  # 20 of 40 is half, not more


def test_d05_counts_copies_and_lists_them_as_name_times_k():
    """W6: two copies of one Warlord card break the limit."""
    cards = set_entry(base_deck(), "Test Warlord A", count=2)
    assert run(cards) == [
        ("WCCG-D05", "The deck has 2 characters with the Warlord trait (Test Warlord A ×2); at most one is allowed.")]


def test_d05_one_of_each_lord_is_allowed():
    """WT6: "though you may have one of each" (C02 as well)."""
    cards = base_deck() + [{"name": n} for n in ("Test Overlord", "Test Dragon Lord", "Test Daemonlord A")]
    assert run(cards) == []


def test_d05_lord_trait_words_ignore_spaces_hyphens_and_case():
    """2.4: "Dragon Lord" = "Dragonlord"."""
    cards = self_described(base_deck() + [{"name": "Test Dragon Lord"}])
    cards.append({"name": "Other Lord", "type": "character", "level": 6, "factions": ["Elves"],
                  "traits": ["dragon-LORD"]})
    assert run(cards, pool=None) == [
        ("WCCG-D05", "The deck has 2 characters with the Dragon Lord trait (Test Dragon Lord, Other Lord); "
         "at most one is allowed.")]


def test_d05_counts_only_character_cards():
    """W6: an item carrying a lord trait is no character."""
    cards = self_described(base_deck()) + [{"name": "Warlord's Banner", "type": "item", "traits": ["Warlord"]}]
    assert run(cards, pool=None) == []


def unmarked(cards):
    return [{k: v for k, v in entry.items() if k != "starting"} for entry in cards]


def test_d06_runs_when_nothing_is_marked_and_is_satisfied_by_the_base_deck():
    assert run(unmarked(base_deck())) == []


def test_d06_no_warlord():
    cards = unmarked(base_deck()) + [{"name": "Test Overlord"}]
    cards = drop(cards, "Test Warlord A")
    assert run(cards) == [
        ("WCCG-D06", "The deck has no character with the Warlord trait, so it cannot form a legal starting army.")]


def test_d06_counts_a_unique_name_once():
    """W10: Dwarf Sergeant ×2 is Unique, so without Dwarf Guard only one 2nd-level character is available."""
    cards = drop(unmarked(base_deck()), "Dwarf Guard") + [{"name": "Test Horde Order", "count": 3}]
    assert run(cards) == [
        ("WCCG-D06", "No legal starting army can be formed around “Test Warlord A” (Dwarves): it needs three "
         "1st-level and two 2nd-level characters that share its faction, each Unique name counted once, "
         "and the deck has 4 and 1.")]


def test_d06_mercenaries_do_not_serve_a_dwarves_warlord_but_dwarves_mercenaries_do():
    """W9: the loyalty exemption does not waive WT9; W8: one shared faction is enough."""
    swapped = drop(unmarked(base_deck()), "Dwarf Spearman") + [{"name": "Sellsword", "count": 3}]
    assert codes(swapped) == ["WCCG-D06"]
    assert "the deck has 1 and 4." in run(swapped)[0][1]
    hired = drop(unmarked(base_deck()), "Dwarf Guard") + [{"name": "Hired Axe", "count": 3}]
    assert run(hired) == []


def test_d06_reports_each_candidate_only_when_none_can_lead():
    elf_lord = [{"name": "Test Warlord B"}]
    satisfied = unmarked(base_deck()) + elf_lord
    assert codes(satisfied) == ["WCCG-D05"]  # Warlord A can lead, so no D06
    short = drop(satisfied, "Dwarf Guard") + [{"name": "Test Horde Order", "count": 3}]
    assert run(short)[1:] == [
        ("WCCG-D06", "No legal starting army can be formed around “Test Warlord A” (Dwarves): it needs three "
         "1st-level and two 2nd-level characters that share its faction, each Unique name counted once, "
         "and the deck has 4 and 1."),
        ("WCCG-D06", "No legal starting army can be formed around “Test Warlord B” (Elves): it needs three "
         "1st-level and two 2nd-level characters that share its faction, each Unique name counted once, "
         "and the deck has 3 and 0."),
    ]


def test_d06_a_factionless_warlord_cannot_lead():
    """W8: a factionless Warlord shares no faction with anyone."""
    cards = self_described(unmarked(base_deck()))
    cards[0] = {**cards[0], "factions": []}
    assert run(cards, pool=None)[0][1].startswith("No legal starting army can be formed around “Test Warlord A” "
                                                  "(no faction)")


# --- S: the marked starting army ------------------------------------------------------------------

def test_s05_names_what_the_marked_card_is():
    cards = set_entry(base_deck(), "Dwarf Veteran", starting=1)
    cards = set_entry(cards, "Item A", starting=1)
    cards = set_entry(cards, "Action A", starting=2)
    tail = "; apart from the Warlord, starting characters must be 1st- or 2nd-level characters."
    assert run(cards) == [
        ("WCCG-S05", "“Dwarf Veteran” is marked for the starting army but is a level-3 character" + tail),
        ("WCCG-S05", "“Item A” is marked for the starting army but is an item" + tail),
        ("WCCG-S05", "“Action A” is marked for the starting army but is an action card" + tail),
    ]


def test_s01_counts_marked_copies():
    cards = set_entry(base_deck(), "Test Warlord A", starting=0)
    assert run(cards) == [
        ("WCCG-S01", "The marked starting army has 0 character(s) with the Warlord trait, 3 1st-level and "
         "2 2nd-level characters; it must have exactly 1, 3 and 2.")]


def test_s02_a_mercenary_must_still_share_the_warlord_s_faction():
    """W9."""
    cards = set_entry(base_deck(), "Dwarf Spearman", starting=1) + [{"name": "Sellsword", "starting": 1}]
    assert run(cards) == [
        ("WCCG-S02", "Starting character “Sellsword” (Mercenaries) does not share a faction with the Warlord "
         "“Test Warlord A” (Dwarves).")]


def test_s02_shows_several_factions_comma_joined_and_no_faction():
    cards = self_described(set_entry(base_deck(), "Dwarf Spearman", starting=0))
    cards.append({"name": "Wanderer", "type": "character", "level": 1, "starting": 1, "factions": []})
    cards.append({"name": "Twin", "type": "character", "level": 1, "starting": 1,
                  "factions": ["Elves", "Nothrog"]})
    assert codes(cards, pool=None) == ["WCCG-S02", "WCCG-S02"]
    messages = [message for _, message in run(cards, pool=None)]
    assert messages[0].startswith("Starting character “Wanderer” (no faction) does not share")
    assert messages[1].startswith("Starting character “Twin” (Elves, Nothrog) does not share")


def test_s02_needs_exactly_one_marked_warlord():
    cards = set_entry(base_deck() + [{"name": "Test Warlord B", "starting": 1}], "Elf Archer", starting=1)
    assert codes(cards) == ["WCCG-D05", "WCCG-S01"]


def test_s03_a_unique_character_marked_twice():
    cards = set_entry(base_deck(), "Dwarf Hero", starting=2)
    cards = set_entry(cards, "Dwarf Spearman", starting=1)
    assert run(cards) == [
        ("WCCG-S03", "The starting army includes 2 copies of the Unique character “Dwarf Hero”; "
         "at most one is allowed.")]


def test_s03_covers_the_warlord_too():
    """W10: all six slots."""
    cards = set_entry(base_deck(), "Test Warlord A", count=2, starting=2)
    assert codes(cards) == ["WCCG-D05", "WCCG-S01", "WCCG-S03"]


def test_s_checks_skip_unknown_cards_but_an_unknown_card_still_marks_the_army():
    cards = base_deck() + [{"name": "Mystery Knight", "starting": 1}]
    assert codes(cards) == ["WCCG-E01"]  # no D06, no S05 for it
    only_unknown = unmarked(base_deck()) + [{"name": "Mystery Knight", "starting": 1}]
    assert codes(only_unknown) == ["WCCG-E01", "WCCG-S01"]


def test_s04_a_bad_starting_value_counts_as_zero():
    cards = set_entry(base_deck(), "Dwarf Guard", starting="one")
    assert run(cards) == [
        ("WCCG-S04", "“Dwarf Guard”: the starting count must be a whole number from 0 to 3 (got \"one\")."),
        ("WCCG-S01", "The marked starting army has 1 character(s) with the Warlord trait, 3 1st-level and "
         "1 2nd-level characters; it must have exactly 1, 3 and 2."),
    ]
    assert codes(set_entry(base_deck(), "Dwarf Guard", starting=-1)) == ["WCCG-S04", "WCCG-S01"]
    assert codes(set_entry(base_deck(), "Dwarf Guard", starting=1.5)) == ["WCCG-S04", "WCCG-S01"]


# --- E: data checks -------------------------------------------------------------------------------

def test_e03_a_repeated_name_is_reported_and_merged():
    cards = set_entry(base_deck(), "Dwarf Spearman", count=2, starting=1)
    cards.append({"name": "dwarf  SPEARMAN", "count": 1, "starting": 1})
    assert run(cards) == [
        ("WCCG-E03", "“Dwarf Spearman” is listed more than once; list each card once with its total count.")]
    cards.append({"name": "Dwarf Spearman"})  # 4 copies once merged
    assert codes(cards) == ["WCCG-E03", "WCCG-D02"]


def test_e03_keeps_the_first_entry_s_attributes():
    cards = self_described(base_deck())
    cards.append({"name": "Item A", "count": 0, "type": "character", "level": "x", "factions": ["Orcs"]})
    assert run(cards, pool=None) == [
        ("WCCG-E02", "“Item A”: the count must be a whole number of at least 1 (got 0)."),
        ("WCCG-E03", "“Item A” is listed more than once; list each card once with its total count."),
    ]


@pytest.mark.parametrize(("count", "shown"), [(0, "0"), (-2, "-2"), ("3", '"3"'), (2.5, "2.5"), (None, "null"),
                                              (True, "true")])
def test_e02_a_bad_count_leaves_the_card_out_of_the_counts(count, shown):
    cards = set_entry(base_deck(), "Item A", count=count)
    assert run(cards) == [
        ("WCCG-E02", f"“Item A”: the count must be a whole number of at least 1 (got {shown})."),
        ("WCCG-D01", "The deck has 47 cards; a deck must have at least 50 cards, starting characters included."),
    ]


def test_a_whole_number_written_as_a_decimal_is_accepted():
    assert run(set_entry(base_deck(), "Item A", count=3.0)) == []


def test_e02_self_described_attributes():
    cards = self_described(base_deck())
    cards.append({"name": "Nameless Thing"})
    cards.append({"name": "Odd Thing", "type": "weapon"})
    cards.append({"name": "Lost Hero", "type": "character", "factions": ["Elves"]})
    cards.append({"name": "Bad Hero", "type": "character", "level": -1, "factions": ["Orcs", "Elves"]})
    assert run(cards, pool=None) == [
        ("WCCG-E02", "“Nameless Thing”: the card type must be character, action or item (got nothing)."),
        ("WCCG-E02", "“Odd Thing”: the card type must be character, action or item (got \"weapon\")."),
        ("WCCG-E02", "“Lost Hero”: a character needs a level, a whole number 0 or more (got nothing)."),
        ("WCCG-E02", "“Bad Hero”: a character needs a level, a whole number 0 or more (got -1)."),
        ("WCCG-E02", "“Bad Hero”: “Orcs” is not one of the seven factions (Deverenians, Dwarves, Elves, "
         "Free Kingdoms, Nothrog, Chosen, Mercenaries)."),
    ]


def test_e02_of_one_card_come_together_count_first():
    cards = self_described(base_deck()) + [{"name": "Odd Thing", "count": 0, "type": "weapon"}]
    assert [message for _, message in run(cards, pool=None)] == [
        "“Odd Thing”: the count must be a whole number of at least 1 (got 0).",
        "“Odd Thing”: the card type must be character, action or item (got \"weapon\").",
    ]


def test_faction_aliases_built_in_and_organizer_added():
    """2.3: Mercenary -> Mercenaries, Dwarf -> Dwarves; the organizer may add more."""
    cards = self_described(base_deck())
    cards[1] = {**cards[1], "factions": ["dwarf"]}
    cards.append({"name": "Merc", "type": "character", "level": 3, "factions": ["Mercenary", "free-kingdoms"]})
    assert run(cards, pool=None) == []
    cards[2] = {**cards[2], "factions": ["Stonefolk"]}
    assert codes(cards, pool=None) == ["WCCG-E02"]
    assert run(cards, pool=None, faction_aliases={"Stonefolk": "Dwarves"}) == []


def test_a_card_with_a_bad_faction_is_left_out_of_the_faction_checks():
    cards = self_described(set_entry(base_deck(), "Dwarf Spearman", starting=1))
    cards.append({"name": "Odd One", "type": "character", "level": 1, "starting": 1, "factions": ["Orcs"]})
    assert codes(cards, pool=None) == ["WCCG-E02"]  # no S02 for it


def test_pool_mode_ignores_attributes_in_the_entries():
    cards = set_entry(base_deck(), "Item A", type="banana", level="x", factions=["Orcs"], max_copies=9)
    assert run(cards) == []


def test_names_are_normalised_against_the_pool():
    """2.4: NFKC, trimmed, whitespace collapsed, any case; messages show the name as first written."""
    cards = set_entry(base_deck(), "Item A", name="  ＩＴＥＭ   a ", count=4)
    assert run(cards) == [
        ("WCCG-D02", "The deck has 4 copies of “ＩＴＥＭ a”; no more than 3 copies of any one card are allowed.")]


def test_curly_and_straight_apostrophes_are_one_name():
    pool = CHECKER.parse_pool(POOL_CSV + "Kyla\u2019s Blade,item,2,,,,,\n")
    assert run(base_deck() + [{"name": "kyla's blade"}], pool=pool) == []


def test_messages_come_in_the_fixed_group_order():
    cards = set_entry(base_deck(), "Dwarf Guard", starting=7)
    cards += [{"name": "Nobody", "count": 5}, {"name": "Item B", "count": "x"}, {"name": "Item C"},
              {"name": "Dwarf Veteran", "starting": 1}, {"name": "Test Warlord A"}]
    got = codes(cards)
    assert got == ["WCCG-E01", "WCCG-E02", "WCCG-E03", "WCCG-E03", "WCCG-E03", "WCCG-E03", "WCCG-S04",
                   "WCCG-D02", "WCCG-D02", "WCCG-D02", "WCCG-D05", "WCCG-S05", "WCCG-S01"]
    # Within one code, cards keep the order in which the list first names them.
    assert [message.split("“")[1].split("”")[0] for code, message in run(cards)
            if code in ("WCCG-E03", "WCCG-D02")] == [
        "Test Warlord A", "Dwarf Veteran", "Item B", "Item C", "Dwarf Veteran", "Item C", "Nobody"]


# --- input that cannot be checked -------------------------------------------------------------------

@pytest.mark.parametrize(("submission", "sentence"), [
    ([], "The list must be a JSON object with a “cards” list."),
    ({}, "The list has no “cards” list."),
    ({"cards": {"name": "Item A"}}, "The list has no “cards” list."),
    ({"cards": ["Item A"]}, "Card entry 1 is not a JSON object."),
    ({"cards": [{"name": "Item A"}, {"count": 2}]}, "Card entry 2 has no name."),
    ({"cards": [{"name": "  "}]}, "Card entry 1 has no name."),
    ({"cards": [{"name": 7}]}, "Card entry 1 has no name."),
    ({"game": "warline", "cards": []}, "The list is for the game \"warline\", not “warlord-ccg-4e”."),
])
def test_unusable_input(submission, sentence):
    with pytest.raises(UnusableInput) as raised:
        CHECKER.check(submission, pool=POOL, options=CHECKER.parse_options({}, has_pool=True))
    assert str(raised.value) == sentence


def test_the_right_game_is_accepted():
    assert CHECKER.check({"game": "warlord-ccg-4e", "cards": base_deck()}, pool=POOL, options=None) == []


def test_malformed_traits_cannot_be_checked():
    cards = self_described(base_deck()) + [{"name": "Odd", "type": "item", "traits": {"Epic": True}}]
    with pytest.raises(UnusableInput, match="traits of “Odd”"):
        run(cards, pool=None)


# --- options and summary ------------------------------------------------------------------------------

def test_option_defaults():
    assert CHECKER.parse_options({}, has_pool=True) == Options(card_source="pool")
    options = CHECKER.parse_options({}, has_pool=False)
    assert options.card_source == "self_described"
    assert options.require_declared_starting_army is False
    assert options.lord_traits == ("Warlord", "Overlord", "Dragon Lord", "Daemonlord")


def test_lord_traits_are_spelt_as_the_spec_does():
    options = CHECKER.parse_options({"lord_traits": ["warlord", "dragonlord"]}, has_pool=False)
    assert options.lord_traits == ("Warlord", "Dragon Lord")


@pytest.mark.parametrize("raw", [
    {"points_limit": 1000},
    {"card_source": "database"},
    {"card_source": "pool"},  # has_pool is False
    {"require_declared_starting_army": "yes"},
    {"lord_traits": "Warlord"},
    {"lord_traits": ["Warlord", "Archlord"]},
    {"faction_aliases": {"Stonefolk": "Orcs"}},
    {"faction_aliases": ["Stonefolk"]},
])
def test_bad_options_are_unusable(raw):
    with pytest.raises(UnusableInput):
        CHECKER.parse_options(raw, has_pool=False)


def test_summary():
    assert CHECKER.summary(example("C03")["list"]) == "57 cards; starting army marked (6 cards)"
    assert CHECKER.summary({"cards": unmarked(base_deck())}) == "50 cards; no starting army marked"
    assert CHECKER.summary("nonsense") == "unreadable list"


def test_checker_interface():
    assert CHECKER.pool_label == "card pool"
    assert CHECKER.pool_header == "name,type,level,factions,traits,alignment,class,max_copies"
