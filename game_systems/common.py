"""What the games share: the Swiss tie-breakers a game may allow and the default scoring."""
from __future__ import annotations

from game_systems.base import ResultKind, TieBreaker

SWISS_TIE_BREAKERS: tuple[TieBreaker, ...] = (
    TieBreaker("sos", "Strength of schedule",
               "The sum of the scores of every opponent met (a bye adds nothing)."),
    TieBreaker("omw", "Opponents' win rate",
               "The average of the opponents' match-win rates, each at least one third."),
    TieBreaker("h2h", "Head to head",
               "Points scored in the games among the players still tied."),
    TieBreaker("points_destroyed", "Points destroyed",
               "The points value of the enemy models this player destroyed, over all games."),
)

# Two-player results of the games without an engine: a win (elimination or the other side dead), a
# draw (a game the players or the clock stopped with no winner), a forfeit.
PLAIN_RESULT_KINDS = (
    ResultKind("victory", "Win", has_winner=True),
    ResultKind("draw", "Draw", has_winner=False),
    ResultKind("forfeit", "Forfeit", has_winner=True),
)


def default_scoring(win: float = 3, draw: float = 1, loss: float = 0, bye: float = 3) -> dict[str, float]:
    return {"win": win, "draw": draw, "loss": loss, "bye": bye}


PLAIN_OUTCOMES = {"victory": ("win", "loss"), "forfeit": ("win", "loss"), "draw": ("draw", "draw")}
