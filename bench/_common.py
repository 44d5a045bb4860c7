"""Helpers shared by the benchmarks: a dedicated PostgreSQL database, Django set-up, timing, the verdict line.

Each benchmark owns its database (default `opp_bench_<name>` on 127.0.0.1:5432 as `postgres`), creates it
when missing and migrates it, so nothing here touches a development or test database.
"""
from __future__ import annotations

import io
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG_SERVER = "postgres://postgres@127.0.0.1:5432"


def database_url(name: str) -> str:
    return f"{PG_SERVER}/{name}"


def ensure_database(name: str) -> None:
    """CREATE DATABASE when it does not exist (psycopg, autocommit, on the `postgres` database)."""
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(db_name: str, *, redis_url: str | None = None, migrate: bool = True) -> None:
    """Django on the bench database with production settings (DEBUG off: no per-query debug cursor)."""
    ensure_database(db_name)
    os.environ["DATABASE_URL"] = database_url(db_name)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-used-for-anything-real-0123456789")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if redis_url is None:
        os.environ.pop("REDIS_URL", None)
    else:
        os.environ["REDIS_URL"] = redis_url
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def median_time(run, repeats: int) -> tuple[float, list[float]]:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), timings


def percentile(values, fraction: float) -> float:
    """Nearest-rank percentile of a non-empty sequence (fraction 0.5 = median, 0.99 = p99)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        pg = subprocess.run(["psql", database_url("postgres"), "-Atc", "SHOW server_version"],
                            capture_output=True, text=True, timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        pg = "?"
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, PostgreSQL {pg}, "
            f"{platform.system()} {platform.release()}")


def verdict(label: str, figure: str, baseline: str, ratio: float, goal: str, met: bool) -> str:
    return f"| {label} | {figure} | {baseline} | {ratio:.2f} | {goal} | {'met' if met else 'NOT met'} |"


TABLE_HEAD = "| measure | figure | baseline | ratio | goal | result |\n|---|---|---|---|---|---|"


def copy_rows(cursor, table: str, columns, rows, *, rows_per_write: int = 100_000) -> None:
    """COPY `rows` (tuples in `columns` order; None is NULL) into `table` in text format, a few MB per
    write. `cursor` is psycopg's own (`connection.cursor().cursor`)."""
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        buffer = io.StringIO()
        for count, row in enumerate(rows, 1):
            buffer.write("\t".join(r"\N" if value is None else str(value) for value in row))
            buffer.write("\n")
            if count % rows_per_write == 0:
                copy.write(buffer.getvalue())
                buffer = io.StringIO()
        copy.write(buffer.getvalue())
