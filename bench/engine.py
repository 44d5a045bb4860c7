"""Rules engine benchmark: adjudication speed against python-chess, victory check cost, memory, growth.

    .venv/bin/python bench/engine.py [--games 200] [--seed 2026] [--max-turns 120] [--variant-games 20]

What it does, in one run on one machine:

1. Generates a fixed seeded corpus of core-rules games (`rules_engine.generator`, not timed) and
   times `adjudicate` on it three ways: from the JSON text (strict reading included: the headline,
   since a report arrives as text), from parsed dicts, and from loaded replays. Every adjudication
   runs every victory check (both generals at every turn end, for `missed`).
2. Baseline, same run: python-chess (a dev-only dependency, `pip install chess`) reading a seeded
   PGN corpus of the same number of plies with `chess.pgn.read_game`, which parses and
   legality-checks every SAN move, then the outcome of each final position. Goal: WARLINE turns/s
   >= python-chess plies/s. Also shown, not compared: python-chess pushing already-parsed moves.
3. One victory check (a general's best condition at a turn end): median and worst, each check timed
   alone (best of 3), over every turn end of 40 games.
4. Peak memory of one adjudication (tracemalloc), the longest game.
5. One corpus per combination of the Organized Play variants, and how the cost grows with game
   length (20 / 60 / 200 turns) and board size (7 x 7, 11 x 11).
"""
from __future__ import annotations

import argparse
import io
import itertools
import json
import random
import statistics
import sys
import time
import tracemalloc

from _common import median_time  # also puts the project on sys.path

from rules_engine import adjudicate, generate_game, load_replay, replay_states
from rules_engine.model import VARIANTS
from rules_engine.victory import best_condition


def best_of(repeats: int, run) -> float:
    return min(median_time(run, repeats)[1])


def chess_corpus(plies: int, games: int, seed: int):
    """`games` seeded random games of about plies/games plies each: (PGN texts, move lists)."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    texts, move_lists = [], []
    per_game = plies // games + 1
    remaining = plies
    while remaining > 0:
        board = chess.Board()
        moves = []
        while not board.is_game_over() and len(moves) < min(per_game, remaining):
            move = rng.choice(list(board.legal_moves))
            moves.append(move)
            board.push(move)
        remaining -= len(moves)
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"bench seed {seed}"
        texts.append(str(game))
        move_lists.append(moves)
    return texts, move_lists


def chess_baseline(plies: int, games: int, seed: int) -> dict | None:
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    texts, move_lists = chess_corpus(plies, games, seed)
    total = sum(len(moves) for moves in move_lists)

    def read_all():
        for text in texts:
            game = chess.pgn.read_game(io.StringIO(text))
            assert not game.errors, game.errors
            game.end().board().outcome()

    def push_all():
        for moves in move_lists:
            board = chess.Board()
            for move in moves:
                assert board.is_legal(move)
                board.push(move)
            board.outcome()

    return {"version": chess.__version__, "plies": total, "games": len(texts),
            "pgn": total / best_of(3, read_all), "push": total / best_of(3, push_all)}


def victory_check_costs(replays) -> tuple[float, float, int]:
    """(median, worst) seconds of one check, each timed alone (best of 3), and how many."""
    states = [snapshot.state for replay in replays for snapshot in replay_states(replay)][1:]
    costs = []
    for state in states:
        for player in (0, 1):
            best = None
            for _ in range(3):
                start = time.perf_counter_ns()
                best_condition(state, player)
                elapsed = time.perf_counter_ns() - start
                best = elapsed if best is None else min(best, elapsed)
            costs.append(best / 1e9)
    return statistics.median(costs), max(costs), len(costs)


def turns_per_second(docs) -> tuple[int, float, float]:
    """(turns, turns/s, median turns per game) adjudicating the JSON texts of `docs`."""
    texts = [json.dumps(doc) for doc in docs]
    turns = sum(len(doc["turns"]) for doc in docs)
    seconds = best_of(3, lambda: [adjudicate(text) for text in texts])
    return turns, turns / seconds, statistics.median(len(doc["turns"]) for doc in docs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-turns", type=int, default=120)
    parser.add_argument("--variant-games", type=int, default=20, help="games per variant combination")
    parser.add_argument("--no-growth", action="store_true", help="skip the growth curves")
    args = parser.parse_args()

    corpus = [generate_game(args.seed + number, max_turns=args.max_turns) for number in range(args.games)]
    texts = [json.dumps(doc) for doc in corpus]
    replays = [load_replay(doc) for doc in corpus]
    turns = sum(len(replay.turns) for replay in replays)
    assert all(adjudicate(replay).valid for replay in replays), "the generated corpus must be legal"

    from_text = best_of(3, lambda: [adjudicate(text) for text in texts])
    from_dicts = best_of(3, lambda: [adjudicate(doc) for doc in corpus])
    loaded = best_of(3, lambda: [adjudicate(replay) for replay in replays])
    check_median, check_worst, checks = victory_check_costs(replays[:40])

    longest = max(corpus, key=lambda doc: len(doc["turns"]))
    tracemalloc.start()
    adjudicate(longest)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    lengths = [len(replay.turns) for replay in replays]
    print(f"corpus: {args.games} core-rules games, seed {args.seed}, 7 x 7, up to {args.max_turns} turns "
          f"({turns} turns, median {statistics.median(lengths):.0f} per game)")
    print(f"adjudicate from JSON text (strict reading included): {turns / from_text:,.0f} turns/s, "
          f"{args.games / from_text:,.1f} games/s")
    print(f"adjudicate from dicts: {turns / from_dicts:,.0f} turns/s, {args.games / from_dicts:,.1f} games/s")
    print(f"adjudicate loaded replays: {turns / loaded:,.0f} turns/s, {args.games / loaded:,.1f} games/s")
    print(f"one victory check (a general's best condition at a turn end), {checks} checks timed alone: "
          f"median {check_median * 1e6:,.1f} us, worst {check_worst * 1e6:,.1f} us")
    print(f"peak memory adjudicating the longest game ({len(longest['turns'])} turns): {peak / 1024:,.0f} KiB")

    chess_figures = chess_baseline(turns, min(args.games, 120), args.seed)
    if chess_figures is None:
        print("python-chess baseline skipped: python-chess is not installed "
              "(.venv/bin/pip install chess, or pip install -r requirements-dev.txt).")
    else:
        ratio = (turns / from_text) / chess_figures["pgn"]
        print(f"baseline python-chess {chess_figures['version']}: read_game over {chess_figures['games']} PGN games, "
              f"{chess_figures['plies']} plies (SAN parsed and legality-checked, outcome at the end): "
              f"{chess_figures['pgn']:,.0f} plies/s")
        print(f"  (not compared: pushing already-parsed moves with is_legal: {chess_figures['push']:,.0f} plies/s)")
        print(f"ratio WARLINE turns/s (from JSON text) : python-chess plies/s (from PGN text) = {ratio:.2f} "
              f"(goal >= 1.0: {'met' if ratio >= 1 else 'NOT met'})")

    print(f"\nvariant combinations ({args.variant_games} games each, 7 x 7, up to {args.max_turns} turns, "
          "adjudicated from JSON text):")
    print("| variants | turns | median turns/game | turns/s |\n|---|---|---|---|")
    for size in range(1, len(VARIANTS) + 1):
        for combination in itertools.combinations(VARIANTS, size):
            docs = [generate_game(args.seed + number, max_turns=args.max_turns, variants=combination)
                    for number in range(args.variant_games)]
            total, rate, median = turns_per_second(docs)
            print(f"| {' + '.join(combination)} | {total} | {median:.0f} | {rate:,.0f} |")

    if not args.no_growth:
        print(f"\nhow it grows ({args.variant_games} core-rules games per row, no claims: games run to the limit "
              "unless a general is forced to surrender):")
        print("| board | turn limit | turns | median turns/game | turns/s | games/s |\n|---|---|---|---|---|---|")
        for (width, height), limit in [((7, 7), 20), ((7, 7), 60), ((7, 7), 200), ((11, 11), 60), ((11, 11), 200)]:
            docs = [generate_game(args.seed + number, width=width, height=height, max_turns=limit, claim_chance=0.0)
                    for number in range(args.variant_games)]
            total, rate, median = turns_per_second(docs)
            print(f"| {width} x {height} | {limit} | {total} | {median:.0f} | {rate:,.0f} | "
                  f"{rate / (total / len(docs)):,.1f} |")

    print(f"\nreproduce: .venv/bin/python bench/engine.py --games {args.games} --seed {args.seed} "
          f"--max-turns {args.max_turns} --variant-games {args.variant_games}   (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
