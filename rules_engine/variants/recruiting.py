"""Army Recruiting: custom armies from any kingdoms, and ramparts of their battalions' kingdoms."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import HEADER, ReplayError
from ..model import PLAYERS
from ..ruleset import Field

if TYPE_CHECKING:
    from ..state import BattleState

MIN_BATTALIONS = 6
HEAVY_ARMS = 4


def arms_limit(battalions: int) -> int:
    """floor(3.5 x n), in integers."""
    return battalions * 7 // 2


class ArmyRecruiting:
    # Per general: the kingdoms of the ramparts not built yet (R53).
    FIELDS = (Field("rampart_pool", copy=list.copy, key=tuple),)

    def check_armies(self, generals: tuple, armies: tuple) -> None:
        for player, army in zip(PLAYERS, armies, strict=True):
            if len(army) < MIN_BATTALIONS:
                raise ReplayError("army_too_small", f"{player}'s army has {len(army)} battalions; a recruited army "
                                                    f"needs at least {MIN_BATTALIONS}.", HEADER)
        if len(armies[0]) != len(armies[1]):
            raise ReplayError("army_sizes_differ", f"p1's army has {len(armies[0])} battalions and p2's "
                                                   f"{len(armies[1])}; both must have the same number.", HEADER)
        for player, army in zip(PLAYERS, armies, strict=True):
            combined = sum(spec.arms for spec in army)
            limit = arms_limit(len(army))
            if combined > limit:
                raise ReplayError("army_arms_over_limit", f"{player}'s {len(army)} battalions have combined Arms "
                                                          f"{combined}; the limit is {limit} (3.5 x {len(army)}, "
                                                          "rounded down).", HEADER)
            if not any(spec.arms >= HEAVY_ARMS for spec in army):
                raise ReplayError("army_without_heavy", f"{player}'s army has no battalion of Arms {HEAVY_ARMS} or "
                                                        "more; a recruited army needs at least one.", HEADER)
        super().check_armies(generals, armies)

    def setup(self, state: BattleState) -> None:
        # One rampart per battalion, of that battalion's kingdom (R53).
        state.variant.rampart_pool = [tuple(state.kingdom[b] for b in state.battalions_of[player]) for player in (0, 1)]
        super().setup(state)

    def rampart_kingdom(self, state: BattleState, battalion: int) -> str | None:
        """R53: a battalion builds a rampart of its own kingdom, while its general has one left."""
        kingdom = state.kingdom[battalion]
        return kingdom if kingdom in state.variant.rampart_pool[state.owner[battalion]] else None

    def take_rampart(self, state: BattleState, player: int, kingdom: str) -> None:
        pool = list(state.variant.rampart_pool[player])
        pool.remove(kingdom)
        state.variant.rampart_pool[player] = tuple(pool)
        super().take_rampart(state, player, kingdom)

    def give_back_rampart(self, state: BattleState, player: int, kingdom: str) -> None:
        state.variant.rampart_pool[player] = state.variant.rampart_pool[player] + (kingdom,)
        super().give_back_rampart(state, player, kingdom)
