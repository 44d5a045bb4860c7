"""Event options (spec section 2.5) with their defaults.

The constants 50 (WT1), 3 (WT2), one half (WT3), 1 (WT5, WT6) and 1/3/2 (WT8) are rules, not options.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_systems.base import UnusableInput
from game_systems.text import word_key

from .pool import FACTIONS

CARD_SOURCES = ("pool", "self_described")
# W2: WEB:58 adds Daemonlord to PDF:152's three; the organizer may remove it to follow PDF exactly.
LORD_TRAITS = ("Warlord", "Overlord", "Dragon Lord", "Daemonlord")
KNOWN_KEYS = ("card_source", "card_pool", "require_declared_starting_army", "lord_traits", "faction_aliases")


@dataclass(frozen=True)
class Options:
    card_source: str = "self_described"
    # W11: off by default; the text only asks that a starting army can be formed (WT7).
    require_declared_starting_army: bool = False
    lord_traits: tuple[str, ...] = LORD_TRAITS
    # 2.3: the organizer's own (alias, canonical faction) pairs, on top of Mercenary and Dwarf.
    faction_aliases: tuple[tuple[str, str], ...] = ()

    @property
    def uses_pool(self) -> bool:
        return self.card_source == "pool"


def parse_options(raw: Mapping[str, Any] | None, *, has_pool: bool) -> Options:
    """The options with the defaults of 2.5 filled in; UnusableInput for an unknown key or a bad value.

    `card_pool` is accepted and ignored here: the pool's CSV goes through parse_pool.
    """
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise UnusableInput("The event options must be a JSON object.")
    unknown = sorted(str(key) for key in raw if key not in KNOWN_KEYS)
    if unknown:
        raise UnusableInput(
            f"Unknown event option {', '.join(unknown)}; the options are {', '.join(KNOWN_KEYS)}.")
    return Options(
        card_source=_card_source(raw.get("card_source"), has_pool),
        require_declared_starting_army=_flag(raw, "require_declared_starting_army"),
        lord_traits=_lord_traits(raw.get("lord_traits", LORD_TRAITS)),
        faction_aliases=_faction_aliases(raw.get("faction_aliases") or {}),
    )


def _card_source(value: Any, has_pool: bool) -> str:
    if value is None:
        return "pool" if has_pool else "self_described"
    if value not in CARD_SOURCES:
        raise UnusableInput(f"The option card_source must be “pool” or “self_described” (got {value!r}).")
    if value == "pool" and not has_pool:
        raise UnusableInput("The option card_source is “pool”, but no card pool is uploaded for this event.")
    return value


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise UnusableInput(f"The option {key} must be true or false (got {value!r}).")
    return value


def _lord_traits(value: Any) -> tuple[str, ...]:
    """Some of the four lord traits, spelt as the spec does (so D05 names them that way)."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise UnusableInput("The option lord_traits must be a list of trait names.")
    known = {word_key(trait): trait for trait in LORD_TRAITS}
    chosen: list[str] = []
    for item in value:
        trait = known.get(word_key(item)) if isinstance(item, str) else None
        if trait is None:
            raise UnusableInput(
                f"The option lord_traits may list only {', '.join(LORD_TRAITS)} (got {item!r}).")
        if trait not in chosen:
            chosen.append(trait)
    return tuple(chosen)


def _faction_aliases(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping):
        raise UnusableInput("The option faction_aliases must be an object mapping an alias to a faction.")
    canonical = {word_key(faction): faction for faction in FACTIONS}
    pairs = []
    for alias, target in value.items():
        if not isinstance(alias, str) or not alias.strip():
            raise UnusableInput("Every alias in the option faction_aliases must be a non-empty name.")
        faction = canonical.get(word_key(target)) if isinstance(target, str) else None
        if faction is None:
            raise UnusableInput(
                f"The faction alias “{alias}” must point to one of the seven factions "
                f"({', '.join(FACTIONS)}), not {target!r}.")
        pairs.append((" ".join(alias.split()), faction))
    return tuple(pairs)
