"""What every game system supplies, and the small vocabulary its list checker speaks.

Pure Python: no Django import (tests/game_systems/test_no_django.py holds it), so a checker runs
from the command line, in a test, or inside the web app alike.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Violation:
    """One broken construction rule: the spec's code and the sentence a player reads."""

    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class RowError:
    """A problem in one row of an organizer's pool CSV (row 1 is the header line)."""

    row: int
    column: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "message": self.message}


class UnusableInput(ValueError):
    """The input cannot be checked at all (not a list of this game, not an object, a bad option).

    Its text is one sentence that says what and where; the checker's exit status 2.
    """


class PoolRejected(ValueError):
    """An organizer's pool CSV with row-level errors; nothing of it is used."""

    def __init__(self, errors: list[RowError]):
        self.errors = errors
        super().__init__("; ".join(f"row {e.row}, {e.column}: {e.message}" for e in errors[:5]))


class ListChecker(Protocol):
    """A game's list format and its checks, as its spec defines them."""

    pool_label: str            # what the organizer uploads: "card pool", "model list"
    pool_header: str           # the CSV header line of the spec

    def parse_options(self, raw: Mapping[str, Any], *, has_pool: bool) -> Any:
        """The event options with the spec's defaults filled in, or UnusableInput."""

    def parse_pool(self, csv_text: str, *, options: Any = None) -> Any:
        """The pool (read with the event's parsed options, which may add aliases), or PoolRejected with
        every row error."""

    def check(self, submission: Any, *, pool: Any, options: Any) -> list[Violation]:
        """Every violation of the submission, in the spec's order; UnusableInput if it cannot be read."""

    def summary(self, submission: Any) -> str:
        """One line describing a list (e.g. "52 cards, Warlord: Lord Xu"), for tables of lists."""


@dataclass(frozen=True)
class ResultKind:
    """A way a two-player game can end, as the game's text allows it."""

    key: str            # "victory", "draw", "forfeit", ...
    label: str
    has_winner: bool


@dataclass(frozen=True)
class TieBreaker:
    key: str
    label: str
    explanation: str


@dataclass(frozen=True)
class Fact:
    """One raw fact a result records beside its kind and winner (the specs' section 6), e.g. why the game
    ended or the points each side destroyed. `per_side`: one value for each of the two players."""

    key: str
    label: str
    choices: tuple[str, ...] = ()     # a word from these; empty: a whole number
    minimum: int = 0
    maximum: int = 100_000
    per_side: bool = False
    help: str = ""

    def read(self, value: Any) -> Any:
        """The value as kept, or ValueError with a sentence naming the fact."""
        if self.per_side:
            if not isinstance(value, Mapping) or set(value) - {"a", "b"}:
                raise ValueError(f"{self.label}: give one figure for each side, as {{\"a\": n, \"b\": n}}.")
            return {side: Fact(self.key, self.label, self.choices, self.minimum, self.maximum).read(v)
                    for side, v in value.items() if v not in (None, "")}
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{self.label}: choose one of {', '.join(self.choices)} (got {value!r}).")
            return value
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{self.label} must be a whole number (got {value!r}).")
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{self.label} must be a whole number (got {value!r}).") from None
        if not self.minimum <= number <= self.maximum:
            raise ValueError(f"{self.label} must be from {self.minimum} to {self.maximum} (got {number}).")
        return number


def read_facts(facts: tuple[Fact, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """A result's facts checked against the game's list of them: unknown keys and bad values refused
    with a sentence (ValueError); empty values left out. Every fact is optional."""
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise ValueError("The result's facts must be an object of named values.")
    known = {fact.key: fact for fact in facts}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        allowed = ", ".join(known) or "none"
        raise ValueError(f"{', '.join(unknown)}: not a fact this game's results record (it records: {allowed}).")
    kept = {}
    for key, value in raw.items():
        if value in (None, "", {}):
            continue
        kept[key] = known[key].read(value)
    return kept


@dataclass(frozen=True)
class GameSystem:
    """Everything the organized-play code needs to know about one game."""

    slug: str
    name: str
    short_name: str
    result_kinds: tuple[ResultKind, ...]
    formats: tuple[str, ...]                      # "groups" (WARLINE Organized Play), "swiss"
    default_format: str
    default_scoring: Mapping[str, float]          # points for "win", "draw", "loss", "bye"
    tie_breakers: tuple[TieBreaker, ...]          # those the game allows, in the default order
    default_tie_breakers: tuple[str, ...]
    list_checker: ListChecker | None = None
    table_sizes: tuple[int, ...] = (2,)           # players at one table; >2: multiplayer tables
    # WARLINE only: a battle's replay is adjudicated by rules_engine.
    adjudicated: bool = False
    result_facts: tuple[Fact, ...] = ()           # raw facts a result records (spec section 6)
    # Per player outcome of each result kind, (winner's, other's): "win", "draw" or "loss".
    outcomes: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def has_lists(self) -> bool:
        return self.list_checker is not None

    def result_kind(self, key: str) -> ResultKind | None:
        return next((kind for kind in self.result_kinds if kind.key == key), None)
