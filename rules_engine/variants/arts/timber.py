"""Timber: Flourish, Overgrow and Forestry, the Forest March, Natural Architect and Harvest (R63)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import connected, destroy, place_rampart, raise_rampart, rampart_left
from ...errors import Location, ReplayError
from ...model import BattleArt
from .common import (
    ANY_ARMS,
    HEAVY,
    SIX,
    begin,
    transforming,
)

if TYPE_CHECKING:
    import random

    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "timber"
# act -> Arms that may use it
ARMS = {"flourish": SIX, "overgrow": ANY_ARMS, "forestry": HEAVY}
FACING_ARTS: frozenset[str] = frozenset()  # no art of theirs depends on the battalion's facing
# R103: Flourish and Overgrow change nothing but one rampart on their `zone` (one fewer left to build).
RAMPART_ARTS = frozenset(("flourish", "overgrow"))

HARVEST_ARMS = HEAVY


def flourish(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R63: 1 MA, a rampart on any empty zone the terrain allows."""
    state = run.state
    begin(run, action, location, KINGDOM, ARMS[action.act])
    zone = state.zone_number(action.field("zone"), location)
    if state.stacks[zone] or state.ramparts[zone] is not None:
        raise ReplayError("zone_occupied", f"{state.board.names[zone]} is occupied; a rampart needs an empty zone.",
                          location)
    place_rampart(run, zone, rampart_left(run, location), location)


def overgrow(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R63: a rampart on top of a rampart: an own one within building reach, an enemy's adjacent."""
    state = run.state
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    zone = state.zone_number(action.field("zone"), location)
    name = state.board.names[zone]
    rampart = state.ramparts[zone]
    if rampart is None:
        raise ReplayError("no_rampart", f"There is no rampart at {name} to overgrow.", location)
    if state.stacks[zone]:
        raise ReplayError("zone_occupied", f"A battalion stands on the rampart at {name}.", location)
    kingdom = rampart_left(run, location)
    here = state.zone[battalion]
    if rampart[0] == run.player:
        if not connected(state, run.player, here, zone):
            raise ReplayError("build_not_connected", f"{name} is neither adjacent to {state.ids[battalion]} nor to a "
                                                     "chain of its general's ramparts reaching it.", location)
    elif zone not in state.board.adjacent[here]:
        raise ReplayError("build_not_connected", f"An enemy rampart is overgrown only from an adjacent zone; {name} "
                                                 f"is not adjacent to {state.ids[battalion]}.", location)
    raise_rampart(run, zone, kingdom, location)
    state.variant.overgrown[zone] = state.variant.overgrown.get(zone, ()) + (rampart,)


def harvesting_destroy(run: ManeuverRun, action, location: Location) -> None:
    """Destroy, with Harvest: a Timber battalion of Arms 4-6 reclaims its own general's rampart."""
    state = run.state
    battalion = run.battalion
    zone = state.board.index.get(action.zone)
    rampart = state.ramparts[zone] if zone is not None else None
    destroy(run, action, location)
    if (rampart is not None and rampart[0] == run.player and state.kingdom[battalion] == "timber"
            and state.arms[battalion] in HARVEST_ARMS):
        state.ruleset.give_back_rampart(state, run.player, rampart[1])


def can_leave(ruleset: CoreRuleset, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
              arms: int) -> bool:
    return False  # no Timber art moves the battalion


def rampart_blind(state: BattleState, battalion: int) -> bool:
    """R103: no Timber art is aggressive (`aggressive`), whatever the ramparts."""
    return True


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    return None  # building by Flourish or Overgrow is no aggressive action; Destroy is the core's


def generator_arts(state: BattleState, battalion: int, rng: random.Random) -> list[BattleArt]:
    """The written Timber arts the generator (`rules_engine.generator`) tries for this battalion now, with
    random fields; the engine decides which are legal."""
    board = state.board
    names = board.names
    return [BattleArt("flourish", (("zone", names[rng.randrange(board.size)]),)),
            BattleArt("overgrow", (("zone", names[rng.choice(board.adjacent[state.zone[battalion]])]),)),
            BattleArt("forestry")]


def opening_arts(state: BattleState, battalion: int) -> list[BattleArt]:
    """R103, R84: the Timber arts (with each choice of their fields) that a first order of a double time turn
    may use, taking no aggressive action, to open the way for the second order; the engine decides which
    are legal where the battalion stands."""
    names = state.board.names
    arms = state.arms[battalion]
    if state.ruleset.rampart_kingdom(state, battalion) is None:  # Flourish and Overgrow need a rampart left
        return [BattleArt("forestry")] if arms in ARMS["forestry"] else []
    arts = [BattleArt("flourish", (("zone", names[zone]),)) for zone, stack in enumerate(state.stacks)
            if not stack and state.ramparts[zone] is None] if arms in ARMS["flourish"] else []
    arts += [BattleArt("overgrow", (("zone", names[zone]),)) for zone, rampart in enumerate(state.ramparts)
             if rampart is not None and not state.stacks[zone]]
    return arts + [BattleArt("forestry")] if arms in ARMS["forestry"] else arts


HANDLERS = {"flourish": flourish, "overgrow": overgrow,
            "forestry": transforming("forestry", KINGDOM, ARMS["forestry"])}
