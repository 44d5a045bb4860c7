"""Double Time: two orders per turn (one on the first Battle turn), two deployments per Formation turn.

The token rules of the variant need no hook: the single Vigor and Stun tokens move to the last
battalion that earned them (R3), a second Sacrifice moves the Sacrifice token, and a sacrifice
marked by the first order resolves only at the start of the general's next turn (step 4). The
state checks the two-battalions rule (R50), the Stall of a whole turn (R49) and the beneficiary
over the whole turn (R51).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import UNDEPLOYED

if TYPE_CHECKING:
    from ..state import BattleState


class DoubleTime:
    beneficiary_per_turn = True
    FIELDS = ()  # no field of its own: the battalions a turn ordered are the state's, turn by turn

    def orders_in_turn(self, turn_number: int) -> int:
        return 1 if turn_number == 1 else 2

    def formation_player(self, state: BattleState) -> int:
        """Two entries each, Player-1 first; a general with one battalion left deploys it alone (R54)."""
        player = (state.deployed // 2) % 2
        if any(state.zone[b] == UNDEPLOYED for b in state.battalions_of[player]):
            return player
        return 1 - player
