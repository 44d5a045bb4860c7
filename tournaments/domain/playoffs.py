"""Playoff battles for a tie that matters (R24); byes for the generals listed first (R70).

Two tied generals meet until one of them wins: a Stalemate or Resolve means another battle of the
same pairing. More than two play a knockout. The state of a playoff is a pure function of the tied
generals and the playoff results so far, so it can be recomputed after any correction.

Bracket: generals in the order given (callers pass standings order, i.e. by key, as
`decide_place` lists them). When the count is not a power of two, the first generals get the byes
and wait for the second round; the rest meet in adjacent pairs (3rd v 4th, 5th v 6th, ...). The
tied generals are equal on every figure, so no seeding is owed beyond who waits.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.errors import DomainError
from tournaments.domain.outcomes import BattleResult, Kind


@dataclass(frozen=True)
class PlayoffState:
    winner: str | None  # set once the knockout is over
    pending: tuple[tuple[str, str], ...]  # pairings to play next, not decided yet (first, second)


def _decisive_winners(results):
    """Winner per pairing, from the first result that decides it. Stalemate, Resolve and battles not
    decided yet decide nothing; a battle unplayed because of a disqualification goes to the opponent."""
    winners = {}
    for result in results:
        outcome = result.outcome
        if outcome is None or outcome.kind in (Kind.STALEMATE, Kind.RESOLVE):
            continue
        # VICTORY, or FORFEIT (the winner is the general who did not forfeit)
        winner = result.opponent(outcome.disqualified) if outcome.kind is Kind.UNPLAYED_DQ else outcome.winner
        winners.setdefault(frozenset(result.generals), winner)
    return winners


def next_playoff_pairings(tied: Sequence[str], playoff_results: Sequence[BattleResult]) -> PlayoffState:
    """The winner, or the pairings that must be played next.

    `playoff_results` are the playoff battles recorded so far, in any order; results of pairings that
    are not part of the bracket are ignored. A pairing with a Stalemate or Resolve and no decisive
    result stays pending: play it again as a new battle. One tied general wins at once.
    """
    tied = list(tied)
    if not tied:
        raise DomainError("A playoff needs the tied generals; none were given.", field="tied")
    if len(set(tied)) != len(tied):
        raise DomainError(f"A playoff needs each tied general once; the list {', '.join(tied)} repeats one.",
                          field="tied")
    winners = _decisive_winners(playoff_results)
    bracket = 1
    while bracket < len(tied):
        bracket *= 2
    byes = bracket - len(tied)
    waiting, contenders = tied[:byes], tied[byes:]
    while len(contenders) + len(waiting) > 1:
        pending, advancing = [], []
        for first, second in zip(contenders[::2], contenders[1::2], strict=True):
            winner = winners.get(frozenset((first, second)))
            if winner is None:
                pending.append((first, second))
            else:
                advancing.append(winner)
        if pending:
            return PlayoffState(winner=None, pending=tuple(pending))
        contenders, waiting = waiting + advancing, []
    return PlayoffState(winner=(contenders + waiting)[0], pending=())
