"""Shared fixtures of the Warlord CCG tests: the spec's test pool and worked examples (section 5)."""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

from game_systems.warlord_ccg import CHECKER

EXAMPLES_DIR = Path(__file__).parent
POOL_CSV = (EXAMPLES_DIR / "pool.csv").read_text(encoding="utf-8")
EXAMPLES = json.loads((EXAMPLES_DIR / "examples.json").read_text(encoding="utf-8"))
POOL = CHECKER.parse_pool(POOL_CSV)


def example(example_id: str) -> dict:
    return copy.deepcopy(next(item for item in EXAMPLES if item["id"] == example_id))


def base_deck() -> list[dict]:
    """Section 5's base deck B (C01): 50 cards with a legal marked starting army."""
    return example("C01")["list"]["cards"]


def run(cards: list[dict], *, pool=POOL, **event) -> list[tuple[str, str]]:
    options = CHECKER.parse_options(event, has_pool=pool is not None)
    return [(v.code, v.message) for v in CHECKER.check({"cards": cards}, pool=pool, options=options)]


def codes(cards: list[dict], **kwargs) -> list[str]:
    return [code for code, _ in run(cards, **kwargs)]


def as_multiset(violations) -> Counter:
    return Counter(tuple(v) for v in violations)


def self_described(cards: list[dict]) -> list[dict]:
    """The same list with every card's attributes written out from the test pool, for self_described mode."""
    described = []
    for entry in cards:
        card = POOL.find(entry["name"])
        entry = dict(entry)
        if card is not None:
            entry.update(type=card.type, factions=list(card.factions), traits=list(card.traits))
            if card.level is not None:
                entry["level"] = card.level
        described.append(entry)
    return described


def set_entry(cards: list[dict], card_name: str, **fields) -> list[dict]:
    """The list with one entry's fields changed."""
    return [{**entry, **fields} if entry["name"] == card_name else entry for entry in cards]


def drop(cards: list[dict], *card_names: str) -> list[dict]:
    """The list without these entries."""
    return [entry for entry in cards if entry["name"] not in card_names]
