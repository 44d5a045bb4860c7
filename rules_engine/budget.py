"""R99: what the victory checks' searches count against an adjudication's search budget (`BattleState.work`,
a `SearchWork`): the positions a Maneuver search expands count there (`BattleState.explore`), and each
copy of the battlefield a search tries an order or an art on counts here."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BattleState


def copy_steps(state: BattleState) -> int:
    """R99: what a copy of the battlefield counts, in search steps (a position of a search costs about what
    copying 256 zones does)."""
    return 1 + state.board.size // 256


def spend(state: BattleState, steps: int) -> None:
    """R99: count `steps` against the adjudication's search budget (`BattleState.work`), if it has one."""
    work = state.work
    if work is not None and steps:
        work.spend(steps)
