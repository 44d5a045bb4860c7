"""Reaper's Warlord (miniatures, quick start) as a game system (../shared/spec/reaper-warlord-armies.md).

Section 6 of the spec: results are raw facts (why the game ended, the turns completed, the points
value of enemy models each side destroyed), and the organizer's scoring decides what they are worth.
"""
from __future__ import annotations

from game_systems.base import Fact, GameSystem
from game_systems.common import PLAIN_OUTCOMES, PLAIN_RESULT_KINDS, SWISS_TIE_BREAKERS, default_scoring
from game_systems.reaper_warlord import CHECKER

SYSTEM = GameSystem(
    slug="reaper-warlord",
    name="Reaper's Warlord (miniatures)",
    short_name="Reaper's Warlord",
    result_kinds=PLAIN_RESULT_KINDS,
    formats=("swiss",),
    default_format="swiss",
    default_scoring=default_scoring(),
    tie_breakers=SWISS_TIE_BREAKERS,
    default_tie_breakers=("sos", "points_destroyed", "omw", "h2h"),
    list_checker=CHECKER,
    result_facts=(
        Fact("end_reason", "Why the game ended", choices=("side_dead", "turn_limit", "other"),
             help="side_dead: one side has no models left; turn_limit: the last game turn passed; "
                  "other: time, concession or agreement."),
        Fact("turns_completed", "Game turns completed", minimum=0, maximum=99),
        Fact("points_destroyed", "Points value of enemy models destroyed", per_side=True, maximum=1_000_000),
        Fact("troops_eliminated", "Enemy troops eliminated", per_side=True, maximum=999),
    ),
    outcomes=PLAIN_OUTCOMES,
)
