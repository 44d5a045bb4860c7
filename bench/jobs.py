"""Adjudication jobs benchmark (Redis, Celery): a burst of 1,000 reports with replays.

    .venv/bin/python bench/jobs.py [--reports 1000] [--seed 1] [--workers 1,2] [--count 100] [--parts 200] [--readjudicate 10000]
    .venv/bin/python bench/jobs.py --workers 0          # in process only: job vs engine, no Celery

Generates the replays with `rules_engine.generate_game(seed)` (seeds seed..seed+N-1; not timed), then:

- baseline: `rules_engine.adjudicate` on the N replay texts in this one process, no Django, no
  Celery (run before and after the worker runs; the mean of the two is the baseline of the workers);
- statements a job sends (`--count` jobs on reports of their own, not timed):
  `django.test.utils.CaptureQueriesContext` around each `adjudication.adjudicate`, its after-commit
  notifications included, by what the job ended with and by kind of statement (BEGIN and COMMIT too);
- in-process job: the whole job, `adjudication.adjudicate(id)` (reading, engine, every database write:
  taking the job, verdict, status change, audit entry, the mails' Notification rows), called in a loop
  in this process, no Celery, in turns of 50 with the engine alone on the same replays, so both see
  the same load: the ratio of the two is the in-process goal (issues 16 and 28: >= 0.5);
- Celery with 1 and with 2 worker processes (`celery -A opp worker --concurrency N`, prefork,
  a Redis database of its own, redis://127.0.0.1:6379/13, purged first): N reports are submitted
  through `reporting.submit_report` on battles of a fresh league season with the enqueue held back,
  then the N jobs are enqueued at once with `adjudicate_report.delay`, exactly what the on-commit
  hook of `submit_report` sends: the burst. Wall time runs from the first enqueue to the last
  `finished_at` stored; latency per report is `finished_at` minus the moment its job was enqueued
  (in a burst, mostly time spent waiting in the queue).

- where a job's time goes (`--parts N`, default 200 jobs on reports of their own, the first a warm-up):
  the p50 of each part of `adjudication.adjudicate` in process, each part timed by a wrapper around
  the function that does it (taking the job, the engine, the comparison, the verdict's statement, the
  mails and webhooks the verdict gives, handing the mails to their job after the commit), and of the
  whole job;

- bulk re-adjudication (`--readjudicate N`, default 10,000): N adjudicated reports (written with
  bulk_create, not timed; the replays are the N above, repeated; one stored verdict in ten is an older
  engine's, so it changes), re-adjudicated in batches of `outbox.BATCH_SIZE`: in process
  (`adjudication.readjudicate_many`, in turns with the engine alone on the same replays), then through
  Celery with 1 and 2 worker processes (`readjudicate_batch`, the batches `manage.py readjudicate`
  sends, all at once; wall time from the first send to the last row written). Rate in reports/s.

Each report is a general's (the battle's first general's player; every general belongs to a player
with an email address), so the job runs as for players: the report waits in state queued, the engine
checks it (it names what the engine finds where the engine decides the battle) or disputes it (a
victory otherwise), and the verdict is mailed. The mails go to Django's dummy backend (no mail
server is benchmarked); their Notification rows are written as in production.
Goals (issues 16 and 28): in process >= 0.5 x the engine; 2 workers >= 0.5 x the engine in one process;
a burst of 1,000 with 2 workers, report-to-verdict p99 <= 8 s.
Everything shares the machine's cores: workers, PostgreSQL, Redis and this driver; the load
average is printed with the figures.
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

# Both may be moved (e.g. two benchmarks on one machine): OPP_BENCH_JOBS_DATABASE, OPP_BENCH_JOBS_REDIS.
# A full run reports ~3,100 times as the PLAYERS below, and R93 allows each 30 reports an hour: a second
# full run within the hour needs a fresh database.
DB_NAME = os.environ.get("OPP_BENCH_JOBS_DATABASE", "opp_bench_jobs")
REDIS_URL = os.environ.get("OPP_BENCH_JOBS_REDIS", "redis://127.0.0.1:6379/13")
# The notifications of a verdict are written (a Notification row per mail) but the mail goes nowhere:
# no mail server is part of the benchmark. Set before Django starts, here and in the workers.
MAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"


def setup(migrate: bool = True) -> None:
    os.environ["EMAIL_BACKEND"] = MAIL_BACKEND
    setup_django(DB_NAME, redis_url=REDIS_URL, migrate=migrate)


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


PLAYERS = 200


def players():
    """The PLAYERS generals of the benchmark, each belonging to its player (a user with an email),
    created once per database and reused by every run."""
    from django.contrib.auth import get_user_model

    from tournaments.models import General

    names = [f"Bench player {i:03d}" for i in range(PLAYERS)]
    found = {g.name: g for g in General.objects.filter(name__in=names, user__isnull=False).select_related("user")}
    for name in names:
        if name not in found:
            user, _ = get_user_model().objects.get_or_create(
                username=name.lower().replace(" ", "-"), defaults={"email": f"{name.lower().replace(' ', '.')}@example.invalid"})
            found[name] = General.objects.create(name=name, user=user)
    return [found[name] for name in names]


def prepare(label: str, replays: list[dict], verdicts: list[dict]) -> list[int]:
    """A league season with one battle per replay and a general's report with its replay on each (it
    waits for the job in state queued); returns the Adjudication ids whose jobs were held back (not
    enqueued)."""
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role
    from tournaments.leagues import seasons
    from tournaments.models import Battle, Event
    from tournaments.results import outbox, reporting

    organizer, created = get_user_model().objects.get_or_create(
        username="bench-organizer", defaults={"email": "bench-organizer@example.invalid"})
    grant_organizer_role(organizer)  # creating events is a granted role (R77)
    slug = f"bench-jobs-{label}-{int(time.time() * 1000)}"
    event = services.create_event(name=f"Bench jobs {label}", slug=slug, kind=Event.Kind.LEAGUE,
                                  organizers=[organizer], actor=organizer)
    season = seasons.open_season(event, "Burst", actor=organizer)
    generals = players()
    battles = Battle.objects.bulk_create([
        Battle(event=event, season=season, round=1, number=i + 1, general_a=generals[i % PLAYERS],
               general_b=generals[(i % PLAYERS + 1 + i // PLAYERS) % PLAYERS]) for i in range(len(replays))])
    held = []
    sent = outbox.send
    outbox.send = held.append  # submit_report's on-commit hook; the burst sends them later
    try:
        for battle, replay, found in zip(battles, replays, verdicts, strict=True):
            document = dict(replay, generals={"p1": dict(replay["generals"]["p1"], name=battle.general_a.name),
                                              "p2": dict(replay["generals"]["p2"], name=battle.general_b.name)})
            # General A's player reports: the report waits for the job (queued), then for the opponent.
            reporting.submit_report(battle, user=battle.general_a.user, player_1=battle.general_a,
                                    replay=json.dumps(document),
                                    **report_fields(found, battle.general_a, battle.general_b))
    finally:
        outbox.send = sent
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


def run_in_process(ids: list[int], texts: list[str], chunk: int = 50) -> tuple[float, float]:
    """(engine alone s, whole job s) over the same replays in this one process, no Celery: in turns
    of `chunk` replays (the engine on their texts, then the jobs of their reports), so a change in
    the machine's load weighs on both alike."""
    import rules_engine
    from tournaments.results import adjudication

    engine = job = 0.0
    for first in range(0, len(ids), chunk):
        start = time.perf_counter()
        for text in texts[first:first + chunk]:
            rules_engine.adjudicate(text).to_dict()
        middle = time.perf_counter()
        for adjudication_id in ids[first:first + chunk]:
            adjudication.adjudicate(adjudication_id)
        job += time.perf_counter() - middle
        engine += middle - start
    return engine, job


# The parts of a job that `time_parts` times: (label, module path, attribute), each looked up at call time
# by the code that calls it, so a wrapper set on it is what the job calls.
PARTS = [
    ("taking the job", "tournaments.results.job_sql", "take"),
    ("engine", "tournaments.results.adjudication", "run_engine"),
    ("comparison", "tournaments.results.adjudication", "compare_with_report"),
    ("verdict statement", "tournaments.results.job_sql", "write_verdict"),
    ("mails and webhooks (composed and written)", "tournaments.results.outbox", "verdict_written.send"),
    ("mails handed to their job (after the commit)", "tournaments.mailing.outbox", "hand_off"),
]


def time_parts(ids: list[int]) -> dict:
    """{part: p50 ms} over the jobs of `ids` (the first a warm-up, not counted), in process, and the whole
    job's p50 under "whole job"."""
    import importlib
    import statistics

    from tournaments.results import adjudication

    spent: dict = {label: [] for label, _module, _name in PARTS}
    restore = []

    def timed(label, function):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label].append((time.perf_counter() - start) * 1000)
        return wrapper

    adjudication.adjudicate(ids[0])
    for label, module, name in PARTS:
        owner = importlib.import_module(module)
        *path, attribute = name.split(".")
        for step in path:
            owner = getattr(owner, step)
        original = getattr(owner, attribute)
        restore.append((owner, attribute, original if attribute in vars(owner) else None))
        setattr(owner, attribute, timed(label, original))
    whole = []
    try:
        for adjudication_id in ids[1:]:
            start = time.perf_counter()
            adjudication.adjudicate(adjudication_id)
            whole.append((time.perf_counter() - start) * 1000)
    finally:
        for owner, attribute, original in restore:
            if original is None:  # a method of the object's class (the signal's `send`): the class's again
                delattr(owner, attribute)
            else:
                setattr(owner, attribute, original)
    medians = {label: statistics.median(times) for label, times in spent.items() if times}
    medians["whole job"] = statistics.median(whole)
    return medians


def count_queries(ids: list[int]) -> dict:
    """Statements a job sends, by what the job ended with (django.test.utils.CaptureQueriesContext
    around each `adjudication.adjudicate`, its after-commit notifications included; BEGIN and COMMIT
    are counted, as each is a round trip), and where a job's time goes: the engine
    (`adjudication.run_engine`), the statements (from sending one to having its rows; BEGIN and COMMIT
    not included), the rest (BEGIN, COMMIT, the ORM, the comparison, the mails' text). Capturing
    costs time itself, so these jobs are not the timed ones."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.results import adjudication

    counts: dict = {}
    spent = {"engine": 0.0, "statements": 0.0}
    run_engine = adjudication.run_engine

    def timed_engine(text):
        start = time.perf_counter()
        try:
            return run_engine(text)
        finally:
            spent["engine"] += time.perf_counter() - start

    def timed_statement(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent["statements"] += time.perf_counter() - start

    adjudication.adjudicate(ids[0])  # warm: the first job imports what the mails' links need (the URLs)
    adjudication.run_engine = timed_engine
    try:
        for adjudication_id in ids[1:]:
            spent["engine"] = spent["statements"] = 0.0
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(timed_statement):
                outcome = adjudication.adjudicate(adjudication_id)
            whole = time.perf_counter() - start
            kinds = [query["sql"].split(None, 1)[0].upper() for query in captured.captured_queries]
            entry = counts.setdefault(outcome, {"jobs": 0, "total": 0, "min": None, "max": 0, "kinds": {},
                                                "ms": {"job": 0.0, "engine": 0.0, "statements": 0.0}})
            entry["jobs"] += 1
            entry["total"] += len(kinds)
            entry["min"] = len(kinds) if entry["min"] is None else min(entry["min"], len(kinds))
            entry["max"] = max(entry["max"], len(kinds))
            for kind in kinds:
                entry["kinds"][kind] = entry["kinds"].get(kind, 0) + 1
            entry["ms"]["job"] += whole * 1000
            entry["ms"]["engine"] += spent["engine"] * 1000
            entry["ms"]["statements"] += spent["statements"] * 1000
    finally:
        adjudication.run_engine = run_engine
    return counts


def prepare_adjudicated(texts: list[str], verdicts: list[dict], count: int) -> list[int]:
    """`count` reports already adjudicated (state done), on battles of a fresh league season, written
    with bulk_create; every tenth stored verdict is an older engine's (it changes when re-adjudicated).
    Returns their Adjudication ids."""
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role
    from tournaments.leagues import seasons
    from tournaments.models import Adjudication, Battle, Event, Report

    organizer, _created = get_user_model().objects.get_or_create(
        username="bench-organizer", defaults={"email": "bench-organizer@example.invalid"})
    grant_organizer_role(organizer)
    event = services.create_event(name="Bench re-adjudication", slug=f"bench-readjudicate-{int(time.time() * 1000)}",
                                  kind=Event.Kind.LEAGUE, organizers=[organizer], actor=organizer)
    season = seasons.open_season(event, "Bulk", actor=organizer)
    generals = players()
    ids = []
    for first in range(0, count, 1000):
        numbers = range(first, min(count, first + 1000))
        battles = Battle.objects.bulk_create([
            Battle(event=event, season=season, round=1, number=i + 1, general_a=generals[i % PLAYERS],
                   general_b=generals[(i % PLAYERS + 1 + i // PLAYERS) % PLAYERS]) for i in numbers])
        reports = Report.objects.bulk_create([
            Report(battle=battle, reported_by=battle.general_a.user, kind="victory", winner=battle.general_a,
                   condition="shackle", replay=texts[i % len(texts)], status=Report.Status.DISPUTED)
            for i, battle in zip(numbers, battles, strict=True)])
        adjudications = Adjudication.objects.bulk_create([
            Adjudication(report=report, state=Adjudication.State.DONE, engine_version="bench-older",
                         verdict=dict(verdicts[i % len(verdicts)], **({"older": True} if i % 10 == 0 else {})))
            for i, report in zip(numbers, reports, strict=True)])
        ids += [adjudication.pk for adjudication in adjudications]
    return ids


def readjudicated(ids: list[int]) -> int:
    import rules_engine
    from tournaments.models import Adjudication

    return Adjudication.objects.filter(pk__in=ids, engine_version=rules_engine.ENGINE_VERSION).count()


def reset_readjudicated(ids: list[int]) -> None:
    from tournaments.models import Adjudication

    for first in range(0, len(ids), 5000):
        Adjudication.objects.filter(pk__in=ids[first:first + 5000]).update(engine_version="bench-older")


def run_readjudicate_in_process(ids: list[int], texts: list[str]) -> tuple[float, float, int]:
    """(engine alone s, re-adjudication s, verdicts changed), in turns of a batch each."""
    import rules_engine
    from tournaments.results import adjudication, outbox

    engine = bulk = 0.0
    changed = 0
    size = outbox.BATCH_SIZE
    for first in range(0, len(ids), size):
        start = time.perf_counter()
        for index in range(first, min(len(ids), first + size)):
            rules_engine.adjudicate(texts[index % len(texts)]).to_dict()
        middle = time.perf_counter()
        changed += sum(1 for item in adjudication.readjudicate_many(ids[first:first + size]) if item.get("changed"))
        bulk += time.perf_counter() - middle
        engine += middle - start
    return engine, bulk, changed


def run_readjudicate_celery(ids: list[int], concurrency: int) -> float:
    from tournaments.results import outbox
    from tournaments.results.tasks import readjudicate_batch

    reset_readjudicated(ids)
    worker = start_workers(concurrency)
    try:
        start = time.perf_counter()
        for first in range(0, len(ids), outbox.BATCH_SIZE):
            readjudicate_batch.delay(ids[first:first + outbox.BATCH_SIZE])
        deadline = time.monotonic() + 3600
        while readjudicated(ids) < len(ids) and time.monotonic() < deadline:
            time.sleep(0.5)
        wall = time.perf_counter() - start
    finally:
        stop_workers(worker)
    assert readjudicated(ids) == len(ids), "not every replay was re-adjudicated"
    return wall


def start_workers(concurrency: int) -> subprocess.Popen:
    """Worker processes for one run, which starts from an empty queue: the mail jobs the previous run's
    verdicts left behind (its workers stop once the verdicts are in) would otherwise run first and weigh
    on this run's figures."""
    from opp.celery import app, ping

    app.control.purge()
    env = dict(os.environ, REDIS_URL=REDIS_URL, DATABASE_URL=database_url(DB_NAME), LOG_LEVEL="WARNING",
               EMAIL_BACKEND=MAIL_BACKEND)
    worker = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "celery"), "-A", "opp", "worker", "--concurrency", str(concurrency),
         "--pool", "prefork", "--loglevel", "WARNING", "-n", f"bench-jobs-{concurrency}@%h", "--without-gossip",
         "--without-mingle"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
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
    from tournaments.results.tasks import adjudicate_report

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
    parser.add_argument("--workers", default="1,2",
                        help="worker process counts to run, comma-separated; 0: in process only, no Celery")
    parser.add_argument("--count", type=int, default=100,
                        help="jobs (on replays of their own) whose statements are counted first, the first "
                             "of them a warm-up not counted; 0: none")
    parser.add_argument("--parts", type=int, default=200,
                        help="jobs (on replays of their own) whose parts are timed, the first a warm-up; 0: none")
    parser.add_argument("--readjudicate", type=int, default=10000,
                        help="reports re-adjudicated in bulk (in batches), in process and with the workers; 0: none")
    args = parser.parse_args()

    setup()
    import rules_engine
    from opp.celery import app

    app.control.purge()
    replays = [rules_engine.generate_game(args.seed + i) for i in range(args.reports)]
    texts = [json.dumps(replay) for replay in replays]
    turns = sum(len(replay["turns"]) for replay in replays)

    engine_first, verdicts = engine_baseline(texts)
    counted = count_queries(prepare("count", replays[:args.count], verdicts[:args.count])) if args.count else {}
    parts = time_parts(prepare("parts", replays[:args.parts], verdicts[:args.parts])) if args.parts > 1 else {}
    inproc_ids = prepare("inprocess", replays, verdicts)
    inproc_engine, inproc = run_in_process(inproc_ids, texts)
    inproc_outcomes = outcome_counts(inproc_ids)
    celery = {}
    for concurrency in [int(n) for n in args.workers.split(",") if int(n) > 0]:
        ids = prepare(f"celery{concurrency}", replays, verdicts)
        celery[concurrency] = run_celery(ids, concurrency)
    bulk = {}
    if args.readjudicate:
        bulk_ids = prepare_adjudicated(texts, verdicts, args.readjudicate)
        bulk["engine"], bulk["in process"], bulk["changed"] = run_readjudicate_in_process(bulk_ids, texts)
        for concurrency in [int(n) for n in args.workers.split(",") if int(n) > 0]:
            bulk[concurrency] = run_readjudicate_celery(bulk_ids, concurrency)
    engine_second, _ = engine_baseline(texts)
    engine = (engine_first + engine_second) / 2
    base_rate = args.reports / engine
    load = os.getloadavg()

    print(f"machine: {machine()}; load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"(1 / 5 / 15 min)")
    print(f"{args.reports} replays (seeds {args.seed}..{args.seed + args.reports - 1}, {turns:,} turns), "
          f"engine {rules_engine.ENGINE_VERSION}; outcomes in process: {inproc_outcomes}")
    for outcome, entry in counted.items():
        kinds = ", ".join(f"{kind} {n / entry['jobs']:.1f}" for kind, n in sorted(entry["kinds"].items()))
        ms = {part: value / entry["jobs"] for part, value in entry["ms"].items()}
        print(f"queries per job, {outcome} ({entry['jobs']} jobs): {entry['total'] / entry['jobs']:.1f} "
              f"(min {entry['min']}, max {entry['max']}; {kinds}); a job {ms['job']:.1f} ms: engine "
              f"{ms['engine']:.1f}, statements {ms['statements']:.1f}, the rest "
              f"{ms['job'] - ms['engine'] - ms['statements']:.1f}")
    if parts:
        print(f"parts of a job in process (p50 of {args.parts - 1} jobs, ms): "
              + ", ".join(f"{label} {ms:.2f}" for label, ms in parts.items()))
    print(f"baseline, engine only in one process: {engine_first:.2f} s and {engine_second:.2f} s "
          f"-> {base_rate:,.1f} adjudications/s")
    print("| run | wall s | reports/s | x baseline | p50 latency s | p99 latency s | outcomes |\n"
          "|---|---|---|---|---|---|---|")
    print(f"| engine only, 1 process (baseline) | {engine:.2f} | {base_rate:,.1f} | 1.00 | - | - | - |")
    print(f"| engine only, in turns with the jobs below | {inproc_engine:.2f} | {args.reports / inproc_engine:,.1f} | "
          f"{engine / inproc_engine:.2f} | - | - | - |")
    print(f"| whole job in process, no Celery | {inproc:.2f} | {args.reports / inproc:,.1f} | "
          f"{engine / inproc:.2f} | - | - | {inproc_outcomes} |")
    for concurrency, run in celery.items():
        rate = args.reports / run["wall"]
        print(f"| Celery, {concurrency} worker process{'es' if concurrency > 1 else ''} | {run['wall']:.2f} | "
              f"{rate:,.1f} | {rate / base_rate:.2f} | {run['p50']:.2f} | {run['p99']:.2f} | {run['outcomes']} |")
    print(TABLE_HEAD)
    ratio = inproc_engine / inproc
    print(verdict("job in process : engine alone (same replays, in turns)", f"{args.reports / inproc:,.1f} reports/s",
                  f"{args.reports / inproc_engine:,.1f} adjudications/s", ratio, ">= 0.5", ratio >= 0.5))
    if 2 in celery:
        rate = args.reports / celery[2]["wall"]
        print(verdict("2 workers, reports/s", f"{rate:,.1f}", f"{base_rate:,.1f} (engine, 1 process)",
                      rate / base_rate, ">= 0.5", rate / base_rate >= 0.5))
        p99 = celery[2]["p99"]
        print(verdict(f"2 workers, burst of {args.reports}, report-to-verdict p99", f"{p99:.2f} s", "8 s",
                      p99 / 8, "<= 8 s", p99 <= 8))
    if bulk:
        n = args.readjudicate
        print(f"bulk re-adjudication of {n:,} reports in batches ({bulk['changed']:,} verdicts changed):")
        print("| run | wall s | reports/s | x engine alone |\n|---|---|---|---|")
        print(f"| engine alone, in turns with the batches below | {bulk['engine']:.2f} | {n / bulk['engine']:,.1f} | 1.00 |")
        print(f"| re-adjudication in process, batches | {bulk['in process']:.2f} | {n / bulk['in process']:,.1f} | "
              f"{bulk['engine'] / bulk['in process']:.2f} |")
        for concurrency in [key for key in bulk if isinstance(key, int)]:
            print(f"| re-adjudication, Celery, {concurrency} worker process{'es' if concurrency > 1 else ''} | "
                  f"{bulk[concurrency]:.2f} | {n / bulk[concurrency]:,.1f} | {bulk['engine'] / bulk[concurrency]:.2f} |")
    for concurrency, run in celery.items():
        print(f"| {concurrency} worker(s), report-to-verdict latency p50 / p99 | {run['p50']:.2f} s / "
              f"{run['p99']:.2f} s | - | - | reported | - |")
    print(f"reproduce: .venv/bin/python bench/jobs.py --reports {args.reports} --seed {args.seed} "
          f"--workers {args.workers} --count {args.count} --parts {args.parts} --readjudicate {args.readjudicate}")


if __name__ == "__main__":
    main()
