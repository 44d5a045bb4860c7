"""Battlefield Terrain: Move Onto costs, impassable zones, building, sacrifice, deployment,
extrication and rout restrictions, the Forest fire of a sacrifice, and Closure (R20)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import NO_ZONE
from ..errors import HEADER, Location, ReplayError
from ..model import PLAYERS
from ..ruleset import Field

if TYPE_CHECKING:
    from ..state import BattleState

FLATLAND_COST = 1
MOVE_ONTO = {"mountain": 3, "hills": 2, "valley": 0, "forest": 3, "marsh": 4, "waterbody": 5, "ice": 4, "crag": 3,
             "populace": 2, "stronghold": 6}
IMPASSABLE = frozenset(("chasm", "cliffside"))
NO_BUILDING = frozenset(("marsh", "waterbody", "chasm", "crag", "cliffside"))
NO_SACRIFICE = frozenset(("marsh", "waterbody"))
CONTROLLED = frozenset(("populace", "stronghold"))
FOREST_FIRE = 2


def connected_region(state: BattleState, start: int, kind: str) -> list[int]:
    """Zones of terrain `kind` traced orthogonally from `start` through that terrain; zones under
    a rampart neither change nor carry the trace (R57)."""
    terrain, ramparts, adjacent = state.variant.terrain, state.ramparts, state.board.adjacent
    region, frontier = [start], [start]
    seen = {start}
    while frontier:
        for near in adjacent[frontier.pop()]:
            if near not in seen and terrain[near] == kind and ramparts[near] is None:
                seen.add(near)
                region.append(near)
                frontier.append(near)
    return region


NO_ARCHITECT: frozenset[str] = frozenset()


class Terrain:
    has_terrain = True
    FIELDS = (Field("terrain", copy=list.copy, key=tuple),  # per zone: its terrain, None for flatland
              Field("control"))  # populace and stronghold zone -> controlling general (fixed, R56)
    # Kingdom -> terrain -> Move Onto cost, and kingdom -> terrains it may build on: the battle
    # arts' marches and Natural Architect fill these in when battle arts are elected too.
    marches: dict[str, dict[str, int]] = {}
    architects: dict[str, frozenset[str]] = {}

    def __init__(self, params, rules=None):
        super().__init__(params, rules)
        # (terrains a kingdom may build on, the battlefield's terrain) -> the zones it may not build on:
        # the searches ask at every step and the terrain changes only by a transformation.
        self._unbuildable: dict[tuple, frozenset[int]] = {}

    def setup(self, state: BattleState) -> None:
        board = state.board
        terrain: list[str | None] = [None] * board.size
        for name, kind in self.rules.terrain or ():
            zone = board.zone(name)
            if zone is None:
                raise ReplayError("off_board", f"rules.terrain names {name}, outside the {board.width} x "
                                               f"{board.height} battlefield.", HEADER)
            terrain[zone] = kind
        control = {}
        for name, who in self.rules.control or ():
            zone = board.zone(name)
            if zone is None or terrain[zone] not in CONTROLLED:
                raise ReplayError("bad_control", f"rules.control names {name}, which is not a populace or stronghold "
                                                 "zone of this battlefield (R56).", HEADER)
            control[zone] = PLAYERS.index(who)
        state.variant.terrain = terrain
        state.variant.control = control
        super().setup(state)

    # ---- Moving ----
    def move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        kind = state.variant.terrain[zone]
        if kind is None:
            return FLATLAND_COST
        march = self.marches.get(state.kingdom[battalion])
        if march is not None and kind in march:
            return march[kind]
        return MOVE_ONTO[kind]

    def can_enter(self, state: BattleState, battalion: int, zone: int) -> bool:
        return state.variant.terrain[zone] not in IMPASSABLE

    # ---- Building ----
    def unbuildable(self, state: BattleState, battalion: int) -> frozenset[int] | None:
        allowed = self.architects.get(state.kingdom[battalion], NO_ARCHITECT)
        key = (allowed, tuple(state.variant.terrain))
        found = self._unbuildable.get(key)
        if found is None:
            if len(self._unbuildable) > 64:
                self._unbuildable.clear()
            found = self._unbuildable[key] = frozenset(zone for zone, kind in enumerate(state.variant.terrain)
                                                       if kind in NO_BUILDING and kind not in allowed)
        return found

    # ---- Placement ----
    def can_deploy(self, state: BattleState, player: int, zone: int) -> bool:
        kind = state.variant.terrain[zone]
        if kind in IMPASSABLE:
            return False
        if kind in CONTROLLED:
            return state.variant.control.get(zone) == player
        return super().can_deploy(state, player, zone)

    def can_extricate_to(self, state: BattleState, player: int, zone: int) -> bool:
        return state.variant.terrain[zone] not in IMPASSABLE and super().can_extricate_to(state, player, zone)

    # ---- Sacrifice ----
    def check_sacrifice(self, state: BattleState, battalion: int, location: Location) -> None:
        ground = state.ground(battalion)
        if ground in NO_SACRIFICE:
            raise ReplayError("terrain_forbids_sacrifice", f"{state.ids[battalion]} stands on {ground}, where no "
                                                           "Sacrifice is ordered.", location)
        super().check_sacrifice(state, battalion, location)

    def can_sacrifice_on(self, state: BattleState, battalion: int) -> bool:
        return state.ground(battalion) not in NO_SACRIFICE and super().can_sacrifice_on(state, battalion)

    def sacrifice_resolves(self, state: BattleState, battalion: int) -> bool:
        """R55: a battalion moved onto marsh or waterbody since it was marked is not sacrificed."""
        return state.ground(battalion) not in NO_SACRIFICE and super().sacrifice_resolves(state, battalion)

    def after_sacrifice(self, state: BattleState, zone: int, player: int) -> None:
        """The Forest where a battalion is sacrificed burns, with every forest traced back to it (R55)."""
        if zone >= 0 and state.variant.terrain[zone] == "forest" and state.ramparts[zone] is None:
            self.burn_forest(state, zone, FOREST_FIRE, vigor_protects=True)  # R4 amended: Vigor caps the fire
        super().after_sacrifice(state, zone, player)

    def burn_forest(self, state: BattleState, zone: int, amount: int, vigor_protects: bool = False) -> None:
        """The forest of `zone` (no rampart on it) and every forest traced from it burn to flatland; each
        battalion there that is not fireproof loses `amount` Arms (R55, Incinerate). Vigor caps the loss of
        a Sacrifice's fire (R4 amended), not Incinerate's Severe Burn."""
        burned = connected_region(state, zone, "forest")
        for place in burned:
            state.variant.terrain[place] = None
        for place in burned:
            for battalion in state.stacks[place]:
                if not self.fireproof(state, battalion):
                    state.reduce_arms(battalion, amount, vigor_protects=vigor_protects)

    def fireproof(self, state: BattleState, battalion: int) -> bool:
        return False

    # ---- Routs ----
    def check_rout(self, state: BattleState, target_zone: int, destination: int, location: Location) -> bool:
        """Rout and Surge call this only for a target zone without a rampart, where `can_be_routed` is
        the stronghold test."""
        if not self.can_be_routed(state, target_zone):
            raise ReplayError("rout_from_stronghold", f"{state.ids[state.stacks[target_zone][-1]]} stands on a "
                                                      "stronghold and cannot be routed.", location)
        if destination == NO_ZONE:
            return False
        if not self.rout_destination_ok(state, target_zone, destination):
            raise ReplayError("rout_onto_cliffside", f"{state.ids[state.stacks[target_zone][-1]]} stands on "
                                                     "waterbody and cannot be routed onto cliffside.", location)
        return state.variant.terrain[destination] in IMPASSABLE  # slaughtered on chasm or cliffside

    def can_be_routed(self, state: BattleState, target_zone: int) -> bool:
        return state.variant.terrain[target_zone] != "stronghold" or state.ramparts[target_zone] is not None

    def rout_destination_ok(self, state: BattleState, target_zone: int, destination: int) -> bool:
        return not (state.variant.terrain[destination] == "cliffside" and state.variant.terrain[target_zone] == "waterbody")

    # ---- Closure ----
    def turn_ended(self, state: BattleState) -> None:
        """R20: two active battalions each (battlefield or prison) and the terrain is removed; checked at
        every turn end, so terrain an art creates later goes again (R74)."""
        if state.battalion_count(0) == 2 and state.battalion_count(1) == 2 and any(state.variant.terrain):
            state.variant.terrain = [None] * state.board.size
        super().turn_ended(state)
