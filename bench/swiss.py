"""Swiss pairing benchmark (pure Python, no database): a round paired as a maximum-weight matching
against a greedy pairing of the same field, and a round of multiplayer tables seated.

    .venv/bin/python bench/swiss.py [--players 16 64 256] [--rounds 6] [--seed 2026] [--repeats 3]

For each field size N, a seeded event is played: every round is paired by
`pairings.swiss.pair_round` (no rematch while one is avoidable, at most one bye each, score
groups; networkx's maximum-weight matching), its games decided at random (a win for the higher-ranked
player 60 % of the time, 10 % draws), and the standings recomputed by `swiss_standings`. The figure is
the median over `--repeats` events of the slowest round's pairing (the later rounds, with more
rematches to avoid, are the hard ones).

Baseline: a greedy pairing of the same entrants (sorted by score, each takes the next player not met
yet), the cheapest pairing a hand-written tool would do; it may leave rematches a matching avoids,
which are counted and printed. Also: `seat_tables` for tables of 4 at N players (round 3 of the
event). Goal: pairing a round of 256 players within 1 s on this machine, so the organizer's button
answers at once. Printed as met or not; never asserted in a test.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TABLE_HEAD, machine, verdict  # noqa: E402

from pairings.swiss import SwissEntrant, pair_round  # noqa: E402
from pairings.swiss_standings import Scoring, SwissGame, swiss_standings  # noqa: E402
from pairings.tables import seat_tables  # noqa: E402

GOAL_SECONDS = 1.0
GOAL_PLAYERS = 256


def greedy_pairing(entrants):
    """Sorted by score, each player takes the next one not met yet (else the next one): rematches counted."""
    order = sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))
    free, pairs, rematches = list(order), [], 0
    if len(free) % 2:
        free.pop()  # the last player gets the bye
    while free:
        first = free.pop(0)
        partner = next((other for other in free if other.id not in first.opponents), free[0])
        rematches += partner.id in first.opponents
        free.remove(partner)
        pairs.append((first.id, partner.id))
    return pairs, rematches


def entrants_of(players, games, opponents, byes):
    rows = swiss_standings(players, games, Scoring(), ("sos", "omw"))
    return [SwissEntrant(id=row.id, score=row.score, rank=row.rank, opponents=frozenset(opponents[row.id]),
                         had_bye=row.id in byes) for row in rows]


def play_event(n, rounds, rng):
    """(slowest pairing in s, slowest greedy in s, greedy rematches in all, matching rematches, seating s)."""
    players = list(range(1, n + 1))
    games, opponents, byes = [], {p: set() for p in players}, set()
    worst = worst_greedy = seating = 0.0
    greedy_rematches = matching_rematches = 0
    for number in range(1, rounds + 1):
        entrants = entrants_of(players, games, opponents, byes)
        started = time.perf_counter()
        pairing = pair_round(entrants)
        worst = max(worst, time.perf_counter() - started)
        started = time.perf_counter()
        _pairs, rematches = greedy_pairing(entrants)
        worst_greedy = max(worst_greedy, time.perf_counter() - started)
        greedy_rematches += rematches
        matching_rematches += len(pairing.rematches)
        if number == 3:
            started = time.perf_counter()
            seat_tables(entrants, 4, {p: frozenset(opponents[p]) for p in players})
            seating = time.perf_counter() - started
        if pairing.bye is not None:
            byes.add(pairing.bye)
            games.append(SwissGame(round=number, player=pairing.bye, opponent=None, outcome="bye"))
        for high, low in pairing.pairs:
            opponents[high].add(low)
            opponents[low].add(high)
            roll = rng.random()
            outcome = "draw" if roll < 0.1 else ("win" if roll < 0.7 else "loss")
            games.append(SwissGame(round=number, player=high, opponent=low, outcome=outcome))
    return worst, worst_greedy, greedy_rematches, matching_rematches, seating


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    lines = [TABLE_HEAD]
    for n in args.players:
        runs = [play_event(n, args.rounds, random.Random(args.seed + repeat)) for repeat in range(args.repeats)]
        worst = statistics.median(run[0] for run in runs)
        greedy = statistics.median(run[1] for run in runs)
        seating = statistics.median(run[4] for run in runs)
        print(f"{n} players, {args.rounds} rounds (median of {args.repeats} events): slowest round paired in "
              f"{worst * 1000:.1f} ms by the matching, {greedy * 1000:.2f} ms greedily; rematches: matching "
              f"{sum(run[3] for run in runs)}, greedy {sum(run[2] for run in runs)}; tables of 4 seated in "
              f"{seating * 1000:.1f} ms")
        goal = f"<= {GOAL_SECONDS:.0f} s at {GOAL_PLAYERS} players"
        met = worst <= GOAL_SECONDS if n >= GOAL_PLAYERS else True
        lines.append(verdict(f"pair_round, {n} players (slowest of {args.rounds} rounds)", f"{worst * 1000:.1f} ms",
                             f"greedy {greedy * 1000:.2f} ms", worst / greedy if greedy else 0.0, goal, met))
    print("\n".join(lines))
    print("reproduce: .venv/bin/python bench/swiss.py --players "
          f"{' '.join(map(str, args.players))} --rounds {args.rounds} --seed {args.seed} --repeats {args.repeats}")


if __name__ == "__main__":
    main()
