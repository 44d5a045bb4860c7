"""Battle outcomes as the standings see them: plain, immutable values keyed by general ids (strings).

A `BattleResult` with `outcome=None` is a battle that is scheduled and not decided yet.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_engine.conditions import Condition
from tournaments.domain.errors import DomainError

# The conditions a victory is won by: the one vocabulary of rules_engine/conditions.py (R21).
VICTORY_CONDITIONS = tuple(condition.value for condition in Condition)


class Kind(StrEnum):
    VICTORY = "victory"
    STALEMATE = "stalemate"
    RESOLVE = "resolve"
    FORFEIT = "forfeit"
    UNPLAYED_DQ = "unplayed_dq"  # scheduled, not fought because a general was disqualified (R23)


# Which of Outcome's optional fields each kind needs; every other one must stay empty.
_FIELDS_FOR_KIND = {
    Kind.VICTORY: ("winner", "condition"),
    Kind.STALEMATE: (),
    Kind.RESOLVE: (),
    Kind.FORFEIT: ("winner", "forfeited_by"),
    Kind.UNPLAYED_DQ: ("disqualified",),
}
_FIELD_WORDS = {
    "winner": "general who won",
    "condition": "victory condition",
    "forfeited_by": "general who forfeited",
    "disqualified": "disqualified general",
}
_KIND_WORDS = {
    Kind.VICTORY: "a victory",
    Kind.STALEMATE: "a Stalemate",
    Kind.RESOLVE: "a Resolve",
    Kind.FORFEIT: "a forfeit",
    Kind.UNPLAYED_DQ: "a battle not fought because of a disqualification",
}


def _sentence_start(phrase):
    return phrase[:1].upper() + phrase[1:]


@dataclass(frozen=True)
class Outcome:
    kind: Kind
    winner: str | None = None  # VICTORY: the victor; FORFEIT: the general who did NOT forfeit
    condition: str | None = None  # VICTORY only, one of VICTORY_CONDITIONS
    forfeited_by: str | None = None  # FORFEIT only
    disqualified: str | None = None  # UNPLAYED_DQ only: the disqualified general (R23)

    def __post_init__(self):
        try:
            kind = Kind(self.kind)
        except ValueError:
            raise DomainError(f"{self.kind!r} is not a battle outcome; use one of "
                              f"{', '.join(k.value for k in Kind)}.", field="kind") from None
        object.__setattr__(self, "kind", kind)
        needed = _FIELDS_FOR_KIND[kind]
        for name in _FIELD_WORDS:
            value = getattr(self, name)
            if name in needed and value in (None, ""):
                raise DomainError(f"{_sentence_start(_KIND_WORDS[kind])} needs the {_FIELD_WORDS[name]}; "
                                  f"give {name}.", field=name)
            if name not in needed and value not in (None, ""):
                raise DomainError(f"{_sentence_start(_KIND_WORDS[kind])} has no {_FIELD_WORDS[name]}; "
                                  f"leave {name} empty.", field=name)
        if kind is Kind.VICTORY and self.condition not in VICTORY_CONDITIONS:
            raise DomainError(f"{self.condition!r} is not a victory condition; use one of "
                              f"{', '.join(VICTORY_CONDITIONS)}.", field="condition")
        if kind is Kind.FORFEIT and self.winner == self.forfeited_by:
            raise DomainError("The general who forfeited cannot also be the one awarded the battle; the winner "
                              "of a forfeit is the opponent.", field="winner")


@dataclass(frozen=True)
class BattleResult:
    a: str
    b: str
    outcome: Outcome | None = None  # None: scheduled, not decided yet
    playoff: bool = False  # R24: playoff battles never change OPP totals or tie-break figures

    def __post_init__(self):
        if self.a == self.b:
            raise DomainError(f"A battle needs two different generals; general {self.a} cannot meet "
                              "themselves.", field="b")
        outcome = self.outcome
        if outcome is None:
            return
        for name in ("winner", "forfeited_by", "disqualified"):
            value = getattr(outcome, name)
            if value is not None and value not in (self.a, self.b):
                raise DomainError(f"General {value} is named as the {_FIELD_WORDS[name]} of the battle between "
                                  f"{self.a} and {self.b}, but did not take part in it; name one of the two.",
                                  field=name)

    @property
    def generals(self) -> tuple[str, str]:
        return (self.a, self.b)

    def opponent(self, general: str) -> str:
        if general == self.a:
            return self.b
        if general == self.b:
            return self.a
        raise DomainError(f"General {general} did not take part in the battle between {self.a} and {self.b}.")

    @property
    def decided(self) -> bool:
        return self.outcome is not None
