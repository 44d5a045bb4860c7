"""The words and numbers of a Reaper's Warlord data card, read the same way from the model list and a list.

Spec: ../shared/spec/reaper-warlord-armies.md, sections 2.2 and 2.3 (rules RT5, RT6; ruling A14).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

LEADER, ELITE, SOLDIER, SOLO = "Leader", "Elite", "Soldier", "Solo"

# RT5: the seven printed ranks and the category each belongs to.
RANK_CATEGORIES: dict[str, str] = {
    "Warlord": LEADER, "Captain": LEADER, "Sergeant": LEADER,
    "Elite": ELITE,
    "Soldier": SOLDIER,
    "Monster": SOLO, "Solitaire": SOLO,
}
# A14: a card that prints only the category word may be entered with it.
CATEGORY_WORDS: dict[str, str] = {"Leader": LEADER, "Solo": SOLO}
_RANKS_BY_KEY = {word.casefold(): word for word in (*RANK_CATEGORIES, *CATEGORY_WORDS)}

# Section 2.3: the printed rank line, "Unq Captain (4-10/1)"; rank words are case-insensitive.
PRINTED_RANK = re.compile(
    r"^(Unq\s+)?(Warlord|Captain|Sergeant|Elite|Soldier|Monster|Solitaire|Leader|Solo)"
    r"(\s*\((\d+)-(\d+)/(\d+)\))?$",
    re.IGNORECASE,
)
# The capacity on its own, with or without its parentheses: "(4-10/1)" or "4-10/1".
PRINTED_CAPACITY = re.compile(r"^\(?\s*(\d+)\s*-\s*(\d+)\s*/\s*(\d+)\s*\)?$")

UNIQUE_YES = frozenset({"yes", "true", "1", "unq"})
UNIQUE_NO = frozenset({"no", "false", "0", ""})


@dataclass(frozen=True)
class Capacity:
    """RT6: the Soldier range and the Elite maximum of a Leader's troop."""

    soldiers_min: int
    soldiers_max: int
    elites_max: int

    def printed(self) -> str:
        return f"{self.soldiers_min}-{self.soldiers_max}/{self.elites_max}"


def rank_word(text: str) -> str | None:
    """The rank as the spec spells it ("captain" -> "Captain"), or None for a word that is not a rank."""
    return _RANKS_BY_KEY.get(text.strip().casefold())


def category_of(rank: str) -> str:
    return RANK_CATEGORIES.get(rank) or CATEGORY_WORDS[rank]


def unique_word(text: str) -> bool | None:
    """Section 2.3's Unique column: yes/true/1/Unq or no/false/0/blank; None for anything else."""
    key = text.strip().casefold()
    if key in UNIQUE_YES:
        return True
    if key in UNIQUE_NO:
        return False
    return None



def whole_number_text(text: str) -> int | None:
    """A CSV cell holding a whole number ("120", " 4 "), else None."""
    text = text.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return None


def capacity_from(soldiers_min: int | None, soldiers_max: int | None, elites_max: int | None) -> Capacity | None:
    """A capacity only when all three numbers are whole, 0 or more, and the minimum is not above the maximum."""
    numbers = (soldiers_min, soldiers_max, elites_max)
    if any(number is None or number < 0 for number in numbers):
        return None
    if soldiers_min > soldiers_max:
        return None
    return Capacity(soldiers_min, soldiers_max, elites_max)


def as_json(value: Any) -> str:
    """`{v}` of the RW-E02 sentences: the value as JSON."""
    return json.dumps(value, ensure_ascii=False)


def display_name(name: str) -> str:
    """A name as a player typed it, trimmed and with runs of whitespace made one space."""
    return " ".join(name.split())
