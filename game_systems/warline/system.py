"""WARLINE as a game system: the Organized Play format of groups and round robins (R21-R25), and
Swiss rounds for unofficial events."""
from __future__ import annotations

from game_systems.base import GameSystem, ResultKind
from game_systems.common import SWISS_TIE_BREAKERS, default_scoring

SYSTEM = GameSystem(
    slug="warline",
    name="WARLINE: Tactical Fantasy Battles",
    short_name="WARLINE",
    result_kinds=(
        ResultKind("victory", "Victory", has_winner=True),
        ResultKind("stalemate", "Stalemate", has_winner=False),
        ResultKind("resolve", "Resolve", has_winner=False),
        ResultKind("forfeit", "Forfeit", has_winner=True),
    ),
    formats=("groups", "swiss"),
    default_format="groups",
    default_scoring=default_scoring(),
    tie_breakers=tuple(t for t in SWISS_TIE_BREAKERS if t.key in ("sos", "omw", "h2h")),
    default_tie_breakers=("sos", "omw", "h2h"),
    adjudicated=True,
    # R21: both generals of a Stalemate or a Resolve lose by it.
    outcomes={"victory": ("win", "loss"), "forfeit": ("win", "loss"), "stalemate": ("loss", "loss"),
              "resolve": ("loss", "loss")},
)
