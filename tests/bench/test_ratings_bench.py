"""The ratings benchmark runs on a tiny club (its own database) and prints every figure
docs/performance.md quotes and the command that reproduces them."""
import subprocess
import sys
from pathlib import Path

from tests.conftest import missing_service, tcp_answers

ROOT = Path(__file__).resolve().parents[2]


def test_the_ratings_benchmark_prints_its_figures_and_how_to_reproduce_them():
    if not tcp_answers("127.0.0.1", 5432):
        missing_service("bench/ratings.py needs PostgreSQL at 127.0.0.1:5432.")
    result = subprocess.run(
        [sys.executable, "bench/ratings.py", "--generals", "12", "--battles", "60", "--repeats", "1",
         "--database", "opp_bench_ratings_smoke"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("rated: 60 battles, 12 generals", "3 forfeits not rated", "baseline histories(games):",
                   "reading list(rated_games()):", "product recompute_all():", "battles/s", "ratio product / baseline:",
                   "| recompute_all, 12 generals / 60 rated battles / 52 weeks (median of 1) |", "load average at the end:",
                   "reproduce: .venv/bin/python bench/ratings.py --generals 12 --battles 60"):
        assert figure in out, f"{figure!r} missing from:\n{out}"
