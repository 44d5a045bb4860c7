"""The organizer's model list for Reaper's Warlord (spec section 2.3): reading it, and every bad row reported."""
from __future__ import annotations

from pathlib import Path

import pytest

from game_systems.base import PoolRejected
from game_systems.reaper_warlord.pool import HEADER, Model, parse_pool
from game_systems.reaper_warlord.vocabulary import Capacity

EXAMPLE_POOL = (Path(__file__).parent / "examples" / "reaper_warlord" / "pool.csv").read_text(encoding="utf-8")


def rejected(csv_text: str) -> list[tuple[int, str]]:
    """(row, column) of every error of a rejected model list."""
    with pytest.raises(PoolRejected) as caught:
        parse_pool(csv_text)
    return [(error.row, error.column) for error in caught.value.errors]


def rows(*lines: str) -> str:
    return "\n".join((HEADER, *lines)) + "\n"


def test_the_example_pool_reads_the_text_s_own_data_card():
    pool = parse_pool(EXAMPLE_POOL)
    assert len(pool) == 9
    # RQ:11-14: Crusaders/Good, Cost 120, Unq Captain (4-10/1), Base Std, Race Human, SKU 14000.
    assert pool.get("example data card") == Model(
        name="Example Data Card", factions=("Crusaders",), cost=120, rank="Captain", unique=True,
        capacity=Capacity(4, 10, 1), alignment="Good", base="Std", race="Human", sku="14000")
    assert pool.get("Test Monster").category == "Solo"
    assert pool.get("Test Soldier").capacity is None
    assert pool.get("Test Solitaire").unique is True
    assert pool.get("Nobody") is None


def test_the_printed_forms_affiliation_and_rank_line():
    pool = parse_pool("name,affiliation,cost,rank_line\n"
                      "Example Data Card,Crusaders/Good,120,Unq Captain (4-10/1)\n"
                      "Mixed,Crusaders;Other Faction/Good,20,elite\n"
                      "Beast,Wild,30,Monster\n")
    card = pool.get("Example Data Card")
    assert (card.factions, card.alignment, card.rank, card.unique, card.capacity) == (
        ("Crusaders",), "Good", "Captain", True, Capacity(4, 10, 1))
    assert pool.get("Mixed").factions == ("Crusaders", "Other Faction")
    assert pool.get("Mixed").rank == "Elite"
    assert (pool.get("Beast").factions, pool.get("Beast").alignment) == (("Wild",), "")


@pytest.mark.parametrize("rank_line", ["Captain", "Soldier (4-10/1)", "Knight (1-2/0)", "Captain (5-2/1)"])
def test_a_bad_rank_line_is_a_row_error(rank_line):
    assert rejected(f"name,affiliation,cost,rank_line\nX,Crusaders/Good,10,{rank_line}\n") == [(2, "rank_line")]


def test_unique_words_and_rank_words_ignore_case():
    pool = parse_pool(rows("A,Crusaders,Good,10,SOLDIER,Yes,,,,,,",
                           "B,Crusaders,Good,10,soldier,UNQ,,,,,,",
                           "C,Crusaders,Good,10,Soldier,0,,,,,,",
                           "D,Crusaders,Good,10,Soldier,,,,,,,"))
    assert [model.unique for model in pool] == [True, True, False, False]
    assert {model.rank for model in pool} == {"Soldier"}


def test_a14_the_category_words_leader_and_solo_are_accepted():
    pool = parse_pool(rows("Boss,Crusaders,,10,Leader,no,1,2,0,,,", "Lone,Crusaders,,10,Solo,no,,,,,,"))
    assert (pool.get("Boss").category, pool.get("Lone").category) == ("Leader", "Solo")


def test_a_missing_header_column_is_a_row_1_error():
    assert rejected("name,factions,alignment,rank,unique,soldiers_min,soldiers_max,elites_max\nX,C,G,Soldier,no,,,\n"
                    ) == [(1, "cost")]
    assert rejected("name,cost\nX,10\n") == [(1, "factions"), (1, "rank"), (1, "unique"), (1, "soldiers_min"),
                                              (1, "soldiers_max"), (1, "elites_max")]


def test_an_empty_file_or_a_header_alone_is_rejected():
    assert rejected("") == [(1, "name")]
    assert rejected(HEADER + "\n") == [(1, "name")]


def test_every_bad_row_is_listed_at_once():
    errors = rejected(rows(
        "Good Soldier,Crusaders,Good,15,Soldier,no,,,,,,",
        "good  soldier,Crusaders,Good,15,Soldier,no,,,,,,",      # row 3: the same name after normalisation
        "Knight,Crusaders,Good,15,Knight,no,,,,,,",              # row 4: not a rank
        "Cheap,Crusaders,Good,-1,Soldier,no,,,,,,",              # row 5: negative cost
        "Pricey,Crusaders,Good,12.5,Soldier,no,,,,,,",           # row 6: not whole
        "Boss,Crusaders,Good,50,Captain,no,,,,,,",               # row 7: a Leader without capacity
        "Grunt,Crusaders,Good,10,Soldier,no,1,2,0,,,",           # row 8: capacity on a non-Leader
        "Upside,Crusaders,Good,50,Sergeant,no,6,3,0,,,",         # row 9: min above max
        "Nobody,,Good,10,Soldier,no,,,,,,",                      # row 10: no faction
        "Maybe,Crusaders,Good,10,Soldier,perhaps,,,,,,",         # row 11: not a Unique word
        ",Crusaders,Good,10,Soldier,no,,,,,,",                   # row 12: no name
    ))
    assert errors == [
        (3, "name"), (4, "rank"), (5, "cost"), (6, "cost"),
        (7, "soldiers_min"), (7, "soldiers_max"), (7, "elites_max"),
        (8, "soldiers_min"), (8, "soldiers_max"), (8, "elites_max"),
        (9, "soldiers_min"), (10, "factions"), (11, "unique"), (12, "name"),
    ]


def test_row_error_sentences_say_what_to_fix():
    with pytest.raises(PoolRejected) as caught:
        parse_pool(rows("Good Soldier,Crusaders,Good,15,Soldier,no,,,,,,",
                        "GOOD SOLDIER,Crusaders,Good,15,Soldier,no,,,,,,",
                        "Upside,Crusaders,Good,50,Sergeant,no,6,3,0,,,"))
    messages = [error.message for error in caught.value.errors]
    assert messages == [
        "“GOOD SOLDIER” is already in row 2 (names are compared ignoring case and spacing); give each model "
        "one row, and two different cards distinct names.",
        "The minimum number of Soldiers (6) is above the maximum (3).",
    ]


def test_a_row_with_more_cells_than_the_header_is_an_error():
    assert rejected(rows("Sir Bob, the Bold,Crusaders,Good,15,Soldier,no,,,,,,")) == [(2, "sku")]
    assert len(parse_pool(rows('"Sir Bob, the Bold",Crusaders,Good,15,Soldier,no,,,,,,'))) == 1


def test_blank_lines_and_a_byte_order_mark_are_harmless():
    pool = parse_pool("\ufeff" + rows("", "A,Crusaders,Good,10,Soldier,no,,,,,,", ""))
    assert [model.name for model in pool] == ["A"]
