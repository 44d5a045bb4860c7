"""Frost: Alight, Descend and Freeze, Snowblind (written on a move, R17), the marches, and Alight and
Descend in the Paralyze and Blunt searches (R12, R13, R65, R100)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...board import FACING_INDEX, FACINGS, NO_ZONE
from ...errors import Location, ReplayError
from ...model import PLAYERS, BattleArt
from .common import (
    HEAVY,
    SIX,
    after_art_move,
    aggressive_then,
    begin,
    check_enemy_facings,
    land,
    transforming,
)

if TYPE_CHECKING:
    import random

    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "frost"
# act -> Arms that may use it
ARMS = {"alight": SIX, "descend": SIX, "freeze": HEAVY}
FACING_ARTS: frozenset[str] = frozenset()  # no art of theirs depends on the battalion's facing
RAMPART_ARTS: frozenset[str] = frozenset()  # no art of theirs only raises a rampart (R103)


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
        raise ReplayError("impassable_terrain", f"{ident} cannot descend onto {state.variant.terrain[destination]}.",
                          location)
    run.require(1, location)
    land(run, destination, check_enemy_facings(run, action, destination, location))
    run.ma_left -= 1


def _cost_off_stack(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> int | None:
    """The fewest MA that leave `battalion` standing on nothing but the ground (0 when it already does),
    or None when its Maneuver cannot (R100: only then may it use a battle art)."""
    for event in state.explore(battalion, ma, hidden):
        if event.kind == "position" and not event.stacked:
            return ma - event.ma_left
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


def rampart_blind(state: BattleState, battalion: int) -> bool:
    """R103: a Frost battalion Snowblinds next to its general's ramparts and builds on to Alight: never blind."""
    return False


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    """R13 for a Frost battalion: Alight and Descend (`_alight_or_descend`, Arms 6), and, outside a
    search already nested in another, a rampart built on the way that opens a Snowblind or an Alight
    (`_build_then_go_on`, R13 "one it could build earlier in the same Maneuver", R17 amended)."""
    found = _alight_or_descend(ruleset, state, battalion, ma, hidden, nested) if state.arms[battalion] == 6 else None
    if found is None and not nested:
        found = _build_then_go_on(ruleset, state, battalion, ma, hidden)
    return found


def _build_then_go_on(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int,
                      hidden: frozenset[int]) -> str | None:
    """R13, R17 amended: from a place its Maneuver reaches (off any stack, R100), the battalion builds a
    rampart where Build reaches (next to it, or to a chain of own ramparts reaching it; 1 MA) and goes
    on: the rampart lets it Snowblind for 0 MA onto an empty zone next to the rampart that no own
    rampart touched before, or (Arms 6) Alight on it. Only such ramparts are
    tried: one that opens neither only blocks, and building and destroying it is the core search's
    ("destroy" of a "built" rampart). The search after the build builds nothing more."""
    kingdom = ruleset.rampart_kingdom(state, battalion)
    if kingdom is None:
        return None
    me = state.owner[battalion]
    build_cost = ruleset.build_cost
    unbuildable = ruleset.unbuildable(state, battalion) or frozenset()
    adjacent = state.board.adjacent
    stacks, ramparts = state.stacks, state.ramparts
    ids, names = state.ids, state.board.names
    alights = state.arms[battalion] == 6

    def opens(near: int, here: int) -> bool:
        if alights:
            return True
        return any(zone != here and ramparts[zone] is None and not [b for b in stacks[zone] if b != battalion]
                   and not any(ramparts[z] is not None and ramparts[z][0] == me for z in adjacent[zone])
                   for zone in adjacent[near])

    def buildable(here: int) -> set[int]:  # next to it, or to a chain of own ramparts reaching it (Build)
        chain = [z for z in adjacent[here] if ramparts[z] is not None and ramparts[z][0] == me]
        seen, found = set(chain), set(adjacent[here])
        while chain:
            current = chain.pop()
            for z in adjacent[current]:
                if ramparts[z] is not None and ramparts[z][0] == me:
                    if z not in seen:
                        seen.add(z)
                        chain.append(z)
                else:
                    found.add(z)
        return found

    # Positions worth building from: off any stack with the MA to build, and not dominated by a position
    # on the same zone that can turn to this facing and still have as much MA left (the search after the
    # build may turn too).
    best: dict[int, list[tuple[int, int]]] = {}
    for event in state.explore(battalion, ma, hidden, builds=False):
        if event.kind == "position" and not event.stacked and event.ma_left >= build_cost:
            best.setdefault(event.zone, []).append((event.facing, event.ma_left))
    starts = [(here, facing, left) for here, found in best.items() for facing, left in found
              if not any(other != facing and other_left - ruleset.face_cost(other, facing) >= left
                         for other, other_left in found)]
    for here, facing, left in starts:
        for near in sorted(buildable(here)):
            if near == here or near in unbuildable or ramparts[near] is not None or [
                    b for b in stacks[near] if b not in hidden and b != battalion] or not opens(near, here):
                continue
            view = state.copy()
            if here != view.zone[battalion]:
                view.remove_from_stack(battalion)
                view.stacks[here] = view.stacks[here] + (battalion,)
                view.zone[battalion] = here
            view.facing[battalion] = facing
            view.ramparts[near] = (me, kingdom)
            ruleset.take_rampart(view, me, kingdom)
            then = aggressive_then(view, battalion, left - build_cost, hidden)
            if then is None:
                found = _alight_or_descend(ruleset, view, battalion, left - build_cost, hidden, False) \
                    if alights else None
                if found is not None:
                    then = found.removeprefix(f"{ids[battalion]} can ")
            if then is not None:
                return f"{ids[battalion]} can build a rampart at {names[near]}, then {then}"
    return None


def _alight_or_descend(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
                       nested: bool) -> str | None:
    """Descend from the rampart it stands on, or Alight on an own rampart and Descend from it (1 MA
    each, R65): onto an enemy battalion that is an attack (R47); onto an empty or own zone the Maneuver
    goes on. Alight lands with any facing; before a Descend from where it stands it may turn for MA.
    An Alight may also be followed by the Destroy of a rampart next to it (Arms 6)."""
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


def generator_arts(state: BattleState, battalion: int, rng: random.Random) -> list[BattleArt]:
    """The written Frost arts the generator (`rules_engine.generator`) tries for this battalion now, with
    random fields; the engine decides which are legal."""
    names = state.board.names
    arts: list[BattleArt] = []
    own = [z for z, r in enumerate(state.ramparts) if r is not None and r[0] == state.owner[battalion]]
    if own:
        arts.append(BattleArt("alight", (("zone", names[rng.choice(own)]), ("facing", rng.choice(FACINGS)))))
    arts += [BattleArt("descend", (("to", rng.choice(FACINGS)),)), BattleArt("freeze")]
    return arts


def opening_arts(state: BattleState, battalion: int) -> list[BattleArt]:
    """R103, R84: the Frost arts (with each choice of their fields) that a first order of a double time turn
    may use, taking no aggressive action, to open the way for the second order; the engine decides which
    are legal where the battalion stands."""
    names = state.board.names
    me, here, arms = state.owner[battalion], state.zone[battalion], state.arms[battalion]
    if arms not in ARMS["alight"]:  # Alight and Descend are Arms 6's
        return [BattleArt("freeze")] if arms in ARMS["freeze"] else []
    arts = [BattleArt("alight", (("zone", names[zone]), ("facing", facing))) for zone, rampart in enumerate(state.ramparts)
            if rampart is not None and rampart[0] == me and zone != here and not state.stacks[zone] for facing in FACINGS]
    return arts + [BattleArt("descend", (("to", facing),)) for facing in FACINGS] + [BattleArt("freeze")]


HANDLERS = {"alight": alight, "descend": descend, "freeze": transforming("freeze", KINGDOM, ARMS["freeze"])}
