"""The victory conditions, their words and their Organized Play Points (R21): the one vocabulary.
The engine's model, the organized-play domain (`tournaments.domain`), the models' choices and the
pages derive theirs from it; `tests/tournaments/test_layering.py` finds a name spelled elsewhere.

Standard library only and importing nothing of the engine, so any layer may use it.
"""
from __future__ import annotations

from enum import StrEnum

PLAYERS = ("p1", "p2")


class Condition(StrEnum):
    OVERPOWER = "overpower"
    CRUSH = "crush"
    SHACKLE = "shackle"
    PARALYZE = "paralyze"
    BLUNT = "blunt"
    FORCED_SURRENDER = "forced_surrender"
    VOLUNTARY_SURRENDER = "voluntary_surrender"


# R21: OPP of the victor by condition (the loser of any of them gets 0).
VICTORY_OPP: dict[Condition, int] = {
    Condition.OVERPOWER: 1, Condition.CRUSH: 3, Condition.SHACKLE: 5, Condition.PARALYZE: 3,
    Condition.BLUNT: 2, Condition.FORCED_SURRENDER: 1, Condition.VOLUNTARY_SURRENDER: 1,
}
STALEMATE_OPP = -1  # each general (R21)
RESOLVE_OPP = -10  # each general (R21)
# R10: the declarable conditions, best first (OPP, then the tie-breaker order).
BEST_FIRST = (Condition.SHACKLE, Condition.CRUSH, Condition.PARALYZE, Condition.BLUNT, Condition.OVERPOWER)
# What a person reads for each condition and each outcome (standings, pages, exports).
LABELS: dict[Condition, str] = {
    Condition.OVERPOWER: "Overpower", Condition.CRUSH: "Crush", Condition.SHACKLE: "Shackle",
    Condition.PARALYZE: "Paralyze", Condition.BLUNT: "Blunt", Condition.FORCED_SURRENDER: "Forced Surrender",
    Condition.VOLUNTARY_SURRENDER: "Voluntary Surrender",
}
OUTCOME_LABELS: dict[str, str] = {"victory": "Victory", "stalemate": "Stalemate", "resolve": "Resolve"}


def opp_for(outcome: str, winner: str | None, condition: str | None) -> dict[str, int]:
    """R21: both generals' OPP for a verdict's outcome."""
    if outcome == "victory":
        return {player: VICTORY_OPP[Condition(condition)] if player == winner else 0  # type: ignore[arg-type]
                for player in PLAYERS}
    if outcome == "stalemate":
        return dict.fromkeys(PLAYERS, STALEMATE_OPP)
    if outcome == "resolve":
        return dict.fromkeys(PLAYERS, RESOLVE_OPP)
    return dict.fromkeys(PLAYERS, 0)
