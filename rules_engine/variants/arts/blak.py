"""Blak: Mortar, Farshot, Chasm Forge and Devastate, the Crag March, Natural Architect, and Mortar and
Chasm Forge in the Paralyze and Blunt searches (R12, R13, R66, R67, R106, R108)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import must_descend
from ...board import NO_ZONE
from ...errors import Location, ReplayError
from ...model import BattleArt
from .common import (
    ANY_ARMS,
    HEAVY,
    SIX,
    after_art_move,
    art_places,
    begin,
    check_enemy_facings,
    final,
    ground,
    land,
    line,
    spend_all,
)

if TYPE_CHECKING:
    import random

    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "blak"
# act -> Arms that may use it
ARMS = {"mortar": SIX, "farshot": ANY_ARMS, "forge": ANY_ARMS, "devastate": HEAVY}
# The arts whose legality or effect depends on the battalion's facing (they act on the line ahead).
FACING_ARTS = frozenset(("mortar", "farshot", "forge"))
RAMPART_ARTS: frozenset[str] = frozenset()  # no art of theirs only raises a rampart (R103)

MORTAR, FARSHOT = 3, 1
MORTAR_RANGE, FARSHOT_RANGE = 3, 4
FORGE_COST = 5


def mortar(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    board = state.board
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    zone = state.zone_number(action.field("zone"), location)
    path = list(line(state, state.zone[battalion], state.facing[battalion], MORTAR_RANGE))
    if zone not in path:
        raise ReplayError("art_out_of_range", f"{board.names[zone]} is not 1 to {MORTAR_RANGE} zones ahead of "
                                              f"{state.ids[battalion]}.", location)
    if state.ramparts[zone] is None:  # R108: any zone in range, an empty one too
        between = next((z for z in path[:path.index(zone)] if state.ramparts[z] is not None), None)
        if between is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[between]} stands between "
                                                    f"{state.ids[battalion]} and {board.names[zone]}.", location)
    run.require(1, location)
    if state.ramparts[zone] is not None:
        state.remove_top_rampart(zone)  # R59: a battalion on it is not reached
        state.aggressive_this_turn = True
    else:
        for target in state.stacks[zone]:  # the whole stack (R66)
            state.reduce_arms(target, MORTAR, vigor_protects=True)
    run.ma_left -= 1


def farshot(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    for zone in line(state, state.zone[battalion], state.facing[battalion], FARSHOT_RANGE):
        if state.ramparts[zone] is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {state.board.names[zone]} stops the farshot.",
                              location)
        if state.stacks[zone]:
            final(run, "farshot", location)
            state.reduce_arms(state.stacks[zone][-1], FARSHOT, vigor_protects=True)
            spend_all(run, "farshot")
            return
    raise ReplayError("art_no_target", f"No battalion stands within {FARSHOT_RANGE} zones ahead of "
                                       f"{state.ids[battalion]}.", location)


def forge(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """Chasm Forge (R67): 5 MA across the chasm ahead, landing like a move, facing kept."""
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    begin(run, action, location, KINGDOM, ARMS[action.act])
    here = state.zone[battalion]
    must_descend(state, battalion, location)
    facing = state.facing[battalion]
    ahead = state.board.neighbours[here][facing]
    if ahead == NO_ZONE or state.variant.terrain is None or state.variant.terrain[ahead] != "chasm":
        raise ReplayError("art_wrong_terrain", f"{ident} must face a chasm from the zone next to it to forge it.",
                          location)
    beyond = state.board.neighbours[ahead][facing]
    if beyond == NO_ZONE:
        raise ReplayError("off_board", f"The far side of the chasm ahead of {ident} is off the battlefield.",
                          location)
    if state.ramparts[beyond] is not None:
        raise ReplayError("blocked_by_rampart", f"A rampart stands on {state.board.names[beyond]}.", location)
    if not state.ruleset.can_enter(state, battalion, beyond):
        raise ReplayError("impassable_terrain", f"{ident} cannot land on {state.variant.terrain[beyond]}.", location)
    run.require(FORGE_COST, location)
    land(run, beyond, check_enemy_facings(run, action, beyond, location))
    run.ma_left -= FORGE_COST


def devastate(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    begin(run, action, location, KINGDOM, ARMS[action.act])
    here = ground(run, "crag" if state.ground(run.battalion) == "crag" else None, "devastate", location)
    final(run, "devastate", location)
    affected = [here] + [z for z in state.board.adjacent[here]
                         if state.variant.terrain[z] in (None, "crag") and state.ramparts[z] is None]
    obliterated = []
    for zone in affected:
        if state.variant.terrain[zone] == "crag":
            state.variant.terrain[zone] = "chasm"
            obliterated.append(zone)
        else:
            state.variant.terrain[zone] = "crag"
    for zone in obliterated:
        for victim in state.stacks[zone]:
            state.slaughter(victim, 1 - state.owner[victim])
    spend_all(run, "devastate")


def forge_landing(ruleset: CoreRuleset, state: BattleState, battalion: int, zone: int, facing: int) -> int | None:
    """Chasm Forge (R67) from `zone` facing `facing`: the zone beyond the chasm ahead that the battalion
    would land on, or None (terrain elected)."""
    neighbours = state.board.neighbours
    ahead = neighbours[zone][facing]
    if ahead == NO_ZONE or state.variant.terrain[ahead] != "chasm":
        return None
    beyond = neighbours[ahead][facing]
    if beyond == NO_ZONE or state.ramparts[beyond] is not None or not ruleset.can_enter(state, battalion, beyond):
        return None
    return beyond


def can_leave(ruleset: CoreRuleset, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
              arms: int) -> bool:
    """R12: Chasm Forge across the chasm ahead (5 MA, terrain elected) moves the battalion out of its zone."""
    where = state.zone[battalion]
    if state.variant.terrain is None or best_ma < FORGE_COST or state.ramparts[where] is not None:
        return False
    return any(forge_landing(ruleset, state, battalion, where, facing) is not None for facing in facings)


def rampart_blind(state: BattleState, battalion: int) -> bool:
    """R103: a Mortar (Arms 6) and a Chasm Forge (terrain) are the Blak searches that a rampart changes."""
    return state.arms[battalion] != 6 and state.variant.terrain is None


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    """R13: a Mortar on a rampart (Arms 6), or a Chasm Forge landing on an enemy or followed by an aggressive
    action, within the battalion's Maneuver (off any stack, R100)."""
    ident = state.ids[battalion]
    names = state.board.names
    me = state.owner[battalion]
    mortar_arms = state.arms[battalion] == 6
    for place in art_places(state, battalion, ma, hidden):
        zone, facing, left = place.zone, place.facing, place.ma_left
        if mortar_arms:
            for place in line(state, zone, facing, MORTAR_RANGE):
                if state.ramparts[place] is not None:
                    return f"{ident} can destroy the rampart at {names[place]} with a mortar"
        if left >= FORGE_COST and state.variant.terrain is not None:
            beyond = forge_landing(ruleset, state, battalion, zone, facing)
            if beyond is not None:
                stack = [b for b in state.stacks[beyond] if b not in hidden]
                if stack and state.owner[stack[-1]] != me:
                    return f"{ident} can forge the chasm and attack {state.ids[stack[-1]]} at {names[beyond]}"
                found = after_art_move(ruleset, state, battalion, beyond, ((facing, 0),), left - FORGE_COST, hidden,
                                       f"forge the chasm at {names[state.board.neighbours[zone][facing]]}")
                if found is not None:
                    return found
    return None


def generator_arts(state: BattleState, battalion: int, rng: random.Random) -> list[BattleArt]:
    """The written Blak arts the generator (`rules_engine.generator`) tries for this battalion now, with
    random fields; the engine decides which are legal."""
    board = state.board
    return [BattleArt("mortar", (("zone", board.names[rng.randrange(board.size)]),)), BattleArt("farshot"),
            BattleArt("forge"), BattleArt("devastate")]


def opening_arts(state: BattleState, battalion: int) -> list[BattleArt]:
    """R103, R84: the Blak arts (with each choice of their fields) that a first order of a double time turn
    may use, taking no aggressive action, to open the way for the second order; the engine decides which
    are legal where the battalion stands."""
    names = state.board.names
    here, facing, arms = state.zone[battalion], state.facing[battalion], state.arms[battalion]
    arts = [BattleArt("mortar", (("zone", names[zone]),)) for zone in line(state, here, facing, MORTAR_RANGE)
            if state.stacks[zone] and state.ramparts[zone] is None] if arms in ARMS["mortar"] else []
    ahead = state.board.neighbours[here][facing]
    facing_a_chasm = state.variant.terrain is not None and ahead >= 0 and state.variant.terrain[ahead] == "chasm"
    return arts + [BattleArt(act) for act in ("farshot", "forge", "devastate")
                   if arms in ARMS[act] and (act != "forge" or facing_a_chasm)]


HANDLERS = {"mortar": mortar, "farshot": farshot, "forge": forge, "devastate": devastate}
