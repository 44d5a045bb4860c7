"""The live-pages benchmark runs (a few watchers, one result) and prints every figure
docs/performance.md quotes and the command that reproduces them."""
import subprocess
import sys
from pathlib import Path

from tests.conftest import missing_service, tcp_answers

ROOT = Path(__file__).resolve().parents[2]


def test_the_live_benchmark_prints_its_figures_and_how_to_reproduce_them():
    if not tcp_answers("127.0.0.1", 5432):
        missing_service("bench/live.py needs PostgreSQL at 127.0.0.1:5432.")
    result = subprocess.run(
        [sys.executable, "bench/live.py", "--watchers", "20", "--changes", "1", "--every", "1", "--warmup", "1",
         "--port", "8767"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("delivery delay over 20 (watcher, change) pairs: p50", "missed: 0", "server CPU:",
                   "| p99 delivery delay |", "errors: 0",
                   "reproduce: .venv/bin/python bench/live.py --watchers 20 --changes 1"):
        assert figure in out, f"{figure!r} missing from:\n{out}"
