"""The engine benchmark runs and prints every figure docs/performance.md quotes (a tiny corpus)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_benchmark_prints_its_figures_and_how_to_reproduce_them():
    result = subprocess.run(
        [sys.executable, "bench/engine.py", "--games", "3", "--variant-games", "1", "--max-turns", "12"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("turns/s", "median", "worst", "peak memory", "read_game over", "ratio WARLINE",
                   "| battle_arts + army_recruiting + terrain + double_time |", "| 11 x 11 | 200 |",
                   "reproduce: .venv/bin/python bench/engine.py --games 3"):
        assert figure in out, f"{figure!r} missing from:\n{out}"


def test_the_engine_comparison_times_two_engines_on_the_same_replays():
    result = subprocess.run(
        [sys.executable, "bench/engine_compare.py", "--base", "HEAD", "--games", "2", "--variant-games", "1",
         "--max-turns", "12", "--repeats", "1", "--rounds", "1", "--corpora", "core,battle_arts + double_time"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("| core | 2 of 2 |", "| battle_arts + double_time | 1 of 1 |", "slowest corpus by CPU time",
                   "reproduce: .venv/bin/python bench/engine_compare.py --base HEAD --games 2"):
        assert figure in out, f"{figure!r} missing from:\n{out}"
    assert "| army_recruiting |" not in out  # --corpora keeps only those named
