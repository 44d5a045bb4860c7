"""The organizer's card pool CSV (spec 2.3): what is read, and every bad row named."""
from __future__ import annotations

import pytest

from game_systems.base import PoolRejected
from game_systems.warlord_ccg import CHECKER
from tests.game_systems.examples.warlord_ccg import POOL, POOL_CSV

HEADER = "name,type,level,factions,traits,alignment,class,max_copies\n"


def rejected(csv_text: str, **kwargs) -> list[tuple[int, str, str]]:
    with pytest.raises(PoolRejected) as raised:
        CHECKER.parse_pool(csv_text, **kwargs)
    return [(error.row, error.column, error.message) for error in raised.value.errors]


def test_the_spec_s_test_pool_is_read_with_its_attributes():
    assert len(POOL) == 27
    hired = POOL.find("hired axe")
    assert (hired.type, hired.level, hired.factions) == ("character", 2, ("Dwarves", "Mercenaries"))
    assert POOL.find("Test Horde Order").max_copies == 4
    assert POOL.find("Test Relic").traits == ("Epic",)
    assert POOL.find("Item A").level == 1
    assert POOL.find("Test Dragon Lord").traits == ("Dragon Lord", "Unique")


def test_built_in_faction_aliases_and_word_normalisation():
    """2.3: Mercenary -> Mercenaries, Dwarf -> Dwarves; 2.4: case, spaces and hyphens ignored."""
    pool = CHECKER.parse_pool(HEADER + "A,character,1,Mercenary; dwarf ;free-kingdoms;DWARVES,,,,\n")
    assert pool.find("A").factions == ("Mercenaries", "Dwarves", "Free Kingdoms")


def test_organizer_faction_aliases():
    csv_text = HEADER + "A,character,1,Stonefolk,,,,\n"
    assert rejected(csv_text)[0][1] == "factions"
    options = CHECKER.parse_options({"faction_aliases": {"Stonefolk": "Dwarves"}}, has_pool=True)
    pool = CHECKER.parse_pool(csv_text, options=options)
    assert pool.find("A").factions == ("Dwarves",)


def test_every_bad_row_is_named_at_once():
    csv_text = HEADER + "\n".join([
        "Good Card,item,,,,,,",
        "good  CARD,action,1,,,,,",          # row 3: same name after normalisation
        "Bad Type,weapon,1,,,,,",            # row 4
        "No Level,character,,Elves,,,,",     # row 5
        "Odd Level,character,two,Elves,,,,",  # row 6
        "Lost,character,1,Orcs;Elves,,,,",   # row 7
        "Zero,item,1,,,,,0",                 # row 8
        ",item,1,,,,,",                      # row 9
        "Too Many,item,1,,,,,,extra",        # row 10
    ]) + "\n"
    assert rejected(csv_text) == [
        (3, "name", "“good  CARD” is already in row 2 (names are compared ignoring case, spacing and apostrophe "
         "style); keep one row per card name."),
        (4, "type", "The type must be character, action or item (got “weapon”)."),
        (5, "level", "A character needs a level, a whole number 0 or more; the cell is empty."),
        (6, "level", "The level must be a whole number 0 or more (got “two”)."),
        (7, "factions", "“Orcs” is not one of the seven factions (Deverenians, Dwarves, Elves, Free Kingdoms, "
         "Nothrog, Chosen, Mercenaries); separate several factions with semicolons."),
        (8, "max_copies", "max_copies must be a whole number of at least 1, or empty (got “0”)."),
        (9, "name", "The card name is empty; every row needs a name."),
        (10, "max_copies", "This row has 9 values but the header has 8 columns; a value containing a comma "
         "must be put in double quotes."),
    ]


def test_curly_and_straight_apostrophes_are_the_same_name():
    errors = rejected(HEADER + "Kyla's Blade,item,,,,,,\nKyla\u2019s blade,item,,,,,,\n")
    assert [(row, column) for row, column, _ in errors] == [(3, "name")]


def test_missing_and_unknown_header_columns_are_row_1():
    errors = rejected("name,kind,factions,max copies\nA,item,,\n")
    assert [(row, column) for row, column, _ in errors] == [(1, "type"), (1, "level"), (1, "kind"), (1, "max copies")]
    assert errors[0][2] == ("The header has no “type” column; the header line must be "
                            "name,type,level,factions,traits,alignment,class,max_copies.")


def test_optional_columns_may_be_left_out_and_header_case_is_free():
    pool = CHECKER.parse_pool("\ufeffName, Type ,Level\nA,Character,3\nB,item,\n")
    assert (pool.find("a").type, pool.find("a").level, pool.find("a").factions) == ("character", 3, ())
    assert pool.find("b").max_copies is None


def test_row_numbers_follow_the_file_s_lines_across_blank_lines():
    assert rejected(HEADER + "A,item,,,,,,\n\n,,,,,,,\nB,gadget,,,,,,\n")[0][0] == 5


def test_empty_file_and_header_only_are_refused():
    assert rejected("")[0][0] == 1
    assert rejected(HEADER)[0][2] == "The file has a header but no cards; add one row per card."


def test_the_spec_s_pool_text_is_stored_unchanged():
    assert POOL_CSV.startswith(HEADER)
