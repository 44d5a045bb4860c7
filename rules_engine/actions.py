"""The Core Rules' Maneuver Actions: move (attack), face, rout, build, destroy.

Each handler checks everything first and changes the battle only when the action is legal, so a
refused action leaves the state as it was. The ruleset maps action names to these handlers; a
variant adds its battle arts to that table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FACING_INDEX, FACINGS, NO_ZONE
from .constants import IN_PRISON, NOBODY
from .errors import Location, ReplayError
from .model import PLAYERS, Build, Destroy, Face, Move, Rout

if TYPE_CHECKING:
    from .state import BattleState, ManeuverRun


def _stacked_only_move(run: ManeuverRun, what: str, location: Location) -> None:
    state = run.state
    if len(state.stacks[state.zone[run.battalion]]) > 1:
        raise ReplayError("stacked_only_move", f"{state.ids[run.battalion]} is stacked on another battalion and "
                                               f"can only move, not {what} (R8, R28).", location)


def must_descend(state: BattleState, battalion: int, location: Location) -> None:
    """A battalion on a rampart (Alight) leaves it only by Descend."""
    if state.ramparts[state.zone[battalion]] is not None:
        raise ReplayError("must_descend", f"{state.ids[battalion]} stands on a rampart; only Descend takes it down.",
                          location)


def move(run: ManeuverRun, action: Move, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    here = state.zone[battalion]
    ahead = state.board.neighbours[here][state.facing[battalion]]
    if ahead == NO_ZONE:
        raise ReplayError("off_board", f"{ident} faces the edge at {state.board.names[here]} and cannot move "
                                       "off the battlefield.", location)
    name = state.board.names[ahead]
    if state.ramparts[ahead] is not None:
        raise ReplayError("blocked_by_rampart", f"{ident} cannot move onto the rampart at {name}.", location)
    must_descend(state, battalion, location)
    if not state.ruleset.can_enter(state, battalion, ahead):
        raise ReplayError("impassable_terrain", f"{ident} cannot move onto {name}: no battalion moves onto "
                                                f"{state.variant.terrain[ahead]}.", location)  # type: ignore[index]
    ruleset = state.ruleset
    if action.snowblind:  # R17: a choice written on the move
        if not ruleset.has_arts:
            raise ReplayError("variant_not_elected", "Snowblind is a battle art; this battle did not elect the "
                                                     "battle_arts variant.", location)
        if state.kingdom[battalion] != "frost":
            raise ReplayError("art_wrong_kingdom", f"Snowblind is a battle art of frost; {ident} is of "
                                                   f"{state.kingdom[battalion]}.", location)
        if not ruleset.snowblind_allowed(state, battalion, ahead):
            raise ReplayError("art_no_target", f"Snowblind needs an empty zone next to one of {PLAYERS[run.player]}'s "
                                               f"ramparts; {name} is not one (R17).", location)
        cost = 0
    else:
        cost = ruleset.plain_move_cost(state, battalion, ahead)
    run.require(cost, location)
    # The facings are checked against the attack's outcome, so work that out before changing anything.
    facings = action.enemy_facings or ()
    if facings:
        survivor = predict_survivor(state, battalion, ahead)
        for target_id, _facing in facings:
            if survivor is None or state.ids[survivor] != target_id:
                raise ReplayError("bad_enemy_facing", f"enemy_facings names {target_id}, which does not survive an "
                                                      f"attack of this move.", location)
    state.remove_from_stack(battalion)
    stack = state.stacks[ahead]
    attacks = bool(stack) and state.owner[stack[-1]] != run.player
    state.attack_down(battalion, ahead)
    if attacks:
        run.attacked = True
    for target_id, facing in facings:
        state.facing[state.index[target_id]] = FACING_INDEX[facing]  # R7
    run.ma_left -= cost


def predict_survivor(state, battalion: int, zone: int, skip_top: bool = False) -> int | None:
    """The enemy battalion that would survive the attack chain of a move onto `zone` (R8); with
    `skip_top` the top one is slaughtered first whatever its Arms (Pounce, R60)."""
    me = state.owner[battalion]
    strength = state.arms[battalion]
    vigor_left = state.ruleset.vigor_cap - state.vigor_lost
    stack = state.stacks[zone][:-1] if skip_top else state.stacks[zone]
    for target in reversed(stack):
        if state.owner[target] == me:
            return None
        loss = min(strength, vigor_left) if state.vigor == target else strength
        if state.arms[target] - loss > 0:
            return target
    return None


def face(run: ManeuverRun, action: Face, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    stack = state.stacks[state.zone[battalion]]
    if len(stack) > 1:
        if not run.faces_only or state.owner[stack[-2]] != run.player:
            _stacked_only_move(run, "change facing", location)  # R5: not even a Stall turns it on an enemy
        if run.unless_stall is None:
            run.unless_stall = ReplayError("stacked_only_move", f"{ident} is stacked on another battalion and can "
                                                                "only move, not change facing, in a Maneuver that is "
                                                                "not a Stall (R5, R8, R28).", location)
    current = state.facing[battalion]
    wanted = FACING_INDEX[action.to]
    if wanted == current:
        raise ReplayError("facing_unchanged", f"{ident} already faces {action.to}; a face action "
                                              "must change the facing (R29).", location)
    cost = state.ruleset.face_cost(current, wanted)
    if cost > run.ma_left and run.faces_only:
        # R5: a Maneuver of face actions only is a Stall and its MA are not counted.
        if run.unless_stall is None:
            run.unless_stall = ReplayError("not_enough_ma", f"{ident} has {max(run.ma_left, 0)} MA left; this "
                                                            f"action costs {cost}.", location)
    else:
        run.require(cost, location)
    state.facing[battalion] = wanted
    run.ma_left -= cost


def rout(run: ManeuverRun, action: Rout, location: Location) -> None:
    state = run.state
    board = state.board
    battalion = run.battalion
    ident = state.ids[battalion]
    _stacked_only_move(run, "rout", location)
    target = state.battalion_number(action.target, location)
    if state.owner[target] == run.player:
        raise ReplayError("rout_target_not_enemy", f"{action.target} is on {PLAYERS[run.player]}'s own side; "
                                                   "only an enemy battalion can be routed.", location)
    target_zone = state.zone[target]
    if target_zone < 0:
        raise ReplayError("not_on_battlefield", f"{action.target} is not on the battlefield.", location)
    here = state.zone[battalion]
    if board.neighbours[here][state.facing[battalion]] != target_zone:
        raise ReplayError("rout_not_facing", f"{ident} must face {action.target} from an adjacent zone to rout it "
                                             f"({ident} is at {board.names[here]} facing "
                                             f"{FACINGS[state.facing[battalion]]}, {action.target} at "
                                             f"{board.names[target_zone]}).", location)
    if state.stacks[target_zone][-1] != target:
        raise ReplayError("rout_target_not_top", f"{action.target} is beneath another battalion; only the top-most "
                                                 "battalion of a stack can be routed.", location)
    if state.ramparts[target_zone] is not None:
        raise ReplayError("blocked_by_rampart", f"{action.target} stands on a rampart; it must be destroyed before "
                                                f"{action.target} can be routed.", location)
    if run.ma_left < 1:
        raise ReplayError("not_enough_ma", f"{ident} has 0 MA left; a Rout needs at least 1.", location)
    if action.to == "off":  # R31: whenever the target's zone touches the edge
        if not board.on_edge[target_zone]:
            raise ReplayError("rout_not_at_edge", f"{action.target} at {board.names[target_zone]} is not on the "
                                                  "battlefield's edge and cannot be routed off it.", location)
        destination = NO_ZONE
    else:
        destination = state.zone_number(action.to, location)
        if destination not in board.adjacent[target_zone]:
            raise ReplayError("rout_zone_not_adjacent", f"{action.to} is not adjacent to {action.target} at "
                                                        f"{board.names[target_zone]}.", location)
        if state.stacks[destination] or state.ramparts[destination] is not None:
            raise ReplayError("rout_zone_occupied", f"{action.target} cannot be routed onto {action.to}: it is "
                                                    "occupied.", location)
        if action.torment:  # R44
            raise ReplayError("torment_needs_prisoner", "torment: true needs a rout off the battlefield (a "
                                                        "prisoner).", location)
    into_ruin = state.variant.terrain is not None and state.ruleset.check_rout(state, target_zone, destination, location)
    state.aggressive_this_turn = True
    run.ma_left = 0
    run.routed = True
    pushed = None if destination == NO_ZONE else board.direction(target_zone, destination)  # R31: pushed this way
    displace(state, target, destination, into_ruin, pushed, run.player)
    if destination == NO_ZONE and action.torment:
        state.torment_prisoner(target, run.player)  # R6


def displace(state: BattleState, target: int, destination: int, into_ruin: bool, pushed: int | None,
             player: int) -> None:
    """The aftermath of a rout (R31) or a Surge (R61) by `player`: `target` leaves its stack and its
    Sacrifice token. Off the battlefield (`destination` NO_ZONE) it is a prisoner without a Stun token,
    Vigor staying on the battlefield (R3); onto chasm or cliffside (`into_ruin`) it is slaughtered there;
    else it lands facing `pushed` with the single Stun token (R3)."""
    state.remove_from_stack(target)
    if state.sacrifice[state.owner[target]] == target:
        state.sacrifice[state.owner[target]] = NOBODY
    if destination == NO_ZONE or into_ruin:
        # R107: the Stun goes to the last battalion routed; taken prisoner or slaughtered, it takes none,
        # and an earlier one routed this turn keeps none either.
        if state.routed_stun != NOBODY and state.stun == state.routed_stun:
            state.stun = NOBODY
        state.routed_stun = NOBODY
    if destination == NO_ZONE:
        state.leave_battlefield(target)
        state.zone[target] = IN_PRISON
        state.prisons[player] = state.prisons[player] + (target,)
        return
    state.stacks[destination] = state.stacks[destination] + (target,)
    state.zone[target] = destination
    if into_ruin:
        state.slaughter(target, player)
    else:
        state.facing[target] = pushed  # type: ignore[assignment]  # landing on the battlefield: a facing
        state.stun = target
        state.routed_stun = target


def build(run: ManeuverRun, action: Build, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    _stacked_only_move(run, "build", location)
    zone = state.zone_number(action.zone, location)
    if state.stacks[zone] or state.ramparts[zone] is not None:
        raise ReplayError("zone_occupied", f"{action.zone} is occupied; a rampart needs an empty zone.", location)
    kingdom = rampart_left(run, location)
    if not connected(state, run.player, state.zone[battalion], zone):
        raise ReplayError("build_not_connected", f"{action.zone} is neither adjacent to {state.ids[battalion]} nor "
                                                 "to a chain of its general's ramparts reaching it.", location)
    place_rampart(run, zone, kingdom, location)


def rampart_left(run: ManeuverRun, location: Location) -> str:
    """The kingdom of the rampart this battalion builds (R40, R53), or refuse when none is left."""
    state = run.state
    kingdom = state.ruleset.rampart_kingdom(state, run.battalion)
    if kingdom is None:
        whose = (f"no rampart of {state.kingdom[run.battalion]} left" if state.variant.rampart_pool is not None
                 else "no rampart left")
        raise ReplayError("no_ramparts_left", f"{PLAYERS[run.player]} has {whose} to build.", location)
    return kingdom


def place_rampart(run: ManeuverRun, zone: int, kingdom: str, location: Location) -> None:
    """Pay for and place one rampart on `zone` (already found free and within reach)."""
    state = run.state
    unbuildable = state.ruleset.unbuildable(state, run.battalion)
    if unbuildable is not None and zone in unbuildable:
        raise ReplayError("terrain_forbids_build", f"{state.ids[run.battalion]} cannot build a rampart on "
                                                   f"{state.variant.terrain[zone]} at {state.board.names[zone]}.",  # type: ignore[index]
                          location)
    raise_rampart(run, zone, kingdom, location)


def raise_rampart(run: ManeuverRun, zone: int, kingdom: str, location: Location) -> None:
    """Pay the build cost and put the general's rampart of `kingdom` on top of `zone` (R40)."""
    state = run.state
    run.require(state.ruleset.build_cost, location)
    state.ramparts[zone] = (run.player, kingdom)  # R40
    state.ruleset.take_rampart(state, run.player, kingdom)
    run.ma_left -= state.ruleset.build_cost


def connected(state, player: int, origin: int, zone: int) -> bool:
    """Whether `zone` touches `origin` or an own rampart chained (through own ramparts) to it."""
    return zone in state.board.adjacent[origin] or zone in connected_zones(state, player, origin)


def connected_zones(state, player: int, origin: int) -> set[int]:
    """The zones `connected` to `origin`: those touching it or an own rampart chained to it."""
    adjacent = state.board.adjacent
    ramparts = state.ramparts
    found = set(adjacent[origin])
    frontier = [z for z in adjacent[origin] if ramparts[z] is not None and ramparts[z][0] == player]
    seen = set(frontier)
    while frontier:
        current = frontier.pop()
        found.update(adjacent[current])
        for nearby in adjacent[current]:
            if nearby not in seen and ramparts[nearby] is not None and ramparts[nearby][0] == player:
                seen.add(nearby)
                frontier.append(nearby)
    return found


def destroy(run: ManeuverRun, action: Destroy, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    _stacked_only_move(run, "destroy a rampart", location)
    if not state.ruleset.can_destroy(state.arms[battalion]):
        raise ReplayError("arms_too_low", f"{ident} has Arms {state.arms[battalion]}; destroying a rampart needs "
                                          f"Arms {state.ruleset.destroy_min_arms} or more.", location)
    zone = state.zone_number(action.zone, location)
    ahead = state.board.neighbours[state.zone[battalion]][state.facing[battalion]]
    if zone != ahead:
        raise ReplayError("destroy_not_ahead", f"{ident} can only destroy the rampart in the zone ahead of it, not "
                                               f"at {action.zone}.", location)
    rampart = state.ramparts[zone]
    if rampart is None:
        raise ReplayError("no_rampart", f"There is no rampart at {action.zone}.", location)
    cost = state.ruleset.destroy_cost(state.kingdom[battalion], rampart[1])  # R40
    run.require(cost, location)
    state.remove_top_rampart(zone)  # removed from play for good: it does not return to its general
    state.aggressive_this_turn = True
    run.ma_left -= cost


CORE_ACTIONS = {"move": move, "face": face, "rout": rout, "build": build, "destroy": destroy}
