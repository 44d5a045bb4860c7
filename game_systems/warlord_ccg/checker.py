"""The Warlord CCG (4th edition) deck checks of spec section 3, with the rulings of section 4.

Messages come in the spec's fixed order: E (E01, E02, E03), S04, D (D01–D06), S (S06, S05, S01–S03).
Within one code they follow the list's order of first appearance.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game_systems.base import Violation
from game_systems.text import whole_number

from .deck import Card, read_list
from .options import Options, parse_options
from .pool import CARD_TYPES, Pool

MIN_DECK_SIZE = 50        # WT1
MAX_COPIES = 3            # WT2
MAX_EPIC_COPIES = 1       # WT5
MAX_PER_LORD_TRAIT = 1    # WT6
STARTING_ARMY = (1, 3, 2)  # WT8: Warlord, 1st-level, 2nd-level


def check(submission: Any, *, pool: Pool | None, options: Options | None = None) -> list[Violation]:
    """Every violation of the list, in the order of section 3; UnusableInput if it cannot be read."""
    if options is None:
        options = parse_options({}, has_pool=pool is not None)
    read = read_list(submission, pool=pool if options.uses_pool else None, options=options)
    cards = [card for card in read.cards if card.counted]  # a card without a valid count is left out
    marked = any(card.starting > 0 for card in cards)
    return [
        *read.data_violations,
        *read.starting_violations,
        *deck_violations(cards, options, marked=marked),
        *starting_army_violations(cards, options, marked=marked),
    ]


def summary(submission: Any) -> str:
    """One line for tables of lists, e.g. "52 cards; starting army marked"."""
    entries = submission.get("cards") if isinstance(submission, Mapping) else None
    if not isinstance(entries, list):
        return "unreadable list"
    total = marked = 0
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        count = whole_number(entry.get("count", 1))
        starting = whole_number(entry.get("starting", 0))
        total += count if count is not None and count > 0 else 0
        marked += starting if starting is not None and starting > 0 else 0
    army = f"starting army marked ({marked} cards)" if marked else "no starting army marked"
    return f"{total} {'card' if total == 1 else 'cards'}; {army}"


# --- D: the deck (3.2) --------------------------------------------------------------------------

def deck_violations(cards: list[Card], options: Options, *, marked: bool) -> list[Violation]:
    total = sum(card.count for card in cards)  # WT4, W4: starting characters and unknown cards included
    violations = []
    if total < MIN_DECK_SIZE:
        violations.append(Violation("WCCG-D01", (
            f"The deck has {total} cards; a deck must have at least {MIN_DECK_SIZE} cards, "
            "starting characters included.")))
    violations += _copy_limit(cards)
    violations += _type_share(cards, total)
    violations += _epic_limit(cards)
    violations += _lord_limit(cards, options.lord_traits)
    if not marked and not options.require_declared_starting_army:
        violations += _starting_army_possible(cards)  # W11
    return violations


def _is_epic(card: Card) -> bool:
    return card.has_trait("Epic")


def _copy_limit(cards: list[Card]) -> list[Violation]:
    """D02 (WT2, W3): by name; a pool's max_copies replaces 3 (WT17, W15). Epic cards are D04's."""
    violations = []
    for card in cards:
        limit = card.max_copies or MAX_COPIES
        if not _is_epic(card) and card.count > limit:
            violations.append(Violation("WCCG-D02", (
                f"The deck has {card.count} copies of “{card.name}”; "
                f"no more than {limit} copies of any one card are allowed.")))
    return violations


def _type_share(cards: list[Card], total: int) -> list[Violation]:
    """D03 (WT3, W5): fails when 2 × n > total, so a 51-card deck may hold 25 of a type."""
    violations = []
    for card_type in CARD_TYPES:
        n = sum(card.count for card in cards if card.type == card_type)
        if 2 * n > total:
            violations.append(Violation("WCCG-D03", (
                f"{n} of the deck's {total} cards are {card_type} cards; "
                f"one card type may make up at most half the deck ({total // 2} of {total}).")))
    return violations


def _epic_limit(cards: list[Card]) -> list[Violation]:
    """D04 (WT5, W20)."""
    return [
        Violation("WCCG-D04", (
            f"“{card.name}” has the Epic trait and is in the deck {card.count} times; "
            "an Epic card may be included only once."))
        for card in cards
        if _is_epic(card) and card.count > (card.max_copies or MAX_EPIC_COPIES)
    ]


def _lord_limit(cards: list[Card], lord_traits: tuple[str, ...]) -> list[Violation]:
    """D05 (WT6, W6): copies of character cards, each lord trait separately."""
    violations = []
    for trait in lord_traits:
        holders = [card for card in cards if card.is_character and card.has_trait(trait)]
        n = sum(card.count for card in holders)
        if n > MAX_PER_LORD_TRAIT:
            listed = ", ".join(card.name if card.count == 1 else f"{card.name} ×{card.count}" for card in holders)
            violations.append(Violation(
                "WCCG-D05", f"The deck has {n} characters with the {trait} trait ({listed}); at most one is allowed."))
    return violations


def _is_warlord(card: Card) -> bool:
    return card.is_character and card.has_trait("Warlord")


def _shows(factions: tuple[str, ...]) -> str:
    return ", ".join(factions) if factions else "no faction"


def _starting_army_possible(cards: list[Card]) -> list[Violation]:
    """D06 (WT7–WT10, W8, W10): can the deck form a legal starting army at all?

    A candidate whose factions are unknown (E02) cannot be judged, so it is left out; a deck whose
    only candidates are such is not reported.
    """
    candidates = [card for card in cards if _is_warlord(card)]
    if not candidates:
        return [Violation(
            "WCCG-D06",
            "The deck has no character with the Warlord trait, so it cannot form a legal starting army.")]
    judged = [card for card in candidates if card.factions is not None]
    shortfalls = []
    for warlord in judged:
        a1, a2 = _available(cards, warlord, 1), _available(cards, warlord, 2)
        if a1 >= STARTING_ARMY[1] and a2 >= STARTING_ARMY[2]:
            return []
        shortfalls.append(Violation("WCCG-D06", (
            f"No legal starting army can be formed around “{warlord.name}” ({_shows(warlord.factions)}): "
            "it needs three 1st-level and two 2nd-level characters that share its faction, "
            f"each Unique name counted once, and the deck has {a1} and {a2}.")))
    return shortfalls


def _available(cards: list[Card], warlord: Card, level: int) -> int:
    """Starting characters of one level for this Warlord; a Unique name counts once (WT10, W10)."""
    return sum(
        1 if card.has_trait("Unique") else card.count
        for card in cards
        if card is not warlord
        and card.is_character
        and not card.has_trait("Warlord")
        and card.level == level
        and card.factions is not None
        and set(card.factions) & set(warlord.factions)
    )


# --- S: the marked starting army (3.3) -----------------------------------------------------------

def starting_army_violations(cards: list[Card], options: Options, *, marked: bool) -> list[Violation]:
    if not marked:
        if options.require_declared_starting_army:
            return [Violation("WCCG-S06", (
                "This event asks you to mark your starting army (one Warlord, three 1st-level and "
                "two 2nd-level characters), and none is marked."))]
        return []
    # Unknown names (E01), bad types and bad levels (E02) are skipped: they are reported already.
    army = [
        card for card in cards
        if card.starting > 0 and card.in_pool and card.type is not None
        and not (card.is_character and card.level is None)
    ]
    warlords = [card for card in army if _is_warlord(card)]
    level_1 = [card for card in army if card.is_character and not _is_warlord(card) and card.level == 1]
    level_2 = [card for card in army if card.is_character and not _is_warlord(card) and card.level == 2]
    others = [card for card in army if card not in warlords + level_1 + level_2]

    violations = [_not_a_starting_character(card) for card in others]
    counts = tuple(sum(card.starting for card in group) for group in (warlords, level_1, level_2))
    if counts != STARTING_ARMY:
        violations.append(Violation("WCCG-S01", (
            f"The marked starting army has {counts[0]} character(s) with the Warlord trait, "
            f"{counts[1]} 1st-level and {counts[2]} 2nd-level characters; it must have exactly 1, 3 and 2.")))
    if len(warlords) == 1:
        violations += _off_faction(warlords[0], [card for card in army if card in level_1 + level_2])
    violations += [
        Violation("WCCG-S03", (
            f"The starting army includes {card.starting} copies of the Unique character “{card.name}”; "
            "at most one is allowed."))
        for card in army
        if card.is_character and card.has_trait("Unique") and card.starting > 1
    ]
    return violations


def _not_a_starting_character(card: Card) -> Violation:
    """S05 (WT8)."""
    if card.is_character:
        described = f"a level-{card.level} character"
    elif card.type == "item":
        described = "an item"
    else:
        described = "an action card"
    return Violation("WCCG-S05", (
        f"“{card.name}” is marked for the starting army but is {described}; apart from the Warlord, "
        "starting characters must be 1st- or 2nd-level characters."))


def _off_faction(warlord: Card, starters: list[Card]) -> list[Violation]:
    """S02 (WT9, W8, W9): sharing one faction is enough; a Mercenary is no exception."""
    if warlord.factions is None:
        return []
    return [
        Violation("WCCG-S02", (
            f"Starting character “{card.name}” ({_shows(card.factions)}) does not share a faction with "
            f"the Warlord “{warlord.name}” ({_shows(warlord.factions)})."))
        for card in starters
        if card.factions is not None and not set(card.factions) & set(warlord.factions)
    ]
