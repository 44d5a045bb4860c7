"""The top cut after the Swiss rounds: a single-elimination bracket of the best 4, 8 or 16.

Seeds are placed in the standard bracket order, built by doubling: from (1, 2), each seed s of a
bracket of m is followed by its first-round opponent 2m + 1 - s. For 8 that gives 1v8, 4v5, 2v7, 3v6:
seed 1 and seed 2 sit in different halves and can only meet in the final, 1 and 4 only in a
semi-final, and in every round the better seed meets the worst seed left in its part of the bracket
when the better seeds keep winning. Winners stay in bracket order, so each later round pairs
neighbours: the winner of table 1 meets the winner of table 2, and so on.
"""
from __future__ import annotations

from collections.abc import Sequence

from pairings.swiss import SwissError

CUT_SIZES = (4, 8, 16)


def bracket_rounds(size: int) -> int:
    """Rounds of a top cut of `size`: 2 for 4, 3 for 8, 4 for 16."""
    _check_size(size)
    return size.bit_length() - 1


def check_top_cut(size: int, players: int) -> None:
    """Refuses a cut the event cannot hold: a size other than 4, 8 or 16, or more than its players."""
    _check_size(size)
    if size > players:
        raise SwissError(f"A top cut of {size} needs at least {size} players; this event has {players}. "
                         f"Choose a smaller cut or none.")


def seed_order(size: int) -> list[int]:
    """Seed numbers in bracket order, e.g. [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    _check_size(size)
    order = [1]
    while len(order) < size:
        bracket = 2 * len(order)
        order = [seed for placed in order for seed in (placed, bracket + 1 - placed)]
    return order


def top_cut_first_round(seeds: Sequence[int]) -> list[tuple[int, int]]:
    """First-round pairs for `seeds` (ids, seed 1 first), better seed first, in bracket order."""
    seeds = list(seeds)
    _check_size(len(seeds), what="seeds")
    _check_unique(seeds)
    order = seed_order(len(seeds))
    return [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, len(order), 2)]


def next_round(winners_in_bracket_order: Sequence[int]) -> list[tuple[int, int]]:
    """The next round's pairs from the previous round's winners, listed in the order of its tables."""
    winners = list(winners_in_bracket_order)
    if len(winners) < 2 or len(winners) % 2:
        raise SwissError(f"The next round of a top cut needs an even number of winners, at least 2; "
                         f"{len(winners)} {'was' if len(winners) == 1 else 'were'} given.")
    _check_unique(winners)
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def _check_size(size, what="size"):
    if size not in CUT_SIZES:
        told = f"{size} seeds were given" if what == "seeds" else f"not {size}"
        raise SwissError(f"A top cut has 4, 8 or 16 players, {told}.")


def _check_unique(ids):
    if len(set(ids)) != len(ids):
        raise SwissError("A top cut lists each player once; a player is listed twice.")
