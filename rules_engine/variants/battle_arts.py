"""Battle Arts: the `battle_arts` variant as a mixin over the Core ruleset. The written arts are
Maneuver Actions, one module per kingdom (`rules_engine.variants.arts`); the passive ones
(Snowblind, the marches, Fireproof, Harvest, Natural Architect) adjust the ruleset's hooks here.

Rulings: R4 (Vigor), R12/R13 (arts in paralyze and blunt), R16 (Melt is Flaym's), R17
(Snowblind), R19 (segment edges never block), R47-R48 and R57-R67 (docs/rulings.md), R100-R108.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ruleset import CoreRuleset, Field
from .arts import ARTS, HANDLERS, KINGDOM_ARTS
from .arts.common import fireproof
from .arts.timber import harvesting_destroy

if TYPE_CHECKING:
    from ..state import BattleState

__all__ = ["ARTS", "BattleArts"]


def _overgrown_key(overgrown: dict[int, tuple]) -> tuple | None:
    return tuple(sorted(overgrown.items())) if overgrown else None


class BattleArts:
    has_arts = True
    # Zone -> the ramparts beneath its top one (Overgrow).
    FIELDS = (Field("overgrown", copy=dict.copy, key=_overgrown_key),)
    # Mountain March, Ice March, Water March, Forest March, Crag March; Natural Architect, Crag March.
    marches = {"frost": {"mountain": 1, "ice": 2}, "sey": {"waterbody": 1}, "timber": {"forest": 1},
               "blak": {"crag": 1}}
    architects = {"timber": frozenset(("crag", "marsh")), "blak": frozenset(("crag",))}

    def __init__(self, params, rules=None):
        super().__init__(params, rules)
        self.actions.update(HANDLERS)
        self.actions["destroy"] = harvesting_destroy
        # Without another variant's costs, only Snowblind makes a move cost other than 1 MA.
        core = CoreRuleset
        self.uniform_but_snowblind = (super().move_cost.__func__ is core.move_cost
                                      and type(self).can_enter is core.can_enter)

    def setup(self, state: BattleState) -> None:
        state.variant.overgrown = {}
        super().setup(state)

    def move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        """The cheapest Move onto `zone`, for the searches: Snowblind (R17) is a Frost battalion's choice
        to move for 0 MA onto an empty zone next to an own rampart."""
        if self.snowblind_allowed(state, battalion, zone):
            return 0
        return super().move_cost(state, battalion, zone)

    def uniform_moves_for(self, state: BattleState, battalion: int) -> bool:
        return self.uniform_but_snowblind and state.kingdom[battalion] != "frost"

    def plain_move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        return super().move_cost(state, battalion, zone)

    def snowblind_allowed(self, state: BattleState, battalion: int, zone: int) -> bool:
        if state.kingdom[battalion] != "frost" or state.stacks[zone]:
            return False
        me = state.owner[battalion]
        ramparts = state.ramparts
        return any(ramparts[near] is not None and ramparts[near][0] == me for near in state.board.adjacent[zone])

    def fireproof(self, state: BattleState, battalion: int) -> bool:
        return fireproof(state, battalion)

    # ---- R12: arts that change the battalion's zone count as moving (each kingdom's own) ----
    def art_can_leave(self, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
                      arms: int) -> bool:
        return KINGDOM_ARTS[state.kingdom[battalion]].can_leave(self, state, battalion, facings, best_ma, full_ma,
                                                                 arms)

    # ---- R103: the arts a first order of a double time turn may use to open the way for the second ----
    def opening_arts(self, state: BattleState, battalion: int, facing_only: bool = False) -> list:
        """Those the battalion's Arms allow (each kingdom's `opening_arts` offers no other); with
        `facing_only`, only those that depend on its facing (the searches try the others once per zone,
        from where the most MA is left)."""
        kingdom = KINGDOM_ARTS[state.kingdom[battalion]]
        arts = kingdom.opening_arts(state, battalion)
        return [art for art in arts if art.act in kingdom.FACING_ARTS] if facing_only else arts

    def facing_arts(self, state: BattleState, battalion: int) -> frozenset[str]:
        return KINGDOM_ARTS[state.kingdom[battalion]].FACING_ARTS

    def rampart_arts(self, state: BattleState, battalion: int) -> frozenset[str]:
        return KINGDOM_ARTS[state.kingdom[battalion]].RAMPART_ARTS

    def rampart_blind(self, state: BattleState, battalion: int) -> bool:
        return KINGDOM_ARTS[state.kingdom[battalion]].rampart_blind(state, battalion)

    # ---- R13: Pounce, Surge, a Mortar on a rampart, and the attacks of Descend and Chasm Forge ----
    def art_aggressive(self, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
                       nested: bool = False) -> str | None:
        return KINGDOM_ARTS[state.kingdom[battalion]].aggressive(self, state, battalion, ma, hidden, nested)
