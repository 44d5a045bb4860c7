"""Rules engine benchmark: full adjudication speed, victory check cost, peak memory.

    .venv/bin/python bench/engine.py [--games 200] [--seed 2026] [--max-turns 120]

Generates a fixed seeded corpus with `rules_engine.generator` (not timed), then times
`adjudicate` on it (formation, every turn, the victory checks behind `missed` and the result),
one victory check (both generals' best condition at a turn end), and the peak memory of one
adjudication (tracemalloc). When python-chess is importable it replays random chess games of
the same number of plies as a familiar yardstick (`pip install chess`, a dev-only dependency).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine import adjudicate, generate_game, load_replay, replay_states  # noqa: E402
from rules_engine.victory import best_condition  # noqa: E402


def best_of(repeats: int, run) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        timings.append(time.perf_counter() - start)
    return min(timings)


def chess_baseline(plies: int, games: int, seed: int) -> str:
    try:
        import chess
    except ImportError:
        return ("python-chess baseline skipped: python-chess is not installed "
                "(.venv/bin/pip install chess, or pip install -r requirements-dev.txt).")
    rng = random.Random(seed)
    moves_per_game = []
    for _ in range(games):
        board = chess.Board()
        moves = []
        while not board.is_game_over() and len(moves) < plies // games + 1:
            move = rng.choice(list(board.legal_moves))
            moves.append(move)
            board.push(move)
        moves_per_game.append(moves)

    def replay_all():
        for moves in moves_per_game:
            board = chess.Board()
            for move in moves:
                assert board.is_legal(move)
                board.push(move)
            board.outcome()

    total = sum(len(moves) for moves in moves_per_game)
    seconds = best_of(3, replay_all)
    return (f"python-chess {chess.__version__}: replaying {total} plies of {games} random games with a legality "
            f"check per move and the outcome at the end: {total / seconds:,.0f} plies/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-turns", type=int, default=120)
    args = parser.parse_args()

    corpus = [generate_game(args.seed + number, max_turns=args.max_turns) for number in range(args.games)]
    replays = [load_replay(doc) for doc in corpus]
    turns = sum(len(replay.turns) for replay in replays)
    verdicts = [adjudicate(replay) for replay in replays]
    assert all(verdict.valid for verdict in verdicts), "the generated corpus must be legal"

    typed = best_of(3, lambda: [adjudicate(replay) for replay in replays])
    from_dicts = best_of(3, lambda: [adjudicate(doc) for doc in corpus])

    states = [snapshot.state for replay in replays[:40] for snapshot in replay_states(replay)][1:]
    check = best_of(3, lambda: [best_condition(state, player) for state in states for player in (0, 1)])
    per_check = check / (2 * len(states))

    longest = max(corpus, key=lambda doc: len(doc["turns"]))
    tracemalloc.start()
    adjudicate(longest)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    lengths = [len(replay.turns) for replay in replays]
    print(f"corpus: {args.games} games, seed {args.seed}, 7 x 7, up to {args.max_turns} turns "
          f"({turns} turns, median {statistics.median(lengths):.0f} per game)")
    print(f"adjudicate (loaded replays): {turns / typed:,.0f} turns/s, {args.games / typed:,.1f} games/s")
    print(f"adjudicate (from dicts, strict reading included): {turns / from_dicts:,.0f} turns/s, "
          f"{args.games / from_dicts:,.1f} games/s")
    print(f"one victory check (a general's best condition at a turn end): {per_check * 1e6:,.1f} us "
          f"(mean over {2 * len(states)} checks)")
    print(f"peak memory adjudicating the longest game ({len(longest['turns'])} turns): {peak / 1024:,.0f} KiB")
    print(chess_baseline(turns, min(args.games, 50), args.seed))
    print(f"reproduce: .venv/bin/python bench/engine.py --games {args.games} --seed {args.seed} "
          f"--max-turns {args.max_turns}   (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
