"""What the battle arts of the five kingdoms share: checking an art may be used, spending MA, the
lines and reach of ranged arts, terrain transformations, landing on a zone (R8, R106), and the search
on from where an art moved a battalion (R13)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ...actions import predict_survivor
from ...board import FACING_INDEX, NO_ZONE
from ...errors import Location, ReplayError
from ...model import BattleArt

if TYPE_CHECKING:
    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun, Position

ANY_ARMS = frozenset(range(1, 7))
HEAVY = frozenset((4, 5, 6))
SIX = frozenset((6,))
# Terrain each transforming art needs underfoot, and what it (and the like terrain next to it) becomes.
TRANSFORMS = {"melt": ("ice", "waterbody"), "freeze": ("waterbody", "ice"), "flood": ("valley", "waterbody"),
              "forestry": (None, "forest")}


def check_enemy_facings(run: ManeuverRun, action: BattleArt, zone: int, location: Location,
                         pounce: bool = False) -> tuple:
    """R106: `enemy_facings` of an art that lands on `zone` names only the attacked enemy battalion that
    survives (a Pounce slaughters the top one outright and attacks on down, R60)."""
    facings = action.field("enemy_facings") or ()
    if facings:
        survivor = predict_survivor(run.state, run.battalion, zone, skip_top=pounce)
        for target_id, _facing in facings:
            if survivor is None or run.state.ids[survivor] != target_id:
                raise ReplayError("bad_enemy_facing", f"enemy_facings names {target_id}, which does not survive an "
                                                      f"attack of this {action.act}.", location)
    return facings


def set_enemy_facings(state: BattleState, facings: tuple) -> None:
    for target_id, facing in facings:
        state.facing[state.index[target_id]] = FACING_INDEX[facing]  # R7


def begin(run: ManeuverRun, action: BattleArt, location: Location, kingdom: str, arms: frozenset[int]) -> None:
    """The acting battalion's kingdom, Arms and stacking allow this art."""
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    if state.kingdom[battalion] != kingdom:
        raise ReplayError("art_wrong_kingdom", f"{action.act.capitalize()} is a battle art of {kingdom}; "
                                               f"{ident} is of {state.kingdom[battalion]}.", location)
    if state.arms[battalion] not in arms:
        allowed = ", ".join(str(a) for a in sorted(arms))
        raise ReplayError("art_wrong_arms", f"{action.act.capitalize()} needs Arms {allowed}; {ident} has Arms "
                                            f"{state.arms[battalion]}.", location)
    if len(state.stacks[state.zone[battalion]]) > 1:
        raise ReplayError("stacked_only_move", f"{ident} is stacked on another battalion and can only move, not "
                                               f"use {action.act.capitalize()} (R8, R28, R100).", location)


def final(run: ManeuverRun, name: str, location: Location) -> None:
    """R48: an art that costs all remaining MA needs at least 1 and ends the Maneuver."""
    if run.ma_left < 1:
        raise ReplayError("not_enough_ma", f"{run.state.ids[run.battalion]} has 0 MA left; "
                                           f"{name.capitalize()} needs at least 1.", location)


def spend_all(run: ManeuverRun, name: str) -> None:
    run.ma_left = 0
    run.ended_by = name


def ground(run: ManeuverRun, needed: str | None, name: str, location: Location) -> int:
    """R64: the battalion stands on `needed` terrain (None: flatland) of an elected terrain variant."""
    state = run.state
    here = state.zone[run.battalion]
    if state.variant.terrain is None:
        raise ReplayError("art_wrong_terrain", f"{name.capitalize()} changes terrain, and this battle did not elect "
                                               "the terrain variant (R64).", location)
    ground = state.ground(run.battalion)
    if ground != needed or state.ramparts[here] is not None:
        raise ReplayError("art_wrong_terrain", f"{name.capitalize()} needs {state.ids[run.battalion]} to stand on "
                                               f"{needed or 'flatland'}, not on "
                                               f"{'a rampart' if state.ramparts[here] is not None else ground or 'flatland'}.",
                          location)
    return here


def begin_on_ground(run: ManeuverRun, action: BattleArt, location: Location, kingdom: str, arms: frozenset[int],
                    needed: str | None, name: str) -> int:
    """The checks of an art used from `needed` terrain underfoot that spends all remaining MA (R48, R64), in
    their order; returns the battalion's zone."""
    begin(run, action, location, kingdom, arms)
    here = ground(run, needed, name, location)
    final(run, name, location)
    return here


def line(state: BattleState, zone: int, facing: int, limit: int = 26):
    neighbours = state.board.neighbours
    for _ in range(limit):
        zone = neighbours[zone][facing]
        if zone == NO_ZONE:
            return
        yield zone


def two_ahead(state: BattleState, zone: int, facing: int) -> int:
    """The zone two zones from `zone` in a straight line towards `facing`, or NO_ZONE."""
    near = state.board.neighbours[zone][facing]
    return state.board.neighbours[near][facing] if near != NO_ZONE else NO_ZONE


def direction_two_away(state: BattleState, zone: int, other: int) -> int | None:
    """The facing from `zone` towards `other` when it is two zones away in a straight line, else None."""
    return next((d for d in range(4) if two_ahead(state, zone, d) == other), None)


def first_enemy_ahead(state: BattleState, battalion: int, zone: int, facing: int,
                       hidden: frozenset[int] = frozenset()) -> tuple[int, int] | tuple[None, int | None]:
    """Pounce and Surge (R60, R61): the first zone ahead whose top battalion is an enemy, passing
    empty and friendly zones; (None, rampart zone) when a rampart stands before it."""
    me = state.owner[battalion]
    for place in line(state, zone, facing):
        if state.ramparts[place] is not None:
            return None, place
        stack = [b for b in state.stacks[place] if b not in hidden]
        if stack and state.owner[stack[-1]] != me:
            return place, None
    return None, None


def art_places(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> Iterator[Position]:
    """The places the Maneuver of `battalion` reaches (cheapest first) from where it may use a battle art:
    off any stack (R100) with MA left for it (R48). (Builds are not asked for: no caller reads them.)"""
    for event in state.explore(battalion, ma, hidden, builds=False):
        if event.kind == "position" and event.ma_left >= 1 and not event.stacked:
            yield event


def first_enemy_in_reach(state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
                         reaches: Callable[[int, int], bool]) -> tuple[int, int] | None:
    """R13 for Pounce and Surge (R60, R61): (zone, battalion) of the first enemy ahead of a place the
    battalion's Maneuver reaches (`art_places`) that `reaches(zone, MA left there)` accepts; None if none."""
    for place in art_places(state, battalion, ma, hidden):
        target_zone, _ = first_enemy_ahead(state, battalion, place.zone, place.facing, hidden)
        if target_zone is not None and reaches(target_zone, place.ma_left):
            return target_zone, [b for b in state.stacks[target_zone] if b not in hidden][-1]
    return None


def aggressive_then(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> str | None:
    """The first attack, rout or destroy of the battalion's Maneuver search with `ma` MA, as the `then`
    part of a sentence ("attack B2 at c3"); None when it finds none."""
    ids, names = state.ids, state.board.names
    for event in state.explore(battalion, ma, hidden, positions=False):  # each event a `Found`: no positions
        kind, where, target = event.kind, event.zone, event.target
        if kind in ("attack", "rout"):
            return f"{kind} {ids[target]} at {names[where]}"
        if kind == "destroy":
            return (f"build a rampart at {names[where]} and destroy it" if target == "built"
                    else f"destroy the rampart at {names[where]}")
    return None


def fireproof(state: BattleState, battalion: int) -> bool:
    return state.kingdom[battalion] == "flaym"


def transform(state: BattleState, here: int, becomes: str | None, like: str | None) -> list[int]:
    """`here` and each adjacent zone of terrain `like` without a rampart (R57) become `becomes`."""
    changed = [here] + [z for z in state.board.adjacent[here] if state.variant.terrain[z] == like and state.ramparts[z] is None]
    for zone in changed:
        state.variant.terrain[zone] = becomes
    return changed


def transforming(name: str, kingdom: str, arms: frozenset[int]):
    """The handler of a transforming art (Melt, Freeze, Flood, Forestry) of `kingdom` (R48, R64)."""
    needed, becomes = TRANSFORMS[name]

    def handler(run: ManeuverRun, action: BattleArt, location: Location) -> None:
        here = begin_on_ground(run, action, location, kingdom, arms, needed, name)
        transform(run.state, here, becomes, needed)
        spend_all(run, name)
    return handler


def land(run: ManeuverRun, destination: int, facings: tuple) -> None:
    state = run.state
    state.remove_from_stack(run.battalion)
    stack = state.stacks[destination]
    if stack and state.owner[stack[-1]] != run.player:
        run.attacked = True
    state.attack_down(run.battalion, destination)
    set_enemy_facings(state, facings)


def after_art_move(ruleset: CoreRuleset, state: BattleState, battalion: int, zone: int, facings, ma: int,
                    hidden: frozenset[int], how: str) -> str | None:
    """R13 within one Maneuver: an aggressive action left to the battalion once an art has moved it to
    `zone` (not onto an enemy) with `ma` MA, then turned to one of `facings` ((facing, its MA), tried
    in order), as the sentence aggressive_action gives. The searches only read the moved copy, so one
    copy serves every facing."""
    moved = None
    ids = state.ids
    for facing, cost in facings:
        left = ma - cost
        if left < 0:
            continue  # with 0 MA left it may still destroy a rampart of its own kingdom (R40: 0 MA)
        if moved is None:
            moved = state.copy()
            moved.remove_from_stack(battalion)
            moved.stacks[zone] = moved.stacks[zone] + (battalion,)
            moved.zone[battalion] = zone
        moved.facing[battalion] = facing
        then = aggressive_then(moved, battalion, left, hidden)
        if then is None:
            found = ruleset.art_aggressive(moved, battalion, left, hidden, nested=True)
            if found is not None:
                then = found.removeprefix(f"{ids[battalion]} can ")
        if then is not None:
            return f"{ids[battalion]} can {how}, then {then}"
    return None
