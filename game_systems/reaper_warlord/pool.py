"""The organizer's model list (spec section 2.3): one row per model name, read into a `Pool`.

Every bad row is reported at once (`PoolRejected`), so an organizer fixes the file in one go; nothing of
a rejected file is used.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field

from game_systems.base import PoolRejected, RowError
from game_systems.reaper_warlord.vocabulary import (
    LEADER,
    PRINTED_RANK,
    Capacity,
    capacity_from,
    category_of,
    display_name,
    rank_word,
    unique_word,
    whole_number_text,
)
from game_systems.text import name_key

HEADER = "name,factions,alignment,cost,rank,unique,soldiers_min,soldiers_max,elites_max,base,race,sku"
COLUMNS = tuple(HEADER.split(","))
CAPACITY_COLUMNS = ("soldiers_min", "soldiers_max", "elites_max")
# Section 2.3's printed forms, accepted in place of the columns they stand for.
AFFILIATION, RANK_LINE = "affiliation", "rank_line"
RANK_LIST = "Warlord, Captain, Sergeant, Elite, Soldier, Monster, Solitaire"


@dataclass(frozen=True)
class Model:
    """One data card (section 2.2)."""

    name: str
    factions: tuple[str, ...]
    cost: int
    rank: str
    unique: bool = False
    capacity: Capacity | None = None
    alignment: str = ""
    base: str = ""
    race: str = ""
    sku: str = ""

    @property
    def category(self) -> str:
        return category_of(self.rank)


@dataclass(frozen=True)
class Pool:
    """The event's model list, keyed by normalised name (A10)."""

    models: dict[str, Model] = field(default_factory=dict)

    def get(self, name: str) -> Model | None:
        return self.models.get(name_key(name))

    def __len__(self) -> int:
        return len(self.models)

    def __iter__(self) -> Iterator[Model]:
        return iter(self.models.values())


def parse_pool(csv_text: str) -> Pool:
    """The model list in `csv_text`, or PoolRejected listing every bad row (row 1 is the header)."""
    reader = csv.reader(io.StringIO(csv_text.lstrip("\ufeff")))
    header = next(reader, None)
    if header is None:
        raise PoolRejected([RowError(1, "name", f"The model list is empty; its first line must be the "
                                                f"header {HEADER}.")])
    columns = [column.strip().casefold() for column in header]
    header_errors = _header_errors(columns)
    if header_errors:
        raise PoolRejected(header_errors)

    errors: list[RowError] = []
    models: dict[str, Model] = {}
    first_row_of: dict[str, int] = {}
    for cells in reader:
        row = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue  # a blank line between rows is harmless
        if len(cells) > len(columns):
            errors.append(RowError(row, columns[-1], f"This row has {len(cells)} cells but the header has "
                                                     f"{len(columns)}; put a value holding a comma in quotes."))
            continue
        record = dict(zip(columns, [cell.strip() for cell in cells], strict=False))
        model, row_errors = _model_from(record, row)
        errors.extend(row_errors)
        if model is None:
            continue
        key = name_key(model.name)
        if key in first_row_of:
            errors.append(RowError(row, "name", f"“{model.name}” is already in row {first_row_of[key]} "
                                                f"(names are compared ignoring case and spacing); give each "
                                                f"model one row, and two different cards distinct names."))
            continue
        first_row_of[key] = row
        models[key] = model
    if errors:
        raise PoolRejected(errors)
    if not models:
        raise PoolRejected([RowError(1, "name", "The model list has a header but no models.")])
    return Pool(models)


def _header_errors(columns: list[str]) -> list[RowError]:
    """Row-1 errors: the columns every check needs, in one of their accepted forms."""
    present = set(columns)
    missing: list[str] = [column for column in ("name", "cost") if column not in present]
    if "factions" not in present and AFFILIATION not in present:
        missing.append("factions")
    if RANK_LINE not in present:
        missing += [column for column in ("rank", "unique", *CAPACITY_COLUMNS) if column not in present]
    errors = [RowError(1, column, f"The header has no “{column}” column; the model list's header is "
                                  f"{HEADER}.") for column in missing]
    repeated = sorted({column for column in columns if column and columns.count(column) > 1})
    errors += [RowError(1, column, f"The header names the “{column}” column more than once.")
               for column in repeated]
    return errors


def _model_from(record: dict[str, str], row: int) -> tuple[Model | None, list[RowError]]:
    errors: list[RowError] = []
    name = display_name(record.get("name", ""))
    if not name:
        errors.append(RowError(row, "name", "The model has no name."))

    factions, alignment = _factions_and_alignment(record)
    if not factions:
        column = "factions" if record.get("factions") or AFFILIATION not in record else AFFILIATION
        errors.append(RowError(row, column, "The model names no faction; list at least one (several are "
                                            "separated by semicolons), for example Crusaders."))

    cost = whole_number_text(record.get("cost", ""))
    if cost is None or cost < 0:
        errors.append(RowError(row, "cost", f"The cost must be a whole number of points, 0 or more "
                                            f"(got “{record.get('cost', '')}”)."))

    if record.get("rank") or not record.get(RANK_LINE):
        rank, unique, capacity, rank_errors = _rank_from_columns(record, row)
    else:
        rank, unique, capacity, rank_errors = _rank_from_printed(record[RANK_LINE], row)
    errors.extend(rank_errors)

    if errors:
        return None, errors
    return Model(name=name, factions=factions, cost=cost, rank=rank, unique=unique, capacity=capacity,
                 alignment=alignment, base=record.get("base", ""), race=record.get("race", ""),
                 sku=record.get("sku", "")), []


def _factions_and_alignment(record: dict[str, str]) -> tuple[tuple[str, ...], str]:
    """`factions` (semicolon-separated) and `alignment`, or the printed `Faction/Alignment` split at its last /."""
    factions_text, alignment = record.get("factions", ""), record.get("alignment", "")
    if not factions_text and record.get(AFFILIATION):
        factions_text, _, printed_alignment = record[AFFILIATION].rpartition("/")
        if not factions_text:  # no "/" at all: the whole value names the faction
            factions_text, printed_alignment = printed_alignment, ""
        alignment = alignment or printed_alignment.strip()
    factions = tuple(display_name(part) for part in factions_text.split(";") if part.strip())
    return factions, alignment


def _rank_from_columns(record: dict[str, str], row: int):
    errors: list[RowError] = []
    rank = rank_word(record.get("rank", ""))
    if rank is None:
        errors.append(RowError(row, "rank", f"The rank must be one of {RANK_LIST} "
                                            f"(got “{record.get('rank', '')}”)."))
    unique = unique_word(record.get("unique", ""))
    if unique is None:
        errors.append(RowError(row, "unique", f"Unique must be yes, true, 1 or Unq, or no, false, 0 or blank "
                                              f"(got “{record['unique']}”)."))
    cells = {column: record.get(column, "") for column in CAPACITY_COLUMNS}
    capacity = None
    if rank is not None and category_of(rank) == LEADER:
        capacity, capacity_errors = _leader_capacity(cells, row)
        errors.extend(capacity_errors)
    elif rank is not None:
        errors += [RowError(row, column, f"Only Leader models have a troop capacity, and this model is a "
                                         f"{rank}; leave {column} blank.")
                   for column, text in cells.items() if text]
    return rank, bool(unique), capacity, errors


def _leader_capacity(cells: dict[str, str], row: int) -> tuple[Capacity | None, list[RowError]]:
    numbers = {column: whole_number_text(text) for column, text in cells.items()}
    errors = [RowError(row, column, f"A Leader needs {column}, a whole number 0 or more (got “{cells[column]}”).")
              for column, number in numbers.items() if number is None or number < 0]
    if errors:
        return None, errors
    capacity = capacity_from(numbers["soldiers_min"], numbers["soldiers_max"], numbers["elites_max"])
    if capacity is None:
        return None, [RowError(row, "soldiers_min", f"The minimum number of Soldiers ({numbers['soldiers_min']}) "
                                                    f"is above the maximum ({numbers['soldiers_max']}).")]
    return capacity, []


def _rank_from_printed(text: str, row: int):
    """Section 2.3's `rank_line`, e.g. "Unq Captain (4-10/1)"."""
    match = PRINTED_RANK.match(text)
    if match is None:
        return None, False, None, [RowError(row, RANK_LINE, f"The rank line must read like “Unq Captain "
                                                            f"(4-10/1)” or “Soldier” (got “{text}”).")]
    rank = rank_word(match.group(2))
    unique = match.group(1) is not None
    printed = match.group(3) is not None
    if category_of(rank) != LEADER:
        if printed:
            return rank, unique, None, [RowError(row, RANK_LINE, f"Only Leader models have a troop capacity, "
                                                                 f"and this model is a {rank}.")]
        return rank, unique, None, []
    if not printed:
        return rank, unique, None, [RowError(row, RANK_LINE, f"A Leader needs its troop capacity after the "
                                                             f"rank, as in “{rank} (4-10/1)” (got “{text}”).")]
    numbers = [int(match.group(index)) for index in (4, 5, 6)]
    capacity = capacity_from(*numbers)
    if capacity is None:
        return rank, unique, None, [RowError(row, RANK_LINE, f"The minimum number of Soldiers ({numbers[0]}) "
                                                             f"is above the maximum ({numbers[1]}).")]
    return rank, unique, capacity, []
