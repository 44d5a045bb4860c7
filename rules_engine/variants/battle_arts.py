"""Battle Arts of the five kingdoms: the written arts as Maneuver Actions, and the passive ones
(Snowblind, the marches, Fireproof, Harvest, Natural Architect) as adjustments of the hooks.

Rulings: R4 (Vigor), R12/R13 (arts in paralyze and blunt), R16 (Melt is Flaym's), R17
(Snowblind), R19 (segment edges never block), R47-R48 and R57-R67 (docs/rulings.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import _connected, _rampart_left, destroy, displace, must_descend, place_rampart, raise_rampart
from ..board import FACING_INDEX, NO_ZONE
from ..errors import Location, ReplayError
from ..model import PLAYERS, BattleArt
from ..state import NOBODY

if TYPE_CHECKING:
    from ..state import BattleState, ManeuverRun

ANY_ARMS = frozenset(range(1, 7))
HEAVY = frozenset((4, 5, 6))
SIX = frozenset((6,))
# act -> (kingdom, Arms that may use it)
ARTS: dict[str, tuple[str, frozenset[int]]] = {
    "pounce": ("flaym", SIX), "burn": ("flaym", ANY_ARMS), "incinerate": ("flaym", HEAVY),
    "scald": ("flaym", HEAVY), "melt": ("flaym", HEAVY),  # R16
    "alight": ("frost", SIX), "descend": ("frost", SIX), "freeze": ("frost", HEAVY),
    "surge": ("sey", SIX), "undertow": ("sey", ANY_ARMS), "flood": ("sey", HEAVY),
    "flourish": ("timber", SIX), "overgrow": ("timber", ANY_ARMS), "forestry": ("timber", HEAVY),
    "mortar": ("blak", SIX), "farshot": ("blak", ANY_ARMS), "forge": ("blak", ANY_ARMS),
    "devastate": ("blak", HEAVY),
}
MOVING_ARTS = frozenset(("pounce", "alight", "forge"))  # R58: a stacked battalion may use these
BURN, SEVERE_BURN, SCALD, MORTAR, FARSHOT = 2, 3, 2, 3, 1
MORTAR_RANGE, FARSHOT_RANGE, UNDERTOW_DISTANCE = 3, 4, 2
FORGE_COST = 5
HARVEST_ARMS = HEAVY
# Terrain each transforming art needs underfoot, and what it (and the like terrain next to it) becomes.
TRANSFORMS = {"melt": ("ice", "waterbody"), "freeze": ("waterbody", "ice"), "flood": ("valley", "waterbody"),
              "forestry": (None, "forest")}


def _field(action: BattleArt, name: str) -> str:
    return dict(action.fields)[name]


def _begin(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """The acting battalion's kingdom, Arms and stacking allow this art."""
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    kingdom, arms = ARTS[action.act]
    if state.kingdom[battalion] != kingdom:
        raise ReplayError("art_wrong_kingdom", f"{action.act.capitalize()} is a battle art of {kingdom}; "
                                               f"{ident} is of {state.kingdom[battalion]}.", location)
    if state.arms[battalion] not in arms:
        allowed = ", ".join(str(a) for a in sorted(arms))
        raise ReplayError("art_wrong_arms", f"{action.act.capitalize()} needs Arms {allowed}; {ident} has Arms "
                                            f"{state.arms[battalion]}.", location)
    if action.act not in MOVING_ARTS and len(state.stacks[state.zone[battalion]]) > 1:
        raise ReplayError("stacked_only_move", f"{ident} is stacked on another battalion and can only move, not "
                                               f"use {action.act.capitalize()} (R8, R28, R58).", location)


def _final(run: ManeuverRun, name: str, location: Location) -> None:
    """R48: an art that costs all remaining MA needs at least 1 and ends the Maneuver."""
    if run.ma_left < 1:
        raise ReplayError("not_enough_ma", f"{run.state.ids[run.battalion]} has 0 MA left; "
                                           f"{name.capitalize()} needs at least 1.", location)


def _spend_all(run: ManeuverRun, name: str) -> None:
    run.ma_left = 0
    run.ended_by = name


def _ground(run: ManeuverRun, needed: str | None, name: str, location: Location) -> int:
    """R64: the battalion stands on `needed` terrain (None: flatland) of an elected terrain variant."""
    state = run.state
    here = state.zone[run.battalion]
    if state.terrain is None:
        raise ReplayError("art_wrong_terrain", f"{name.capitalize()} changes terrain, and this battle did not elect "
                                               "the terrain variant (R64).", location)
    ground = state.ground(run.battalion)
    if ground != needed or state.ramparts[here] is not None:
        raise ReplayError("art_wrong_terrain", f"{name.capitalize()} needs {state.ids[run.battalion]} to stand on "
                                               f"{needed or 'flatland'}, not on "
                                               f"{'a rampart' if state.ramparts[here] is not None else ground or 'flatland'}.",
                          location)
    return here


def _line(state: BattleState, zone: int, facing: int, limit: int = 26):
    neighbours = state.board.neighbours
    for _ in range(limit):
        zone = neighbours[zone][facing]
        if zone == NO_ZONE:
            return
        yield zone


def _two_ahead(state: BattleState, zone: int, facing: int) -> int:
    """The zone two zones from `zone` in a straight line towards `facing`, or NO_ZONE."""
    near = state.board.neighbours[zone][facing]
    return state.board.neighbours[near][facing] if near != NO_ZONE else NO_ZONE


def _direction_two_away(state: BattleState, zone: int, other: int) -> int | None:
    """The facing from `zone` towards `other` when it is two zones away in a straight line, else None."""
    return next((d for d in range(4) if _two_ahead(state, zone, d) == other), None)


def _first_enemy_ahead(state: BattleState, battalion: int, zone: int, facing: int,
                       hidden: frozenset[int] = frozenset()) -> tuple[int, int] | tuple[None, int | None]:
    """Pounce and Surge (R60, R61): the first zone ahead whose top battalion is an enemy, passing
    empty and friendly zones; (None, rampart zone) when a rampart stands before it."""
    me = state.owner[battalion]
    for place in _line(state, zone, facing):
        if state.ramparts[place] is not None:
            return None, place
        stack = [b for b in state.stacks[place] if b not in hidden]
        if stack and state.owner[stack[-1]] != me:
            return place, None
    return None, None


def _fireproof(state: BattleState, battalion: int) -> bool:
    return state.kingdom[battalion] == "flaym"


def _burn_zone(state: BattleState, zone: int, amount: int, only_enemies_of: int | None = None) -> None:
    """Fire reaches every battalion of the zone, the whole stack (R66)."""
    for battalion in state.stacks[zone]:
        if not _fireproof(state, battalion) and (only_enemies_of is None or state.owner[battalion] != only_enemies_of):
            state._reduce(battalion, amount, vigor_protects=False)  # R4: no Vigor against fire


def _transform(state: BattleState, here: int, becomes: str | None, like: str | None) -> list[int]:
    """`here` and each adjacent zone of terrain `like` without a rampart (R57) become `becomes`."""
    changed = [here] + [z for z in state.board.adjacent[here] if state.terrain[z] == like and state.ramparts[z] is None]
    for zone in changed:
        state.terrain[zone] = becomes
    return changed


# ---- Flaym ----------------------------------------------------------------------------------------
def pounce(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    _begin(run, action, location)
    here = state.zone[battalion]
    must_descend(state, battalion, location)
    target_zone, rampart = _first_enemy_ahead(state, battalion, here, state.facing[battalion])
    if rampart is not None:
        raise ReplayError("blocked_by_rampart", f"The rampart at {state.board.names[rampart]} stands between "
                                                f"{state.ids[battalion]} and any enemy it could pounce on.", location)
    if target_zone is None:
        raise ReplayError("art_no_target", f"No enemy battalion stands ahead of {state.ids[battalion]} to pounce "
                                           "on.", location)
    cost = state.ruleset.move_cost(state, battalion, target_zone)  # R60: a form of Move
    run.require(cost, location)
    state._remove_from_stack(battalion)
    state._aggressive = True
    state._slaughter(state.stacks[target_zone][-1], run.player)  # instantly, whatever its Arms and Vigor
    state.attack_down(battalion, target_zone)
    run.attacked = True
    run.ma_left -= cost


def burn(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    _begin(run, action, location)
    _final(run, "burn", location)
    for zone in state.board.adjacent[state.zone[run.battalion]]:
        if state.ramparts[zone] is None:  # R59: a battalion on a rampart is out of reach
            _burn_zone(state, zone, BURN)
    _spend_all(run, "burn")


def incinerate(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    _begin(run, action, location)
    here = _ground(run, "forest", "incinerate", location)
    _final(run, "incinerate", location)
    state.ruleset.burn_forest(state, here, SEVERE_BURN)
    _spend_all(run, "incinerate")


def scald(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    _begin(run, action, location)
    here = _ground(run, "marsh", "scald", location)
    _final(run, "scald", location)
    for zone in _transform(state, here, None, "marsh"):
        _burn_zone(state, zone, SCALD, only_enemies_of=run.player)
    _spend_all(run, "scald")


def _transforming(name: str):
    needed, becomes = TRANSFORMS[name]

    def handler(run: ManeuverRun, action: BattleArt, location: Location) -> None:
        _begin(run, action, location)
        here = _ground(run, needed, name, location)
        _final(run, name, location)
        _transform(run.state, here, becomes, needed)
        _spend_all(run, name)
    return handler


# ---- Frost ----------------------------------------------------------------------------------------
def alight(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    _begin(run, action, location)
    zone = state._zone_number(_field(action, "zone"), location)
    rampart = state.ramparts[zone]
    if rampart is None or rampart[0] != run.player:
        raise ReplayError("art_no_target", f"There is no rampart of {PLAYERS[run.player]}'s at "
                                           f"{state.board.names[zone]} to alight on.", location)
    if state.stacks[zone] and state.stacks[zone] != (battalion,):
        raise ReplayError("zone_occupied", f"The rampart at {state.board.names[zone]} is already topped by a "
                                           "battalion.", location)
    run.require(1, location)
    state._remove_from_stack(battalion)
    state.stacks[zone] = (battalion,)
    state.zone[battalion] = zone
    state.facing[battalion] = FACING_INDEX[_field(action, "facing")]
    run.ma_left -= 1


def descend(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R65: 1 MA down to the adjacent zone in direction `to`, terrain costs ignored, facing kept;
    onto enemy battalions it attacks them as a move does (R8)."""
    state = run.state
    battalion = run.battalion
    _begin(run, action, location)
    here = state.zone[battalion]
    ident = state.ids[battalion]
    if state.ramparts[here] is None:
        raise ReplayError("art_no_target", f"{ident} does not stand on a rampart, so it cannot descend.", location)
    destination = state.board.neighbours[here][FACING_INDEX[_field(action, "to")]]
    if destination == NO_ZONE:
        raise ReplayError("off_board", f"{ident} cannot descend off the battlefield.", location)
    if state.ramparts[destination] is not None:
        raise ReplayError("blocked_by_rampart", f"{ident} cannot descend onto the rampart at "
                                                f"{state.board.names[destination]}; Alight reaches ramparts.", location)
    if not state.ruleset.can_enter(state, battalion, destination):
        raise ReplayError("impassable_terrain", f"{ident} cannot descend onto {state.terrain[destination]}.",
                          location)
    run.require(1, location)
    _land(run, destination)
    run.ma_left -= 1


def _land(run: ManeuverRun, destination: int) -> None:
    state = run.state
    state._remove_from_stack(run.battalion)
    stack = state.stacks[destination]
    if stack and state.owner[stack[-1]] != run.player:
        run.attacked = True
    state.attack_down(run.battalion, destination)


# ---- Sey -------------------------------------------------------------------------------------------
def surge(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R61: a rout from a distance for 1 MA; the Maneuver goes on."""
    state = run.state
    board = state.board
    battalion = run.battalion
    _begin(run, action, location)
    here = state.zone[battalion]
    facing = state.facing[battalion]
    target_zone, rampart = _first_enemy_ahead(state, battalion, here, facing)
    if rampart is not None:
        raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[rampart]} stands between "
                                                f"{state.ids[battalion]} and any enemy it could surge.", location)
    if target_zone is None:
        raise ReplayError("art_no_target", f"No enemy battalion stands ahead of {state.ids[battalion]} to surge.",
                          location)
    target = state.stacks[target_zone][-1]
    to = _field(action, "to")
    if to == "off":
        if not board.on_edge[target_zone]:
            raise ReplayError("rout_not_at_edge", f"{state.ids[target]} at {board.names[target_zone]} is not on the "
                                                  "battlefield's edge and cannot be surged off it.", location)
        destination, pushed = NO_ZONE, None
    else:
        destination = state._zone_number(to, location)
        pushed = board.direction(target_zone, destination)
        if pushed is None:
            pushed = _direction_two_away(state, target_zone, destination)
        if pushed is None:
            raise ReplayError("art_out_of_range", f"{to} is neither adjacent to {state.ids[target]} nor two zones "
                                                  "from it in a straight line.", location)
        if state.stacks[destination] or state.ramparts[destination] is not None:
            raise ReplayError("rout_zone_occupied", f"{state.ids[target]} cannot be surged onto {to}: it is "
                                                    "occupied.", location)
    into_ruin = state.terrain is not None and state.ruleset.check_rout(state, target_zone, destination, location)
    run.require(1, location)
    state._aggressive = True
    displace(state, target, destination, into_ruin, pushed, run.player)
    if destination == NO_ZONE:
        if run.surged != NOBODY and state.stun == run.surged:
            state.stun = NOBODY  # the last battalion surged is a prisoner: no Stun at all
    elif not into_ruin:
        run.surged = target
    run.ma_left -= 1


def undertow(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R62: pull the top-most enemy battalion two zones away in a straight line next to the
    battalion, facing away, stunned; onto any battalion between, without attacking."""
    state = run.state
    board = state.board
    battalion = run.battalion
    _begin(run, action, location)
    ident = _field(action, "target")
    target = state._battalion_number(ident, location)
    here = state.zone[battalion]
    target_zone = state.zone[target]
    if state.owner[target] == run.player or target_zone < 0 or state.stacks[target_zone][-1] != target:
        raise ReplayError("art_no_target", f"{ident} is not a top-most enemy battalion on the battlefield.", location)
    direction = _direction_two_away(state, here, target_zone)
    if direction is None:
        raise ReplayError("art_out_of_range", f"{ident} is not two zones from {state.ids[battalion]} in a straight "
                                              "line.", location)
    middle = board.neighbours[here][direction]
    for zone in (middle, target_zone):
        if state.ramparts[zone] is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[zone]} stops the undertow.", location)
    if state.terrain is not None and not state.ruleset.can_enter(state, target, middle):
        raise ReplayError("impassable_terrain", f"{ident} cannot be pulled onto {state.terrain[middle]}.", location)
    _final(run, "undertow", location)
    state._remove_from_stack(target)
    state.stacks[middle] = state.stacks[middle] + (target,)
    state.zone[target] = middle
    state.facing[target] = direction
    state.stun = target
    _spend_all(run, "undertow")


# ---- Timber ----------------------------------------------------------------------------------------
def flourish(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R63: 1 MA, a rampart on any empty zone the terrain allows."""
    state = run.state
    _begin(run, action, location)
    zone = state._zone_number(_field(action, "zone"), location)
    if state.stacks[zone] or state.ramparts[zone] is not None:
        raise ReplayError("zone_occupied", f"{state.board.names[zone]} is occupied; a rampart needs an empty zone.",
                          location)
    place_rampart(run, zone, _rampart_left(run, location), location)


def overgrow(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """R63: a rampart on top of a rampart: an own one within building reach, an enemy's adjacent."""
    state = run.state
    battalion = run.battalion
    _begin(run, action, location)
    zone = state._zone_number(_field(action, "zone"), location)
    name = state.board.names[zone]
    rampart = state.ramparts[zone]
    if rampart is None:
        raise ReplayError("no_rampart", f"There is no rampart at {name} to overgrow.", location)
    if state.stacks[zone]:
        raise ReplayError("zone_occupied", f"A battalion stands on the rampart at {name}.", location)
    kingdom = _rampart_left(run, location)
    here = state.zone[battalion]
    if rampart[0] == run.player:
        if not _connected(state, run.player, here, zone):
            raise ReplayError("build_not_connected", f"{name} is neither adjacent to {state.ids[battalion]} nor to a "
                                                     "chain of its general's ramparts reaching it.", location)
    elif zone not in state.board.adjacent[here]:
        raise ReplayError("build_not_connected", f"An enemy rampart is overgrown only from an adjacent zone; {name} "
                                                 f"is not adjacent to {state.ids[battalion]}.", location)
    raise_rampart(run, zone, kingdom, location)
    state.overgrown[zone] = state.overgrown.get(zone, ()) + (rampart,)


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


# ---- Blak ------------------------------------------------------------------------------------------
def mortar(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    board = state.board
    battalion = run.battalion
    _begin(run, action, location)
    zone = state._zone_number(_field(action, "zone"), location)
    path = list(_line(state, state.zone[battalion], state.facing[battalion], MORTAR_RANGE))
    if zone not in path:
        raise ReplayError("art_out_of_range", f"{board.names[zone]} is not 1 to {MORTAR_RANGE} zones ahead of "
                                              f"{state.ids[battalion]}.", location)
    if state.ramparts[zone] is None:
        if not state.stacks[zone]:
            raise ReplayError("art_no_target", f"Neither a battalion nor a rampart stands at {board.names[zone]}.",
                              location)
        between = next((z for z in path[:path.index(zone)] if state.ramparts[z] is not None), None)
        if between is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {board.names[between]} stands between "
                                                    f"{state.ids[battalion]} and {board.names[zone]}.", location)
    run.require(1, location)
    if state.ramparts[zone] is not None:
        state._remove_top_rampart(zone)  # R59: a battalion on it is not reached
        state._aggressive = True
    else:
        for target in state.stacks[zone]:  # the whole stack (R66)
            state._reduce(target, MORTAR, vigor_protects=True)
    run.ma_left -= 1


def farshot(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    _begin(run, action, location)
    for zone in _line(state, state.zone[battalion], state.facing[battalion], FARSHOT_RANGE):
        if state.ramparts[zone] is not None:
            raise ReplayError("blocked_by_rampart", f"The rampart at {state.board.names[zone]} stops the farshot.",
                              location)
        if state.stacks[zone]:
            _final(run, "farshot", location)
            state._reduce(state.stacks[zone][-1], FARSHOT, vigor_protects=True)
            _spend_all(run, "farshot")
            return
    raise ReplayError("art_no_target", f"No battalion stands within {FARSHOT_RANGE} zones ahead of "
                                       f"{state.ids[battalion]}.", location)


def forge(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    """Chasm Forge (R67): 5 MA across the chasm ahead, landing like a move, facing kept."""
    state = run.state
    battalion = run.battalion
    ident = state.ids[battalion]
    _begin(run, action, location)
    here = state.zone[battalion]
    must_descend(state, battalion, location)
    facing = state.facing[battalion]
    ahead = state.board.neighbours[here][facing]
    if ahead == NO_ZONE or state.terrain is None or state.terrain[ahead] != "chasm":
        raise ReplayError("art_wrong_terrain", f"{ident} must face a chasm from the zone next to it to forge it.",
                          location)
    beyond = state.board.neighbours[ahead][facing]
    if beyond == NO_ZONE:
        raise ReplayError("off_board", f"The far side of the chasm ahead of {ident} is off the battlefield.",
                          location)
    if state.ramparts[beyond] is not None:
        raise ReplayError("blocked_by_rampart", f"A rampart stands on {state.board.names[beyond]}.", location)
    if not state.ruleset.can_enter(state, battalion, beyond):
        raise ReplayError("impassable_terrain", f"{ident} cannot land on {state.terrain[beyond]}.", location)
    run.require(FORGE_COST, location)
    _land(run, beyond)
    run.ma_left -= FORGE_COST


def devastate(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    _begin(run, action, location)
    here = _ground(run, "crag" if state.ground(run.battalion) == "crag" else None, "devastate", location)
    _final(run, "devastate", location)
    affected = [here] + [z for z in state.board.adjacent[here]
                         if state.terrain[z] in (None, "crag") and state.ramparts[z] is None]
    obliterated = []
    for zone in affected:
        if state.terrain[zone] == "crag":
            state.terrain[zone] = "chasm"
            obliterated.append(zone)
        else:
            state.terrain[zone] = "crag"
    for zone in obliterated:
        for victim in state.stacks[zone]:
            state._slaughter(victim, 1 - state.owner[victim])
    _spend_all(run, "devastate")


HANDLERS = {
    "pounce": pounce, "burn": burn, "incinerate": incinerate, "scald": scald, "melt": _transforming("melt"),
    "alight": alight, "descend": descend, "freeze": _transforming("freeze"),
    "surge": surge, "undertow": undertow, "flood": _transforming("flood"),
    "flourish": flourish, "overgrow": overgrow, "forestry": _transforming("forestry"),
    "mortar": mortar, "farshot": farshot, "forge": forge, "devastate": devastate,
}


class BattleArts:
    has_arts = True
    # Mountain March, Ice March, Water March, Forest March, Crag March; Natural Architect, Crag March.
    marches = {"frost": {"mountain": 1, "ice": 2}, "sey": {"waterbody": 1}, "timber": {"forest": 1},
               "blak": {"crag": 1}}
    architects = {"timber": frozenset(("crag", "marsh")), "blak": frozenset(("crag",))}

    def __init__(self, params, rules=None):
        super().__init__(params, rules)
        self.actions.update(HANDLERS)
        self.actions["destroy"] = harvesting_destroy

    def setup(self, state: BattleState) -> None:
        state.overgrown = {}
        super().setup(state)

    def move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        """Snowblind (R17): a Frost battalion moves for 0 MA onto an empty zone next to an own rampart."""
        if state.kingdom[battalion] == "frost" and not state.stacks[zone]:
            me = state.owner[battalion]
            ramparts = state.ramparts
            for near in state.board.adjacent[zone]:
                rampart = ramparts[near]
                if rampart is not None and rampart[0] == me:
                    return 0
        return super().move_cost(state, battalion, zone)

    def fireproof(self, state: BattleState, battalion: int) -> bool:
        return _fireproof(state, battalion)

    # ---- R12: arts that change the battalion's zone count as moving ----
    def art_can_leave(self, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int) -> bool:
        kingdom = state.kingdom[battalion]
        arms = state.arms[battalion]
        where = state.zone[battalion]
        board = state.board
        if kingdom == "frost" and arms == 6:
            if state.ramparts[where] is not None and any(
                    state.ramparts[z] is None and self.can_enter(state, battalion, z) for z in board.adjacent[where]):
                return True  # Descend
            if any(r is not None and r[0] == state.owner[battalion] and z != where and not state.stacks[z]
                   for z, r in enumerate(state.ramparts)):
                return True  # Alight
        if state.ramparts[where] is not None:
            return False
        for facing in facings:
            if kingdom == "flaym" and arms == 6:
                target_zone, _ = _first_enemy_ahead(state, battalion, where, facing)
                if target_zone is not None and self.move_cost(state, battalion, target_zone) <= full_ma:
                    return True
            if (kingdom == "blak" and state.terrain is not None and best_ma >= FORGE_COST
                    and self._forge_landing(state, battalion, where, facing) is not None):
                return True
        return super().art_can_leave(state, battalion, facings, best_ma, full_ma)

    # ---- R13: Pounce, Surge, a Mortar on a rampart, and the attacks of Descend and Chasm Forge ----
    # An art that moves the battalion (Descend, Alight then Descend, Chasm Forge) may also leave it MA for
    # an aggressive action after it in the same Maneuver: `_after_art_move` searches on from its landing.
    def art_aggressive(self, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
                       nested: bool = False) -> str | None:
        kingdom = state.kingdom[battalion]
        arms = state.arms[battalion]
        ident = state.ids[battalion]
        names = state.board.names
        board = state.board
        me = state.owner[battalion]
        if kingdom == "frost" and arms == 6:
            found = self._frost_aggressive(state, battalion, ma, hidden, nested)
            if found is not None:
                return found
        if not ((arms == 6 and kingdom in ("flaym", "sey", "blak")) or kingdom == "blak"):
            return None
        for event in state.explore(battalion, ma, hidden):
            if event[0] != "position":
                continue
            _, zone, facing, left, stacked = event
            if left < 1:
                continue
            if arms == 6 and kingdom in ("flaym", "sey"):
                if kingdom == "sey" and stacked:
                    continue
                target_zone, _ = _first_enemy_ahead(state, battalion, zone, facing, hidden)
                if target_zone is None:
                    continue
                target = [b for b in state.stacks[target_zone] if b not in hidden][-1]
                if kingdom == "flaym" and self.move_cost(state, battalion, target_zone) <= left:
                    return f"{ident} can pounce on {state.ids[target]} at {names[target_zone]}"
                if kingdom == "sey" and self._surge_possible(state, target_zone, hidden):
                    return f"{ident} can surge {state.ids[target]} at {names[target_zone]}"
            elif kingdom == "blak" and arms == 6 and not stacked:
                for place in _line(state, zone, facing, MORTAR_RANGE):
                    if state.ramparts[place] is not None:
                        return f"{ident} can destroy the rampart at {names[place]} with a mortar"
            if kingdom == "blak" and left >= FORGE_COST and state.terrain is not None:
                beyond = self._forge_landing(state, battalion, zone, facing)
                if beyond is not None:
                    stack = [b for b in state.stacks[beyond] if b not in hidden]
                    if stack and state.owner[stack[-1]] != me:
                        return f"{ident} can forge the chasm and attack {state.ids[stack[-1]]} at {names[beyond]}"
                    found = self._after_art_move(state, battalion, beyond, ((facing, 0),), left - FORGE_COST, hidden,
                                                 f"forge the chasm at {names[board.neighbours[zone][facing]]}")
                    if found is not None:
                        return found
        return None

    def _frost_aggressive(self, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
                          nested: bool) -> str | None:
        """Descend from the rampart it stands on, or Alight on an own rampart and Descend from it (1 MA
        each, R65): onto an enemy battalion that is an attack (R47); onto an empty or own zone the Maneuver
        goes on. Alight lands with any facing; before a Descend from where it stands it may turn for MA."""
        ident = state.ids[battalion]
        names = state.board.names
        adjacent = state.board.adjacent
        me = state.owner[battalion]
        where = state.zone[battalion]
        facing = state.facing[battalion]
        turns = [(f, self.face_cost(facing, f) if f != facing else 0) for f in range(4)]
        free_facing = [(f, 0) for f in range(4)]
        descents = []  # (how, from rampart, facings and their MA, MA left on landing)
        if state.ramparts[where] is not None:
            descents.append(("descend", where, turns, ma - 1))
        if not nested:  # a second Alight in the Maneuver reaches nothing the first could not
            for zone, rampart in enumerate(state.ramparts):
                if rampart is not None and rampart[0] == me and zone != where and not [
                        b for b in state.stacks[zone] if b not in hidden]:
                    descents.append((f"alight on {names[zone]} and descend", zone, free_facing, ma - 2))
        for how, rampart_zone, facings, left in descents:
            if left < 0:
                continue
            for near in adjacent[rampart_zone]:
                if state.ramparts[near] is not None or not self.can_enter(state, battalion, near):
                    continue
                stack = [b for b in state.stacks[near] if b not in hidden]
                if stack and state.owner[stack[-1]] != me:
                    return f"{ident} can {how} onto {state.ids[stack[-1]]} at {names[near]}"
                found = self._after_art_move(state, battalion, near, facings, left, hidden, f"{how} to {names[near]}")
                if found is not None:
                    return found
        return None

    def _after_art_move(self, state: BattleState, battalion: int, zone: int, facings, ma: int,
                        hidden: frozenset[int], how: str) -> str | None:
        """R13 within one Maneuver: an aggressive action left to the battalion once an art has moved it to
        `zone` (not onto an enemy) with `ma` MA, then turned to one of `facings` ((facing, its MA), tried
        in order), as the sentence aggressive_action gives. The searches only read the moved copy, so one
        copy serves every facing."""
        moved = None
        ids, names = state.ids, state.board.names
        for facing, cost in facings:
            left = ma - cost
            if left < 1:
                continue
            if moved is None:
                moved = state.copy()
                moved._remove_from_stack(battalion)
                moved.stacks[zone] = moved.stacks[zone] + (battalion,)
                moved.zone[battalion] = zone
            moved.facing[battalion] = facing
            then = None
            for kind, where, _cost, target in moved.explore(battalion, left, hidden, positions=False):
                if kind in ("attack", "rout"):
                    then = f"{kind} {ids[target]} at {names[where]}"
                elif kind == "destroy":
                    then = (f"build a rampart at {names[where]} and destroy it" if target == "built"
                            else f"destroy the rampart at {names[where]}")
                if then is not None:
                    break
            else:
                found = self.art_aggressive(moved, battalion, left, hidden, nested=True)
                if found is not None:
                    then = found.removeprefix(f"{ids[battalion]} can ")
            if then is not None:
                return f"{ids[battalion]} can {how}, then {then}"
        return None

    def _forge_landing(self, state: BattleState, battalion: int, zone: int, facing: int) -> int | None:
        """Chasm Forge (R67) from `zone` facing `facing`: the zone beyond the chasm ahead that the battalion
        would land on, or None (terrain elected)."""
        neighbours = state.board.neighbours
        ahead = neighbours[zone][facing]
        if ahead == NO_ZONE or state.terrain[ahead] != "chasm":
            return None
        beyond = neighbours[ahead][facing]
        if beyond == NO_ZONE or state.ramparts[beyond] is not None or not self.can_enter(state, battalion, beyond):
            return None
        return beyond

    def _surge_possible(self, state: BattleState, target_zone: int, hidden: frozenset[int]) -> bool:
        board = state.board
        if state.terrain is not None and not self.can_be_routed(state, target_zone):
            return False
        if board.on_edge[target_zone]:
            return True
        for direction in range(4):
            for zone in (board.neighbours[target_zone][direction], _two_ahead(state, target_zone, direction)):
                if zone != NO_ZONE and state.ramparts[zone] is None and not [
                        b for b in state.stacks[zone] if b not in hidden] and (
                        state.terrain is None or self.rout_destination_ok(state, target_zone, zone)):
                    return True
        return False

