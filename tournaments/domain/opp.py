"""Organized Play Points per battle (R21-R23).

Standings are sums of these per-battle awards, never a second derivation of the rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules_engine.conditions import RESOLVE_OPP, STALEMATE_OPP, VICTORY_OPP
from tournaments.domain.outcomes import BattleResult, Kind

# R21, from the one table of rules_engine/conditions.py: the victor's OPP by condition (the loser of
# any of these gets 0); STALEMATE_OPP and RESOLVE_OPP for each general.
OPP_FOR_CONDITION: dict[str, int] = {condition.value: opp for condition, opp in VICTORY_OPP.items()}
__all__ = ["OPP_FOR_CONDITION", "RESOLVE_OPP", "STALEMATE_OPP", "UNPLAYED_DQ_OPP", "ForfeitAward", "opp_awards"]
UNPLAYED_DQ_OPP = 1  # the opponent of a disqualified general, per battle not fought (R23)


@dataclass(frozen=True)
class ForfeitAward:
    """What a forfeit gives the opponent. R22 default: a victory by Forced Surrender, 1 OPP and one
    Victory for tie-breaker 1. An event may set another award, for the whole event, before it starts."""

    opp: int = 1
    counts_as_victory: bool = True


DEFAULT_FORFEIT_AWARD = ForfeitAward()


def opp_awards(result: BattleResult, forfeit_award: ForfeitAward = DEFAULT_FORFEIT_AWARD) -> dict[str, int]:
    """OPP for both generals of one battle. A battle not decided yet and a playoff battle (R24) give
    both generals 0."""
    awards = {result.a: 0, result.b: 0}
    outcome = result.outcome
    if outcome is None or result.playoff:
        return awards
    if outcome.kind is Kind.VICTORY:
        awards[outcome.winner] = OPP_FOR_CONDITION[outcome.condition]
    elif outcome.kind is Kind.STALEMATE:
        awards = dict.fromkeys(awards, STALEMATE_OPP)
    elif outcome.kind is Kind.RESOLVE:
        awards = dict.fromkeys(awards, RESOLVE_OPP)
    elif outcome.kind is Kind.FORFEIT:
        awards[outcome.winner] = forfeit_award.opp  # R22; the general who forfeited gets 0
    elif outcome.kind is Kind.UNPLAYED_DQ:
        awards[result.opponent(outcome.disqualified)] = UNPLAYED_DQ_OPP  # R23; the disqualified general 0
    return awards
