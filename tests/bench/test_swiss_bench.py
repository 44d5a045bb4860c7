"""The Swiss benchmark runs on a small field and prints every figure docs/performance.md quotes and the
command that reproduces them."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_swiss_benchmark_prints_its_figures_and_how_to_reproduce_them():
    result = subprocess.run([sys.executable, "bench/swiss.py", "--players", "9", "--rounds", "3", "--repeats", "1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("9 players, 3 rounds (median of 1 events): slowest round paired in", "rematches: matching 0",
                   "tables of 4 seated in", "| pair_round, 9 players (slowest of 3 rounds) |", "greedy",
                   "reproduce: .venv/bin/python bench/swiss.py --players 9 --rounds 3 --seed 2026 --repeats 1"):
        assert figure in out, f"{figure!r} missing from:\n{out}"
