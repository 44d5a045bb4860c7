"""Frost: Alight, Descend and Freeze, Snowblind (written on a move, R17), the marches, and Alight and
Descend in the Paralyze and Blunt searches (R12, R13, R65, R100)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...board import FACING_INDEX, NO_ZONE
from ...errors import Location, ReplayError
from ...model import PLAYERS, BattleArt
from .common import (
    HEAVY,
    SIX,
    after_art_move,
    begin,
    check_enemy_facings,
    land,
    transforming,
)

if TYPE_CHECKING:
    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "frost"
# act -> Arms that may use it
ARMS = {"alight": SIX, "descend": SIX, "freeze": HEAVY}


def alight(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    zone = state.zone_number(action.field("zone"), location)
    rampart = state.ramparts[zone]
    if rampart is None or rampart[0] != run.player:
        raise ReplayError("art_no_target", f"There is no rampart of {PLAYERS[run.player]}'s at "
                                           f"{state.board.names[zone]} to alight on.", location)
    if state.stacks[zone] and state.stacks[zone] != (battalion,):
        raise ReplayError("zone_occupied", f"The rampart at {state.board.names[zone]} is already topped by a "
                                           "battalion.", location)
    run.require(1, location)
    check_enemy_facings(run, action, zone, location)  # R106: it never lands on an enemy battalion
    state.remove_from_stack(battalion)
    state.stacks[zone] = (battalion,)
    state.zone[battalion] = zone
    state.facing[battalion] = FACING_INDEX[action.field("facing")]
    run.ma_left -= 1


def descend(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R65: 1 MA down to the adjacent zone in direction `to`, terrain costs ignored, facing kept;
    onto enemy battalions it attacks them as a move does (R8)."""
    state = run.state
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    here = state.zone[battalion]
    ident = state.ids[battalion]
    if state.ramparts[here] is None:
        raise ReplayError("art_no_target", f"{ident} does not stand on a rampart, so it cannot descend.", location)
    destination = state.board.neighbours[here][FACING_INDEX[action.field("to")]]
    if destination == NO_ZONE:
        raise ReplayError("off_board", f"{ident} cannot descend off the battlefield.", location)
    if state.ramparts[destination] is not None:
        raise ReplayError("blocked_by_rampart", f"{ident} cannot descend onto the rampart at "
                                                f"{state.board.names[destination]}; Alight reaches ramparts.", location)
    if not state.ruleset.can_enter(state, battalion, destination):
        raise ReplayError("impassable_terrain", f"{ident} cannot descend onto {state.terrain[destination]}.",
                          location)
    run.require(1, location)
    land(run, destination, check_enemy_facings(run, action, destination, location))
    run.ma_left -= 1


def _cost_off_stack(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> int | None:
    """The fewest MA that leave `battalion` standing on nothing but the ground (0 when it already does),
    or None when its Maneuver cannot (R100: only then may it use a battle art)."""
    for event in state.explore(battalion, ma, hidden):
        if event[0] == "position" and not event[4]:
            return ma - event[3]
    return None


def can_leave(ruleset: CoreRuleset, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
              arms: int) -> bool:
    """R12: Descend from the rampart it stands on, or Alight on a free own rampart elsewhere (Arms 6)."""
    if arms != 6:
        return False
    where = state.zone[battalion]
    if state.ramparts[where] is not None and any(
            state.ramparts[z] is None and ruleset.can_enter(state, battalion, z) for z in state.board.adjacent[where]):
        return True  # Descend
    return any(r is not None and r[0] == state.owner[battalion] and z != where and not state.stacks[z]
               for z, r in enumerate(state.ramparts))  # Alight


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    """Descend from the rampart it stands on, or Alight on an own rampart and Descend from it (1 MA
    each, R65): onto an enemy battalion that is an attack (R47); onto an empty or own zone the Maneuver
    goes on. Alight lands with any facing; before a Descend from where it stands it may turn for MA.
    An Alight may also be followed by the Destroy of a rampart next to it (Arms 6)."""
    if state.arms[battalion] != 6:
        return None
    ident = state.ids[battalion]
    names = state.board.names
    adjacent = state.board.adjacent
    me = state.owner[battalion]
    where = state.zone[battalion]
    facing = state.facing[battalion]
    turns = [(f, ruleset.face_cost(facing, f) if f != facing else 0) for f in range(4)]
    free_facing = [(f, 0) for f in range(4)]
    descents = []  # (how, from rampart, facings and their MA, MA left on landing)
    if state.ramparts[where] is not None:
        descents.append(("descend", where, turns, ma - 1))
    if not nested:  # a second Alight in the Maneuver reaches nothing the first could not
        # R100: from a stack it first moves off (the cheapest way), then alights.
        off_stack = _cost_off_stack(state, battalion, ma, hidden)
        for zone, rampart in enumerate(state.ramparts):
            if off_stack is None or rampart is None or rampart[0] != me or zone == where or [
                    b for b in state.stacks[zone] if b not in hidden]:
                continue
            left = ma - off_stack - 1
            for near in adjacent[zone]:  # Alight with a free facing, then Destroy (Arms 6)
                other = state.ramparts[near]
                if other is not None and left >= 0 and ruleset.destroy_cost(state.kingdom[battalion],
                                                                         other[1]) <= left:
                    return f"{ident} can alight on {names[zone]} and destroy the rampart at {names[near]}"
            descents.append((f"alight on {names[zone]} and descend", zone, free_facing, left - 1))
    for how, rampart_zone, facings, left in descents:
        if left < 0:
            continue
        for near in adjacent[rampart_zone]:
            if state.ramparts[near] is not None or not ruleset.can_enter(state, battalion, near):
                continue
            stack = [b for b in state.stacks[near] if b not in hidden]
            if stack and state.owner[stack[-1]] != me:
                return f"{ident} can {how} onto {state.ids[stack[-1]]} at {names[near]}"
            found = after_art_move(ruleset, state, battalion, near, facings, left, hidden, f"{how} to {names[near]}")
            if found is not None:
                return found
    return None


HANDLERS = {"alight": alight, "descend": descend, "freeze": transforming("freeze", KINGDOM, ARMS["freeze"])}
