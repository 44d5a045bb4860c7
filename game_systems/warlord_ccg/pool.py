"""The organizer's card pool (spec section 2.3) and the faction vocabulary it shares with lists (WT13).

There is no card database, so the pool is the event's only source of card attributes: one row per
card name, with the attributes of the card's most recent English printing (WT18, W3).
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from game_systems.base import PoolRejected, RowError
from game_systems.text import name_key, word_key

POOL_COLUMNS = ("name", "type", "level", "factions", "traits", "alignment", "class", "max_copies")
POOL_HEADER = ",".join(POOL_COLUMNS)
# name and type are required (2.3); level is required for characters, so a pool without the column
# could never describe one and is refused up front.
REQUIRED_COLUMNS = ("name", "type", "level")

CARD_TYPES = ("character", "action", "item")  # WT12, in the D03 order

# WT13 (PDF:36): the seven factions, in the text's order.
FACTIONS = ("Deverenians", "Dwarves", "Elves", "Free Kingdoms", "Nothrog", "Chosen", "Mercenaries")
# 2.3: "Mercenary" is the trait name in PDF:196 (W9), "Dwarf" is used at PDF:383.
BUILT_IN_FACTION_ALIASES = {"Mercenary": "Mercenaries", "Dwarf": "Dwarves"}

_WHOLE_NUMBER = re.compile(r"\d+")


def faction_lookup(extra_aliases: Iterable[tuple[str, str]] = ()) -> Mapping[str, str]:
    """word_key of every accepted faction word -> canonical faction name (2.3, 2.4)."""
    lookup = {word_key(faction): faction for faction in FACTIONS}
    for alias, canonical in (*BUILT_IN_FACTION_ALIASES.items(), *extra_aliases):
        lookup[word_key(alias)] = canonical
    return lookup


@dataclass(frozen=True)
class PoolCard:
    """One pool row, already checked and normalised."""

    name: str
    type: str
    level: int | None
    factions: tuple[str, ...]        # canonical names, in the row's order
    traits: tuple[str, ...]          # as written
    alignment: str = ""
    card_class: str = ""
    max_copies: int | None = None

    @property
    def trait_keys(self) -> frozenset[str]:
        return frozenset(word_key(trait) for trait in self.traits)


@dataclass(frozen=True)
class Pool:
    """The checked pool: card name key (2.4) -> card."""

    cards: Mapping[str, PoolCard] = field(default_factory=dict)

    def find(self, name: str) -> PoolCard | None:
        return self.cards.get(name_key(name))

    def __len__(self) -> int:
        return len(self.cards)


def parse_pool(csv_text: str, *, faction_aliases: Iterable[tuple[str, str]] = ()) -> Pool:
    """The pool, or PoolRejected naming every bad row (row 1 is the header line).

    faction_aliases are the organizer's own (alias, canonical faction) pairs, on top of the built-in
    ones (2.3: "the organizer may add more"); Options.faction_aliases holds them.
    """
    factions = faction_lookup(faction_aliases)
    records = _records(csv_text.lstrip("\ufeff"))
    if not records:
        raise PoolRejected([RowError(
            1, "name", f"The file is empty; its first line must be the header {POOL_HEADER}.")])
    header_row, header = records[0]
    errors = _header_errors(header_row, header)
    if errors:
        raise PoolRejected(errors)
    columns = [cell.strip().casefold() for cell in header]

    cards: dict[str, PoolCard] = {}
    first_row_of: dict[str, int] = {}
    for row_number, cells in records[1:]:
        if not any(cell.strip() for cell in cells):
            continue  # a blank spreadsheet row
        if len(cells) > len(columns):
            errors.append(RowError(row_number, columns[-1], (
                f"This row has {len(cells)} values but the header has {len(columns)} columns; "
                "a value containing a comma must be put in double quotes.")))
            continue
        values = {column: (cells[i].strip() if i < len(cells) else "") for i, column in enumerate(columns)}
        card, row_errors = _card_from_row(row_number, values, factions)
        errors.extend(row_errors)
        if not values["name"]:
            continue
        key = name_key(values["name"])
        if key in first_row_of:
            errors.append(RowError(row_number, "name", (
                f"“{values['name']}” is already in row {first_row_of[key]} (names are compared ignoring case, "
                "spacing and apostrophe style); keep one row per card name.")))
            continue
        first_row_of[key] = row_number
        if card is not None:
            cards[key] = card
    if errors:
        raise PoolRejected(errors)
    if not cards:
        raise PoolRejected([RowError(1, "name", "The file has a header but no cards; add one row per card.")])
    return Pool(MappingProxyType(cards))


def _records(text: str) -> list[tuple[int, list[str]]]:
    """Every CSV record with the line number it starts on, as an organizer's editor shows it."""
    reader = csv.reader(io.StringIO(text))
    records = []
    next_line = 1
    try:
        for cells in reader:
            if cells:
                records.append((next_line, cells))
            next_line = reader.line_num + 1
    except csv.Error as error:
        raise PoolRejected([RowError(next_line, "name", f"This line cannot be read as CSV ({error}).")]) from None
    return records


def _header_errors(row_number: int, header: list[str]) -> list[RowError]:
    columns = [cell.strip().casefold() for cell in header]
    errors = []
    for column in REQUIRED_COLUMNS:
        if column not in columns:
            errors.append(RowError(row_number, column, (
                f"The header has no “{column}” column; the header line must be {POOL_HEADER}.")))
    seen = set()
    for column in columns:
        if column not in POOL_COLUMNS:
            # Refused rather than ignored: a misspelt "max_copies" would otherwise be lost silently.
            errors.append(RowError(row_number, column or "(empty)", (
                f"“{column}” is not a column of the card pool; the columns are {POOL_HEADER}.")))
        elif column in seen:
            errors.append(RowError(row_number, column, f"The column “{column}” appears twice in the header."))
        seen.add(column)
    return errors


def _card_from_row(row: int, values: dict[str, str], factions: Mapping[str, str]):
    """The row's card (None if it has errors) and its errors."""
    errors = []
    name = " ".join(values["name"].split())
    if not name:
        errors.append(RowError(row, "name", "The card name is empty; every row needs a name."))

    card_type = values["type"].casefold()
    if card_type not in CARD_TYPES:
        shown = f"“{values['type']}”" if values["type"] else "an empty cell"
        errors.append(RowError(row, "type", f"The type must be character, action or item (got {shown})."))

    level = None
    level_text = values["level"]
    if level_text:
        if _WHOLE_NUMBER.fullmatch(level_text):
            level = int(level_text)
        else:
            errors.append(RowError(row, "level", f"The level must be a whole number 0 or more (got “{level_text}”)."))
    elif card_type == "character":  # WT14: S01, S05 and D06 need every character's level
        errors.append(RowError(row, "level", "A character needs a level, a whole number 0 or more; the cell is empty."))

    canonical_factions = []
    for word in _split_list(values.get("factions", "")):
        canonical = factions.get(word_key(word))
        if canonical is None:
            errors.append(RowError(row, "factions", (
                f"“{word}” is not one of the seven factions ({', '.join(FACTIONS)}); "
                "separate several factions with semicolons.")))
        elif canonical not in canonical_factions:
            canonical_factions.append(canonical)

    max_copies = None
    max_text = values.get("max_copies", "")
    if max_text:
        if _WHOLE_NUMBER.fullmatch(max_text) and int(max_text) >= 1:
            max_copies = int(max_text)
        else:
            errors.append(RowError(row, "max_copies", (
                f"max_copies must be a whole number of at least 1, or empty (got “{max_text}”).")))

    if errors:
        return None, errors
    card = PoolCard(
        name=name,
        type=card_type,
        level=level,
        factions=tuple(canonical_factions),
        traits=tuple(_split_list(values.get("traits", ""))),
        alignment=values.get("alignment", ""),
        card_class=values.get("class", ""),
        max_copies=max_copies,
    )
    return card, []


def _split_list(cell: str) -> list[str]:
    """A semicolon-separated cell (2.3), blanks dropped."""
    return [" ".join(part.split()) for part in cell.split(";") if part.strip()]
