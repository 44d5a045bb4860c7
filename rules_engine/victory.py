"""Victory conditions, checked at the end of a turn (R9-R15, R30), and Organized Play Points (R21).

Each check answers with a `Check(holds, reason)`: the reason is the sentence a rejected claim
shows the players ("p2 is not blunted: S2_5 can attack S1_2 at d3."). The counts are checked here; the
searches behind Paralyze and Blunt have their own modules (`paralyze`; `blunt`, built on `aggressive`
and `two_orders`), whose entry points stay importable from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .aggressive import after_sacrifice_fire
from .blunt import aggressive_action, has_aggressive_action
from .conditions import BEST_FIRST, Condition
from .constants import IN_PRISON
from .model import PLAYERS
from .paralyze import can_leave_zone, first_leaver, turn_start_view
from .two_orders import two_order_aggressive

if TYPE_CHECKING:
    from .state import BattleState

__all__ = ["BEST_FIRST", "CRUSH_COUNT", "HOLDS", "OVERPOWER_COUNT", "RESOLVE_TURNS", "SHACKLE_COUNT", "Check",
           "Condition", "after_sacrifice_fire", "aggressive_action", "best_condition", "blunted", "can_leave_zone",
           "condition_holds", "has_aggressive_action", "paralyzed", "turn_start_view", "two_order_aggressive"]

# The conditions and their OPP live in `conditions` (one table for the engine and the standings).
OVERPOWER_COUNT = 5  # R30
CRUSH_COUNT = 6
SHACKLE_COUNT = 3
RESOLVE_TURNS = 6  # R15, R38: three full turn cycles


# A written __init__: compiled by mypyc, unlike the generated one (see rules_engine/model.py).
@dataclass(frozen=True, slots=True, init=False)
class Check:
    holds: bool
    reason: str = ""

    def __init__(self, holds: bool, reason: str = "") -> None:
        object.__setattr__(self, "holds", holds)
        object.__setattr__(self, "reason", reason)

    def __bool__(self) -> bool:
        return self.holds


def _name(state: BattleState, battalion: int) -> str:
    return state.ids[battalion]


def paralyzed(state: BattleState, declarer: int) -> Check:
    """R12: the declarer's enemy is paralyzed."""
    enemy = 1 - declarer
    if state.prisons[declarer]:
        return Check(False, f"{PLAYERS[declarer]} holds {_name(state, state.prisons[declarer][0])} prisoner, so "
                            f"{PLAYERS[enemy]} can still extricate.")
    battalion = first_leaver(state, enemy)
    if battalion is not None:
        return Check(False, f"{PLAYERS[enemy]} is not paralyzed: {_name(state, battalion)} can still move out "
                            f"of {state.board.names[state.zone[battalion]]}.")
    return Check(True)


def _has_heavy(state: BattleState, declarer: int) -> bool:
    """R13: the declarer has a battalion of Arms 4+ on the battlefield or in the enemy's prison."""
    zones, arms = state.zone, state.arms
    destroys_at_arms = state.ruleset.destroys_at_arms
    for battalion in state.battalions_of[declarer]:
        if (zones[battalion] >= 0 or zones[battalion] == IN_PRISON) and destroys_at_arms[arms[battalion] - 1]:
            return True
    return False


def blunted(state: BattleState, declarer: int) -> Check:
    """R13: the declarer's enemy can take no aggressive action on their coming turn, and the
    declarer has a battalion of Arms 4+ on the battlefield or in the enemy's prison."""
    enemy = 1 - declarer
    if not _has_heavy(state, declarer):
        return Check(False, f"{PLAYERS[declarer]} has no battalion of Arms {state.ruleset.destroy_min_arms} or more, "
                            "which Blunt needs.")
    action = aggressive_action(state, enemy)
    if action is not None:
        return Check(False, f"{PLAYERS[enemy]} is not blunted: {action}.")
    return Check(True)


def _overpowers(state: BattleState, declarer: int) -> bool:
    return len(state.graveyards[declarer]) >= OVERPOWER_COUNT


def _crushes(state: BattleState, declarer: int) -> bool:
    return len(state.graveyards[declarer]) >= CRUSH_COUNT


def _shackles(state: BattleState, declarer: int) -> bool:
    return len(state.prisons[declarer]) >= SHACKLE_COUNT


def _paralyzes(state: BattleState, declarer: int) -> bool:
    return not state.prisons[declarer] and first_leaver(state, 1 - declarer) is None


def _blunts(state: BattleState, declarer: int) -> bool:
    return _has_heavy(state, declarer) and not has_aggressive_action(state, 1 - declarer)


# Whether each condition holds, without the reason: the same rules as `condition_holds`, no sentence
# built, Blunt's aggressive action looked for in any order. For the checks at every turn end (`missed`).
HOLDS = {Condition.OVERPOWER: _overpowers, Condition.CRUSH: _crushes, Condition.SHACKLE: _shackles,
         Condition.PARALYZE: _paralyzes, Condition.BLUNT: _blunts}


_BEST_FIRST_HOLDS = tuple((condition, HOLDS[condition]) for condition in BEST_FIRST)


def condition_holds(state: BattleState, declarer: int, condition: Condition) -> Check:
    """Whether the condition holds, with the reason a rejected claim shows (R34)."""
    graveyard = len(state.graveyards[declarer])
    enemy = PLAYERS[1 - declarer]
    if condition == Condition.OVERPOWER:
        return Check(_overpowers(state, declarer), f"Overpower needs {OVERPOWER_COUNT} of {enemy}'s battalions "
                                                   f"in {PLAYERS[declarer]}'s graveyard; there are {graveyard}.")
    if condition == Condition.CRUSH:
        return Check(_crushes(state, declarer), f"Crush needs {CRUSH_COUNT} of {enemy}'s battalions in "
                                                f"{PLAYERS[declarer]}'s graveyard; there are {graveyard}.")
    if condition == Condition.SHACKLE:
        return Check(_shackles(state, declarer), f"Shackle needs {SHACKLE_COUNT} of {enemy}'s battalions in "
                                                 f"{PLAYERS[declarer]}'s prison; there are "
                                                 f"{len(state.prisons[declarer])}.")
    if condition == Condition.PARALYZE:
        return paralyzed(state, declarer)
    if condition == Condition.BLUNT:
        return blunted(state, declarer)
    raise ValueError(f"{condition} is not declared")


def best_condition(state: BattleState, declarer: int, holding: Condition | None = None) -> Condition | None:
    """R10: the condition worth the most OPP that the declarer satisfies now. `holding` is one already
    known to hold (an accepted claim): only the better ones are looked at again."""
    for condition, condition_is_met in _BEST_FIRST_HOLDS:
        if condition == holding:
            return condition
        if condition_is_met(state, declarer):
            return condition
    return None
