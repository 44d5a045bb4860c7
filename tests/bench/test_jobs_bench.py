"""The jobs benchmark runs on a dozen reports (its own database, one worker process) and prints every
figure docs/performance.md quotes and the command that reproduces them."""
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import missing_service, tcp_answers

ROOT = Path(__file__).resolve().parents[2]


def test_the_jobs_benchmark_prints_its_figures_and_how_to_reproduce_them():
    if not tcp_answers("127.0.0.1", 5432):
        missing_service("bench/jobs.py needs PostgreSQL at 127.0.0.1:5432.")
    if not tcp_answers("127.0.0.1", 6379):
        missing_service("bench/jobs.py needs Redis at 127.0.0.1:6379.")
    result = subprocess.run(
        [sys.executable, "bench/jobs.py", "--reports", "12", "--workers", "1", "--count", "4", "--parts", "4",
         "--readjudicate", "12"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env=dict(os.environ, OPP_BENCH_JOBS_DATABASE="opp_bench_jobs_smoke"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for figure in ("12 replays (seeds 1..12", "queries per job, checked", "a job ", "engine ", "statements ",
                   "parts of a job in process (p50 of 3 jobs, ms): taking the job ", "verdict statement ",
                   "mails and webhooks (composed and written) ", "mails handed to their job (after the commit) ",
                   "whole job ", "baseline, engine only in one process:", "| whole job in process, no Celery |",
                   "| Celery, 1 worker process |", "| job in process : engine alone (same replays, in turns) |",
                   "bulk re-adjudication of 12 reports in batches", "| re-adjudication, Celery, 1 worker process |",
                   "load average at the end",
                   "reproduce: .venv/bin/python bench/jobs.py --reports 12 --seed 1 --workers 1 --count 4 --parts 4 "
                   "--readjudicate 12"):
        assert figure in out, f"{figure!r} missing from:\n{out}"
