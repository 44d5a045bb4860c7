"""Warlord: Saga of the Storm CCG, 4th edition, as a game system (../shared/spec/warlord-ccg-decks.md).

Section 6 of the spec: the game's only outcome is elimination, the last player standing wins; a table
may seat more than two players. A two-player match is a win or, for a game the clock stopped, a draw.
"""
from __future__ import annotations

from game_systems.base import Fact, GameSystem
from game_systems.common import PLAIN_OUTCOMES, PLAIN_RESULT_KINDS, SWISS_TIE_BREAKERS, default_scoring
from game_systems.warlord_ccg import CHECKER

SYSTEM = GameSystem(
    slug="warlord-ccg-4e",
    name="Warlord: Saga of the Storm CCG (4th edition)",
    short_name="Warlord CCG",
    result_kinds=PLAIN_RESULT_KINDS,
    formats=("swiss",),
    default_format="swiss",
    default_scoring=default_scoring(),
    tie_breakers=tuple(t for t in SWISS_TIE_BREAKERS if t.key in ("sos", "omw", "h2h")),
    default_tie_breakers=("omw", "sos", "h2h"),
    list_checker=CHECKER,
    table_sizes=(2, 3, 4),
    result_facts=(
        Fact("status", "How the game ended", choices=("finished", "unfinished"),
             help="finished: a player's Warlord left play; unfinished: the round's time ran out or play stopped."),
        Fact("turns", "Turns played", minimum=0, maximum=99),
    ),
    outcomes=PLAIN_OUTCOMES,
)
