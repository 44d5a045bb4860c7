"""Reading a submitted list (spec 2.1) into cards, with the data checks E01–E03 and S04 (3.1).

Each card name appears once in the result: repeated names are reported (E03) and merged, their
counts and starting counts added and the first entry's attributes kept (2.1, W3).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game_systems.base import UnusableInput, Violation
from game_systems.text import name_key, whole_number, word_key

from .options import Options
from .pool import CARD_TYPES, FACTIONS, Pool, faction_lookup

GAME_ID = "warlord-ccg-4e"
NOTHING = object()  # a field that is absent, shown as "nothing" in E02 (3.1)


@dataclass
class Card:
    """One card name of the list, merged, with what is known of its attributes.

    None means "unknown": not in the pool (E01) or a bad attribute (E02). Checks that need an
    unknown attribute leave the card out (3.1).
    """

    name: str                                 # as first written (2.4)
    count: int = 0                            # valid copies only; 0 if no entry had a valid count
    starting: int = 0                         # after S04's repair: invalid -> 0, capped at count
    in_pool: bool = True
    type: str | None = None
    level: int | None = None
    factions: tuple[str, ...] | None = None
    trait_keys: frozenset[str] = frozenset()
    max_copies: int | None = None
    counted: bool = False                     # at least one entry had a valid count
    entries: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def is_character(self) -> bool:
        return self.type == "character"

    def has_trait(self, trait: str) -> bool:
        return word_key(trait) in self.trait_keys


@dataclass
class ReadList:
    cards: list[Card]
    data_violations: list[Violation]      # E01, E02, E03, in that order
    starting_violations: list[Violation]  # S04


def read_list(submission: Any, *, pool: Pool | None, options: Options) -> ReadList:
    entries = _entries(submission)
    cards = _merge(entries)
    e01, e02, e03, s04 = [], [], [], []
    for card in cards:
        _count(card, e02)
        if options.uses_pool:
            _attributes_from_pool(card, pool, e01)
        else:
            _attributes_from_entry(card, options, e02)
        if len(card.entries) > 1:
            e03.append(Violation(
                "WCCG-E03", f"“{card.name}” is listed more than once; list each card once with its total count."))
        _starting(card, s04)
    # E02 messages of one card stay together, count first; cards keep list order.
    return ReadList(cards=cards, data_violations=e01 + e02 + e03, starting_violations=s04)


def _entries(submission: Any) -> list[Mapping[str, Any]]:
    """The entries, or UnusableInput when the list cannot be read at all."""
    if not isinstance(submission, Mapping):
        raise UnusableInput("The list must be a JSON object with a “cards” list.")
    if "game" in submission and submission["game"] != GAME_ID:
        raise UnusableInput(f"The list is for the game {json.dumps(submission['game'])}, not “{GAME_ID}”.")
    entries = submission.get("cards")
    if not isinstance(entries, list):
        raise UnusableInput("The list has no “cards” list.")
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            raise UnusableInput(f"Card entry {position} is not a JSON object.")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise UnusableInput(f"Card entry {position} has no name.")
    return entries


def _merge(entries: list[Mapping[str, Any]]) -> list[Card]:
    by_key: dict[str, Card] = {}
    for entry in entries:
        key = name_key(entry["name"])
        if key not in by_key:
            by_key[key] = Card(name=" ".join(entry["name"].split()))
        by_key[key].entries.append(entry)
    return list(by_key.values())



def shown(value: Any) -> str:
    """{v} of E02 and S04: the value as JSON, or "nothing" if the field is missing."""
    return "nothing" if value is NOTHING else json.dumps(value, ensure_ascii=False)


def _count(card: Card, e02: list[Violation]) -> None:
    """2.1: count defaults to 1, must be a whole number >= 1; a bad one leaves that entry out of every count."""
    for entry in card.entries:
        number = _valid_count(entry)
        if number is None:
            e02.append(Violation("WCCG-E02", (
                f"“{card.name}”: the count must be a whole number of at least 1 "
                f"(got {shown(entry.get('count', NOTHING))}).")))
            continue
        card.count += number
        card.counted = True


def _valid_count(entry: Mapping[str, Any]) -> int | None:
    number = whole_number(entry.get("count", 1))
    return number if number is not None and number >= 1 else None


def _starting(card: Card, s04: list[Violation]) -> None:
    """S04: bad values count as 0, and a total above the count is capped at the count."""
    if not card.counted:
        return  # no valid count to compare with; E02 has been reported
    marked = 0
    for entry in card.entries:
        if _valid_count(entry) is None:
            continue  # the entry is left out with its count
        value = entry.get("starting", 0)
        number = whole_number(value)
        if number is None or number < 0:
            s04.append(Violation("WCCG-S04", (
                f"“{card.name}”: the starting count must be a whole number from 0 to {card.count} "
                f"(got {shown(value)}).")))
            continue
        marked += number
    if marked > card.count:
        s04.append(Violation(
            "WCCG-S04",
            f"“{card.name}” is marked {marked} times for the starting army, but the deck has only {card.count}."))
        marked = card.count
    card.starting = marked


def _attributes_from_pool(card: Card, pool: Pool | None, e01: list[Violation]) -> None:
    """Pool mode (2.3): the pool's attributes; any in the entry are ignored."""
    pool_card = pool.find(card.name) if pool is not None else None
    if pool_card is None:
        card.in_pool = False
        e01.append(Violation("WCCG-E01", (
            f"“{card.name}” is not in this event's card pool, so it cannot be checked; "
            "ask the organizer to add it or correct the name.")))
        return
    card.type = pool_card.type
    card.level = pool_card.level
    card.factions = pool_card.factions
    card.trait_keys = pool_card.trait_keys
    card.max_copies = pool_card.max_copies


def _attributes_from_entry(card: Card, options: Options, e02: list[Violation]) -> None:
    """Self-described mode (2.2): the first entry's attributes. Players cannot set max_copies (W15)."""
    entry = card.entries[0]
    card.trait_keys = _trait_keys(card.name, entry.get("traits"))

    raw_type = entry.get("type", NOTHING)
    if isinstance(raw_type, str) and raw_type.strip().casefold() in CARD_TYPES:
        card.type = raw_type.strip().casefold()
    else:
        e02.append(Violation(
            "WCCG-E02",
            f"“{card.name}”: the card type must be character, action or item (got {shown(raw_type)})."))

    if card.type == "character":  # WT14: no construction rule uses the level of items and actions
        raw_level = entry.get("level", NOTHING)
        level = None if raw_level is NOTHING else whole_number(raw_level)
        if level is None or level < 0:
            e02.append(Violation(
                "WCCG-E02",
                f"“{card.name}”: a character needs a level, a whole number 0 or more (got {shown(raw_level)})."))
        else:
            card.level = level

    card.factions = _factions(card.name, entry.get("factions"), options, e02)


def _factions(name: str, raw: Any, options: Options, e02: list[Violation]) -> tuple[str, ...] | None:
    """The canonical faction set (W8), or None if any value is not a faction (E02)."""
    if raw is None:
        return ()  # factionless
    words = raw.split(";") if isinstance(raw, str) else raw
    if not isinstance(words, list):
        words = [raw]
    lookup = faction_lookup(options.faction_aliases)
    factions: list[str] = []
    bad = False
    for word in words:
        if isinstance(word, str) and not word.strip():
            continue
        canonical = lookup.get(word_key(word)) if isinstance(word, str) else None
        if canonical is None:
            text = word.strip() if isinstance(word, str) else json.dumps(word, ensure_ascii=False)
            e02.append(Violation("WCCG-E02", (
                f"“{name}”: “{text}” is not one of the seven factions ({', '.join(FACTIONS)}).")))
            bad = True
        elif canonical not in factions:
            factions.append(canonical)
    return None if bad else tuple(factions)


def _trait_keys(name: str, raw: Any) -> frozenset[str]:
    """Traits as a list of names (or one semicolon-separated text). No E-code covers a malformed
    traits field, and guessing could hide an Epic or Warlord trait, so the list cannot be checked."""
    if raw is None:
        return frozenset()
    words = raw.split(";") if isinstance(raw, str) else raw
    if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
        raise UnusableInput(f"The traits of “{name}” must be a list of trait names.")
    return frozenset(word_key(word) for word in words if word.strip())
