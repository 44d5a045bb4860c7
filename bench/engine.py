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
   >= python-chess plies/s. The headline and python-chess take turns, one pass over each corpus a
   round, for `--rounds` rounds (5) in the same process, by CPU time: the figures are the median round of each and
   the ratio is the ratio of the medians, so that a moment when the machine is busy falls on both and
   cannot decide the goal alone. Also shown, not compared: python-chess pushing already-parsed moves.
3. One victory check (a general's best condition at a turn end): median and worst, each check timed
   alone (best of 3), over every turn end of 40 games.
4. Peak memory of one adjudication (tracemalloc), the longest game.
5. One corpus per combination of the Organized Play variants, and how the cost grows with game
   length (20 / 60 / 200 turns) and board size (7 x 7, 11 x 11).
6. Both engines side by side: this process runs the engine OPP_ENGINE names (the pure Python
   sources by default); the headline (1 and 3) is measured again in a second process with the other
   one (the mypyc build of the same sources, built first by scripts/build_engine when missing), on
   the same corpus, its verdicts compared, taking turns with python-chess in that process as in 2;
   the goal is the compiled engine's ratio of medians. `--one-engine` skips it.
7. The worst case (R99): the hand-built logs of `rules_engine.generator.worst_case_game` (26 x 26, sixteen
   battalions a side out of reach, every turn end searching every two-order turn; with Battle Arts a Flourish
   may raise a rampart on any empty zone), two turns each with default and with raised MA, and stretched to
   5,000 turns (about 1 MB, under the document limit). Each log is adjudicated from its JSON text (CPU
   seconds; goal: under 3 s, adjudicated or refused with `search_budget_exceeded`), and the slowest turn
   end found is timed alone, with the search steps it spends (`SearchWork`, the same on every machine).
   `--no-worst-case` skips it, `--worst-case-only` runs it alone.
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

from _common import ROOT, median_time  # also puts the project on sys.path

# First: which engine this process imports (OPP_ENGINE=pure, the default, or compiled: the mypyc
# build of the same sources, built by scripts/build_engine; the test run's own choice and guard).
from tests import engine_under_test

# isort: split
from rules_engine import adjudicate, generate_game, load_replay, replay_states
from rules_engine.generator import worst_case_game
from rules_engine.model import VARIANTS
from rules_engine.state import SearchWork
from rules_engine.verdict import SEARCH_STEP_LIMIT
from rules_engine.victory import best_condition

WORST_CASE_GOAL = 3.0  # seconds per log, adjudicated or refused (issue 22)
RAISED_MA = (8, 8, 8, 8, 8, 1)  # rules.params: every Arms below 6 moves 8 zones


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
    """The python-chess corpus and what reads it (`read_all`, timed against the headline by
    `against_chess`); its `push` figure is measured here. None without python-chess."""
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

    return {"version": chess.__version__, "plies": total, "games": len(texts), "read_all": read_all,
            "push": total / best_of(3, push_all)}


def against_chess(texts: list[str], turns: int, chess_figures: dict | None, rounds: int) -> dict:
    """The headline (adjudicate from JSON text) and python-chess's read_game, taking turns for `rounds`
    rounds, each timed by this process's CPU time (time spent waiting for a busy machine's cores is not
    counted): the median round of each (turns/s, plies/s) and the ratio of the medians."""
    engine_rates, chess_rates = [], []
    for _ in range(rounds):
        start = time.process_time()
        for text in texts:
            adjudicate(text)
        engine_rates.append(turns / (time.process_time() - start))
        if chess_figures is not None:
            start = time.process_time()
            chess_figures["read_all"]()
            chess_rates.append(chess_figures["plies"] / (time.process_time() - start))
    out = {"text": statistics.median(engine_rates), "text_rounds": engine_rates, "pgn": None, "pgn_rounds": chess_rates}
    if chess_rates:
        out["pgn"] = statistics.median(chess_rates)
        out["ratio"] = out["text"] / out["pgn"]
    return out


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


def headline(args) -> dict:
    """The headline figures of this process's engine on the seeded Core Rules corpus."""
    corpus = [generate_game(args.seed + number, max_turns=args.max_turns) for number in range(args.games)]
    texts = [json.dumps(doc) for doc in corpus]
    replays = [load_replay(doc) for doc in corpus]
    turns = sum(len(replay.turns) for replay in replays)
    verdicts = [adjudicate(replay).to_dict() for replay in replays]
    check_median, check_worst, _ = victory_check_costs(replays[:40])
    chess_figures = chess_baseline(turns, min(args.games, 120), args.seed)
    rounds = against_chess(texts, turns, chess_figures, args.rounds)
    return {"engine": engine_under_test.KIND, "turns": turns, **rounds,
            "dicts": turns / best_of(3, lambda: [adjudicate(doc) for doc in corpus]),
            "loaded": turns / best_of(3, lambda: [adjudicate(replay) for replay in replays]),
            "check_median": check_median, "check_worst": check_worst,
            "verdicts": json.dumps(verdicts, sort_keys=True)}


def other_engine_headline(args) -> dict | None:
    """The same headline measured by the other engine (pure <-> compiled), in its own process."""
    import os
    import subprocess

    other = "compiled" if engine_under_test.KIND == "pure" else "pure"
    if other == "compiled":
        built = subprocess.run(["bash", str(ROOT / "scripts" / "build_engine"), "compiled"], cwd=ROOT,
                               capture_output=True, text=True)
        if built.returncode != 0:
            print(f"compiled engine not measured: scripts/build_engine failed:\n{built.stderr[-2000:]}")
            return None
    done = subprocess.run([sys.executable, __file__, "--headline-json", "--games", str(args.games),
                           "--seed", str(args.seed), "--max-turns", str(args.max_turns), "--rounds", str(args.rounds)],
                          env={**os.environ, "OPP_ENGINE": other}, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{other} engine not measured:\n{done.stderr[-2000:]}")
        return None
    return json.loads(done.stdout.splitlines()[-1])


def slowest_turn_end(doc: dict, turn_ends: int) -> tuple[float, int, int]:
    """(CPU seconds, turn, search steps) of the dearest of the first `turn_ends` turn ends of a log: both
    generals' best condition, as `missed` asks at every turn end, on a fresh copy (nothing remembered)."""
    worst = (0.0, 0, 0)
    for snapshot in replay_states(doc):
        if snapshot.turn == 0:
            continue
        if snapshot.turn > turn_ends:
            break
        state = snapshot.state
        state.memo = {}
        state.work = SearchWork(10 ** 12)
        start = time.process_time()
        for player in (0, 1):
            best_condition(state, player)
        elapsed = time.process_time() - start
        if elapsed > worst[0]:
            worst = (elapsed, snapshot.turn, state.work.spent)
    return worst


def worst_case_section() -> bool:
    """Prints the worst-case table; True when every log met the goal."""
    print(f"\nworst case (R99): hand-built 26 x 26 logs, adjudicated from JSON text, CPU seconds; search budget "
          f"{SEARCH_STEP_LIMIT:,} steps a replay; goal < {WORST_CASE_GOAL:.0f} s a log")
    print("| log | turns | size | adjudicate | verdict | slowest turn end (timed alone) |\n|---|---|---|---|---|---|")
    met = True
    for kind, ma_by_arms, turns in [("flourish", None, 2), ("flourish", RAISED_MA, 2), ("quiet", None, 2),
                                    ("quiet", RAISED_MA, 2), ("flourish", None, 5000), ("quiet", None, 5000),
                                    ("flourish", RAISED_MA, 5000)]:
        doc = worst_case_game(kind, turns=turns, ma_by_arms=ma_by_arms)
        text = json.dumps(doc, separators=(",", ":"))
        start = time.process_time()
        verdict = adjudicate(text)
        seconds = time.process_time() - start
        met = met and seconds < WORST_CASE_GOAL
        if verdict.valid:
            answer = f"valid, {verdict.outcome}"
        else:
            answer = f"{verdict.error.code} at turn {verdict.error.location.turn}"
        last = len(doc["turns"]) if verdict.valid else verdict.error.location.turn
        slowest, at_turn, steps = slowest_turn_end(doc, min(last, 40))
        params = "default MA" if ma_by_arms is None else f"ma_by_arms {list(ma_by_arms)}"
        print(f"| {kind}, {params} | {turns} | {len(text) / 1024:,.0f} KiB | {seconds:.2f} s | {answer} | "
              f"{slowest:.3f} s at turn {at_turn}, {steps:,} steps |")
    print(f"goal (every log < {WORST_CASE_GOAL:.0f} s, adjudicated or refused): {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-turns", type=int, default=120)
    parser.add_argument("--variant-games", type=int, default=20, help="games per variant combination")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of the headline taking turns with python-chess (medians compared)")
    parser.add_argument("--no-growth", action="store_true", help="skip the growth curves")
    parser.add_argument("--one-engine", action="store_true",
                        help="measure only this process's engine (OPP_ENGINE), not the other one beside it")
    parser.add_argument("--headline-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-worst-case", action="store_true", help="skip the worst-case logs")
    parser.add_argument("--worst-case-only", action="store_true", help="run the worst-case logs alone")
    args = parser.parse_args()
    if args.worst_case_only:
        print(engine_under_test.describe())
        worst_case_section()
        print(f"\nreproduce: .venv/bin/python bench/engine.py --worst-case-only   (Python {sys.version.split()[0]})")
        return
    if args.headline_json:
        print(json.dumps(headline(args)))
        return
    print(engine_under_test.describe())

    corpus = [generate_game(args.seed + number, max_turns=args.max_turns) for number in range(args.games)]
    texts = [json.dumps(doc) for doc in corpus]
    replays = [load_replay(doc) for doc in corpus]
    turns = sum(len(replay.turns) for replay in replays)
    assert all(adjudicate(replay).valid for replay in replays), "the generated corpus must be legal"

    chess_figures = chess_baseline(turns, min(args.games, 120), args.seed)
    rounds = against_chess(texts, turns, chess_figures, args.rounds)
    from_text = turns / rounds["text"]
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
          f"{args.games / from_text:,.1f} games/s (median of {args.rounds} rounds: "
          f"{', '.join(f'{rate:,.0f}' for rate in rounds['text_rounds'])})")
    print(f"adjudicate from dicts: {turns / from_dicts:,.0f} turns/s, {args.games / from_dicts:,.1f} games/s")
    print(f"adjudicate loaded replays: {turns / loaded:,.0f} turns/s, {args.games / loaded:,.1f} games/s")
    print(f"one victory check (a general's best condition at a turn end), {checks} checks timed alone: "
          f"median {check_median * 1e6:,.1f} us, worst {check_worst * 1e6:,.1f} us")
    print(f"peak memory adjudicating the longest game ({len(longest['turns'])} turns): {peak / 1024:,.0f} KiB")

    other = None if args.one_engine else other_engine_headline(args)
    if chess_figures is None:
        print("python-chess baseline skipped: python-chess is not installed "
              "(.venv/bin/pip install chess, or pip install -r requirements-dev.txt).")
    else:
        ratio = rounds["ratio"]
        print(f"baseline python-chess {chess_figures['version']}: read_game over {chess_figures['games']} PGN games, "
              f"{chess_figures['plies']} plies (SAN parsed and legality-checked, outcome at the end): "
              f"{rounds['pgn']:,.0f} plies/s (median of {args.rounds} rounds, taking turns with the line above: "
              f"{', '.join(f'{rate:,.0f}' for rate in rounds['pgn_rounds'])})")
        print(f"  (not compared: pushing already-parsed moves with is_legal: {chess_figures['push']:,.0f} plies/s)")
        print(f"ratio WARLINE turns/s (from JSON text) : python-chess plies/s (from PGN text) = {ratio:.2f} "
              f"(medians; goal >= 1.0: {'met' if ratio >= 1 else 'NOT met'})")
    if other is not None:
        mine = {"engine": engine_under_test.KIND, "text": turns / from_text, "dicts": turns / from_dicts,
                "loaded": turns / loaded, "check_median": check_median, "check_worst": check_worst,
                "pgn": rounds["pgn"], "ratio": rounds.get("ratio")}
        rows = sorted([mine, other], key=lambda row: row["engine"] != "pure")
        print("\nthe two engines, same corpus, same run, each in its own process taking turns with python-chess "
              f"({turns} turns; medians of {args.rounds} rounds):")
        print("| engine | from JSON text | from dicts | loaded replays | one victory check, median / worst "
              "| python-chess read_game, same process | ratio to python-chess |\n|---|---|---|---|---|---|---|")
        for row in rows:
            chess_rate = f"{row['pgn']:,.0f} plies/s" if row.get("pgn") else "-"
            to_chess = f"{row['ratio']:.2f}" if row.get("ratio") else "-"
            print(f"| {row['engine']} | {row['text']:,.0f} turns/s | {row['dicts']:,.0f} | {row['loaded']:,.0f} | "
                  f"{row['check_median'] * 1e6:,.1f} / {row['check_worst'] * 1e6:,.1f} us | {chess_rate} | {to_chess} |")
        pure, compiled = rows
        same = other["verdicts"] == json.dumps([adjudicate(replay).to_dict() for replay in replays], sort_keys=True)
        print(f"compiled : pure = {compiled['text'] / pure['text']:.2f} (from JSON text); "
              f"verdicts of the {args.games} games {'identical' if same else 'DIFFERENT'}")
        if compiled.get("ratio"):
            goal = compiled["ratio"]
            print(f"goal (compiled engine turns/s >= python-chess plies/s, medians of {args.rounds} rounds): "
                  f"{goal:.2f}, {'met' if goal >= 1 else 'NOT met'}")

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

    if not args.no_worst_case:
        worst_case_section()

    print(f"\nreproduce: .venv/bin/python bench/engine.py --games {args.games} --seed {args.seed} "
          f"--max-turns {args.max_turns} --variant-games {args.variant_games} --rounds {args.rounds}   "
          f"(Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
