"""Sey: Surge, Undertow and Flood, the Water March, and Surge in the Blunt search (R13, R61, R62,
R106, R107)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import displace
from ...board import NO_ZONE
from ...errors import Location, ReplayError
from ...model import BattleArt
from .common import (
    ANY_ARMS,
    HEAVY,
    SIX,
    begin,
    direction_two_away,
    final,
    first_enemy_ahead,
    first_enemy_in_reach,
    spend_all,
    transforming,
    two_ahead,
)

if TYPE_CHECKING:
    import random

    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "sey"
# act -> Arms that may use it
ARMS = {"surge": SIX, "undertow": ANY_ARMS, "flood": HEAVY}
FACING_ARTS: frozenset[str] = frozenset()  # no art of theirs depends on the battalion's facing
RAMPART_ARTS: frozenset[str] = frozenset()  # no art of theirs only raises a rampart (R103)

UNDERTOW_DISTANCE = 2


def surge(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R61: a rout from a distance for 1 MA; the Maneuver goes on."""
    state = run.state
    board = state.board
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    here = state.zone[battalion]
    facing = state.facing[battalion]
    target_zone, rampart = first_enemy_ahead(state, battalion, here, facing)
    if rampart is not None:
        raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[rampart]} stands between "
                                                f"{state.ids[battalion]} and any enemy it could surge.", location)
    if target_zone is None:
        raise ReplayError("art_no_target", f"No enemy battalion stands ahead of {state.ids[battalion]} to surge.",
                          location)
    target = state.stacks[target_zone][-1]
    to = action.field("to")
    torment = action.field("torment")
    if torment and to != "off":  # R44, R106
        raise ReplayError("torment_needs_prisoner", "torment: true needs a Surge off the battlefield (a prisoner).",
                          location)
    if to == "off":
        if not board.on_edge[target_zone]:
            raise ReplayError("rout_not_at_edge", f"{state.ids[target]} at {board.names[target_zone]} is not on the "
                                                  "battlefield's edge and cannot be surged off it.", location)
        destination, pushed = NO_ZONE, None
    else:
        destination = state.zone_number(to, location)
        pushed = board.direction(target_zone, destination)
        if pushed is None:
            pushed = direction_two_away(state, target_zone, destination)
        if pushed is None:
            raise ReplayError("art_out_of_range", f"{to} is neither adjacent to {state.ids[target]} nor two zones "
                                                  "from it in a straight line.", location)
        if state.stacks[destination] or state.ramparts[destination] is not None:
            raise ReplayError("rout_zone_occupied", f"{state.ids[target]} cannot be surged onto {to}: it is "
                                                    "occupied.", location)
    into_ruin = state.variant.terrain is not None and state.ruleset.check_rout(state, target_zone, destination, location)
    run.require(1, location)
    state.aggressive_this_turn = True
    displace(state, target, destination, into_ruin, pushed, run.player)  # R107: the Stun
    if destination == NO_ZONE and torment:
        state.torment_prisoner(target, run.player)  # R6, R106
    run.ma_left -= 1


def undertow(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R62: pull the top-most enemy battalion two zones away in a straight line next to the
    battalion, facing away, stunned; onto any battalion between, without attacking."""
    state = run.state
    board = state.board
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    ident = action.field("target")
    target = state.battalion_number(ident, location)
    here = state.zone[battalion]
    target_zone = state.zone[target]
    if state.owner[target] == run.player or target_zone < 0 or state.stacks[target_zone][-1] != target:
        raise ReplayError("art_no_target", f"{ident} is not a top-most enemy battalion on the battlefield.", location)
    direction = direction_two_away(state, here, target_zone)
    if direction is None:
        raise ReplayError("art_out_of_range", f"{ident} is not two zones from {state.ids[battalion]} in a straight "
                                              "line.", location)
    middle = board.neighbours[here][direction]
    for zone in (middle, target_zone):
        if state.ramparts[zone] is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[zone]} stops the undertow.", location)
    if state.variant.terrain is not None and not state.ruleset.can_enter(state, target, middle):
        raise ReplayError("impassable_terrain", f"{ident} cannot be pulled onto {state.variant.terrain[middle]}.", location)
    final(run, "undertow", location)
    state.remove_from_stack(target)
    state.stacks[middle] = state.stacks[middle] + (target,)
    state.zone[target] = middle
    state.facing[target] = direction
    state.stun = target
    spend_all(run, "undertow")


def surge_possible(ruleset: CoreRuleset, state: BattleState, target_zone: int, hidden: frozenset[int]) -> bool:
    board = state.board
    if state.variant.terrain is not None and not ruleset.can_be_routed(state, target_zone):
        return False
    if board.on_edge[target_zone]:
        return True
    for direction in range(4):
        for zone in (board.neighbours[target_zone][direction], two_ahead(state, target_zone, direction)):
            if zone != NO_ZONE and state.ramparts[zone] is None and not [
                    b for b in state.stacks[zone] if b not in hidden] and (
                    state.variant.terrain is None or ruleset.rout_destination_ok(state, target_zone, zone)):
                return True
    return False


def can_leave(ruleset: CoreRuleset, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
              arms: int) -> bool:
    return False  # no Sey art moves the battalion itself


def rampart_blind(state: BattleState, battalion: int) -> bool:
    """R103: Surge (Arms 6) is the one Sey search (`aggressive`) a rampart changes."""
    return state.arms[battalion] != 6


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    """R13: a Surge (a rout from a distance, R61) the battalion (Arms 6, off any stack, R100) can reach."""
    if state.arms[battalion] != 6:
        return None
    found = first_enemy_in_reach(state, battalion, ma, hidden,
                                 lambda target_zone, _left: surge_possible(ruleset, state, target_zone, hidden))
    if found is None:
        return None
    target_zone, target = found
    return f"{state.ids[battalion]} can surge {state.ids[target]} at {state.board.names[target_zone]}"


def generator_arts(state: BattleState, battalion: int, rng: random.Random) -> list[BattleArt]:
    """The written Sey arts the generator (`rules_engine.generator`) tries for this battalion now, with
    random fields; the engine decides which are legal."""
    board = state.board
    names = board.names
    arts: list[BattleArt] = []
    far = [z for z in range(board.size) if not state.stacks[z] and state.ramparts[z] is None]
    target = rng.choice(far) if far else state.zone[battalion]
    arts.append(BattleArt("surge", (("to", "off" if rng.random() < 0.3 else names[target]),)))
    enemies = [b for b in range(len(state.ids)) if state.owner[b] != state.owner[battalion] and state.zone[b] >= 0]
    if enemies:
        arts.append(BattleArt("undertow", (("target", state.ids[rng.choice(enemies)]),)))
    arts.append(BattleArt("flood"))
    return arts


def opening_arts(state: BattleState, battalion: int) -> list[BattleArt]:
    """R103, R84: the Sey arts (with each choice of their fields) that a first order of a double time turn
    may use, taking no aggressive action, to open the way for the second order; the engine decides which
    are legal where the battalion stands."""
    here = state.zone[battalion]
    enemy = 1 - state.owner[battalion]
    arts = [BattleArt("undertow", (("target", state.ids[stack[-1]]),)) for zone, stack in enumerate(state.stacks)
            if stack and state.owner[stack[-1]] == enemy and direction_two_away(state, here, zone) is not None]
    return arts + [BattleArt("flood")] if state.arms[battalion] in ARMS["flood"] else arts  # Surge is aggressive


HANDLERS = {"surge": surge, "undertow": undertow, "flood": transforming("flood", KINGDOM, ARMS["flood"])}
