"""Adjudication jobs benchmark (Redis, Celery): a burst of 1,000 reports with replays.

    .venv/bin/python bench/jobs.py [--reports 1000] [--seed 1] [--workers 1,2]

Generates the replays with `rules_engine.generate_game(seed)` (seeds seed..seed+N-1; not timed), then:

- baseline: `rules_engine.adjudicate` on the N replay texts in this one process, no Django, no
  Celery (run before and after the worker runs; the mean of the two is the baseline);
- in-process job: the whole job, `reporting.adjudicate(id)` (engine + every database step: verdict,
  comparison, confirmation through `record_result`, audit), called in a loop in this process,
  no Celery: shows what the database steps add before any queue does;
- Celery with 1 and with 2 worker processes (`celery -A opp worker --concurrency N`, prefork,
  a Redis database of its own, redis://127.0.0.1:6379/13, purged first): N reports are submitted
  through `reporting.submit_report` on battles of a fresh league season (each report reads its
  battle, stores the replay, writes the audit entry and an Adjudication) with the enqueue held back,
  then the N jobs are enqueued at once with `adjudicate_report.delay`, exactly what the on-commit
  hook of `submit_report` sends: the burst. Wall time runs from the first enqueue to the last
  `finished_at` stored; latency per report is `finished_at` minus the moment its job was enqueued
  (in a burst, mostly time spent waiting in the queue).

Reports name what the engine finds where it decides the battle (they are confirmed) and a victory
otherwise (the engine disputes it), as organizers' reports, so both paths of the job run.
Goal (issue #8): 2 workers >= 1.6 x the baseline rate; p50 and p99 latency reported.
Everything shares the machine's cores: workers, PostgreSQL, Redis and this driver.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, TABLE_HEAD, database_url, machine, percentile, setup_django, verdict  # noqa: E402

DB_NAME = "opp_bench_jobs"
REDIS_URL = "redis://127.0.0.1:6379/13"


def engine_baseline(texts: list[str]):
    import rules_engine

    start = time.perf_counter()
    verdicts = [rules_engine.adjudicate(text).to_dict() for text in texts]
    return time.perf_counter() - start, verdicts


def report_fields(verdict_dict: dict, a, b) -> dict:
    outcome = verdict_dict.get("outcome")
    if outcome == "victory":
        return {"kind": "victory", "winner": a if verdict_dict["winner"] == "p1" else b,
                "condition": verdict_dict["condition"]}
    if outcome in ("stalemate", "resolve"):
        return {"kind": outcome}
    return {"kind": "victory", "winner": a, "condition": "crush"}  # the engine will dispute it


def prepare(label: str, replays: list[dict], verdicts: list[dict]) -> list[int]:
    """A league season with one battle per replay and a submitted report on each; returns the
    Adjudication ids whose jobs were held back (not enqueued)."""
    from django.contrib.auth import get_user_model

    from tournaments import jobs, reporting, services
    from tournaments.models import Battle, Event, General

    organizer, _ = get_user_model().objects.get_or_create(username="bench-organizer")
    slug = f"bench-jobs-{label}-{int(time.time() * 1000)}"
    event = services.create_event(name=f"Bench jobs {label}", slug=slug, kind=Event.Kind.LEAGUE,
                                  organizers=[organizer], actor=organizer)
    season = services.open_season(event, "Burst", actor=organizer)
    generals = General.objects.bulk_create([General(name=f"Jobs general {i:03d}") for i in range(200)])
    battles = Battle.objects.bulk_create([
        Battle(event=event, season=season, round=1, number=i + 1, general_a=generals[i % 200],
               general_b=generals[(i % 200 + 1 + i // 200) % 200]) for i in range(len(replays))])
    held = []
    sent = jobs.send
    jobs.send = held.append  # submit_report's on-commit hook; the burst sends them later
    try:
        for battle, replay, found in zip(battles, replays, verdicts, strict=True):
            document = dict(replay, generals={"p1": dict(replay["generals"]["p1"], name=battle.general_a.name),
                                              "p2": dict(replay["generals"]["p2"], name=battle.general_b.name)})
            reporting.submit_report(battle, user=organizer, player_1=battle.general_a, replay=json.dumps(document),
                                    **report_fields(found, battle.general_a, battle.general_b))
    finally:
        jobs.send = sent
    assert len(held) == len(replays)
    return held


def outcome_counts(ids: list[int]) -> dict:
    from django.db.models import Count

    from tournaments.models import Adjudication

    rows = (Adjudication.objects.filter(pk__in=ids).values("state", "report__status")
            .annotate(n=Count("id")).order_by())
    return {f"{row['state']}/{row['report__status']}": row["n"] for row in rows}


def finished(ids: list[int]):
    from tournaments.models import Adjudication

    return dict(Adjudication.objects.filter(pk__in=ids, finished_at__isnull=False)
                .values_list("pk", "finished_at"))


def run_in_process(ids: list[int]) -> float:
    from tournaments import reporting

    start = time.perf_counter()
    for adjudication_id in ids:
        reporting.adjudicate(adjudication_id)
    return time.perf_counter() - start


def start_workers(concurrency: int) -> subprocess.Popen:
    env = dict(os.environ, REDIS_URL=REDIS_URL, DATABASE_URL=database_url(DB_NAME), LOG_LEVEL="WARNING")
    worker = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "celery"), "-A", "opp", "worker", "--concurrency", str(concurrency),
         "--pool", "prefork", "--loglevel", "WARNING", "-n", f"bench-jobs-{concurrency}@%h", "--without-gossip",
         "--without-mingle"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    from opp.celery import ping

    ping.delay().get(timeout=60)  # a worker process answers
    return worker


def stop_workers(worker: subprocess.Popen) -> None:
    worker.send_signal(signal.SIGTERM)  # warm shutdown: children finish and exit
    try:
        worker.wait(timeout=60)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def run_celery(ids: list[int], concurrency: int) -> dict:
    from tournaments.tasks import adjudicate_report

    worker = start_workers(concurrency)
    try:
        enqueued = {}
        for adjudication_id in ids:
            enqueued[adjudication_id] = datetime.now(UTC)
            adjudicate_report.delay(adjudication_id)
        deadline = time.monotonic() + 1800
        while True:
            done = finished(ids)
            if len(done) == len(ids) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        stop_workers(worker)
    assert len(done) == len(ids), f"only {len(done)} of {len(ids)} jobs finished"
    first = min(enqueued.values())
    wall = (max(done.values()) - first).total_seconds()
    latencies = [(done[i] - enqueued[i]).total_seconds() for i in ids]
    return {"wall": wall, "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
            "outcomes": outcome_counts(ids)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="1,2", help="worker process counts to run, comma-separated")
    args = parser.parse_args()

    setup_django(DB_NAME, redis_url=REDIS_URL)
    import rules_engine
    from opp.celery import app

    app.control.purge()
    replays = [rules_engine.generate_game(args.seed + i) for i in range(args.reports)]
    texts = [json.dumps(replay) for replay in replays]
    turns = sum(len(replay["turns"]) for replay in replays)

    engine_first, verdicts = engine_baseline(texts)
    inproc_ids = prepare("inprocess", replays, verdicts)
    inproc = run_in_process(inproc_ids)
    inproc_outcomes = outcome_counts(inproc_ids)
    celery = {}
    for concurrency in [int(n) for n in args.workers.split(",")]:
        ids = prepare(f"celery{concurrency}", replays, verdicts)
        celery[concurrency] = run_celery(ids, concurrency)
    engine_second, _ = engine_baseline(texts)
    engine = (engine_first + engine_second) / 2
    base_rate = args.reports / engine

    print(f"machine: {machine()}")
    print(f"{args.reports} replays (seeds {args.seed}..{args.seed + args.reports - 1}, {turns:,} turns), "
          f"engine {rules_engine.ENGINE_VERSION}; outcomes in process: {inproc_outcomes}")
    print(f"baseline, engine only in one process: {engine_first:.2f} s and {engine_second:.2f} s "
          f"-> {base_rate:,.1f} adjudications/s")
    print("| run | wall s | reports/s | x baseline | p50 latency s | p99 latency s | outcomes |\n"
          "|---|---|---|---|---|---|---|")
    print(f"| engine only, 1 process (baseline) | {engine:.2f} | {base_rate:,.1f} | 1.00 | - | - | - |")
    print(f"| whole job in process, no Celery | {inproc:.2f} | {args.reports / inproc:,.1f} | "
          f"{engine / inproc:.2f} | - | - | {inproc_outcomes} |")
    for concurrency, run in celery.items():
        rate = args.reports / run["wall"]
        print(f"| Celery, {concurrency} worker process{'es' if concurrency > 1 else ''} | {run['wall']:.2f} | "
              f"{rate:,.1f} | {rate / base_rate:.2f} | {run['p50']:.2f} | {run['p99']:.2f} | {run['outcomes']} |")
    print(TABLE_HEAD)
    if 2 in celery:
        rate = args.reports / celery[2]["wall"]
        print(verdict("2 workers, reports/s", f"{rate:,.1f}", f"{base_rate:,.1f} (engine, 1 process)",
                      rate / base_rate, ">= 1.6", rate / base_rate >= 1.6))
    for concurrency, run in celery.items():
        print(f"| {concurrency} worker(s), report-to-verdict latency p50 / p99 | {run['p50']:.2f} s / "
              f"{run['p99']:.2f} s | - | - | reported | - |")
    print(f"reproduce: .venv/bin/python bench/jobs.py --reports {args.reports} --seed {args.seed} "
          f"--workers {args.workers}")


if __name__ == "__main__":
    main()
