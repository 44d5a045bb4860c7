"""Live pages benchmark: 1,000 pages following an event while results come in.

    .venv/bin/python bench/live.py [--watchers 1000] [--changes 10] [--every 3] [--workers 1] [--threads 8]
                                   [--redis] [--port 8766]

Prepares the database `opp_bench_live` (migrate; a fresh 16-general event with two groups each run),
starts gunicorn on loopback (production settings: DEBUG off; without --redis the embedded default:
no Redis, the in-process cache, so one worker) and runs the watchers in one asyncio loop (raw
HTTP/1.1; a connection kept alive as long as the server keeps it: gthread workers do, sync workers
close it after each answer). Each watcher does what static/js/live.js does on an
event page or the venue screen: GET /live/events/<slug>/ with If-None-Match, then waits the poll
period (1 s) after the answer. Every --every seconds the organizer records a result through the API
(POST /api/v1/battles/<id>/result/ with a token), --changes times.

Reported: the delivery delay, from the moment the organizer's request is sent to each watcher's
first answer carrying the new revision (p50, p99, worst, over watchers x changes); the server's CPU
(all gunicorn processes, from /proc) and the benchmark client's own; poll answers by status.
Goal (issue #15): a change shows within 2 s: p99 delivery <= 2 s with 1,000 watchers, no errors.

    .venv/bin/python bench/live.py --stream [--watchers 10000] [--ramp 2000] [--port 8766]

--stream (issue #28, docs/live-pages.md "Streams"): gunicorn (one gthread worker, Redis) takes the
organizer's API writes as above, and ONE live process, started with the Procfile's `live:` command
(scripts/run live, PORT = --port + 1), holds the watchers' server-sent event streams
(GET /live/events/<slug>/stream/), on Redis db 12. The watchers connect at most --ramp a second
(reported), then results come in as above. Delivery: from sending the organizer's request to each
watcher's event carrying the new revision. CPU of the live process, of gunicorn and of the client,
each in cores. Goal: 10,000 watchers, p99 delivery <= 2 s, nothing missed, no errors.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, TABLE_HEAD, database_url, ensure_database, machine, percentile, verdict  # noqa: E402

DB_NAME = "opp_bench_live"
REDIS_URL = "redis://127.0.0.1:6379/13"
STREAM_REDIS_URL = "redis://127.0.0.1:6379/12"
POLL_SECONDS = 1.0  # as tournaments/web/live.py POLL_MILLISECONDS tells the pages
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def server_env(port: int, redis: bool, stream: bool = False) -> dict:
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "opp.settings", "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-not-used-for-anything-real-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url(DB_NAME), "LOG_LEVEL": "WARNING",
    })
    if stream:
        env.update({"REDIS_URL": STREAM_REDIS_URL, "OPP_LIVE_STREAM_URL": "/"})
    elif redis:
        env["REDIS_URL"] = REDIS_URL
    else:
        env.pop("REDIS_URL", None)
    if not stream:
        env.pop("OPP_LIVE_STREAM_URL", None)
    return env


def prepare_event(env: dict) -> tuple[str, str, list[int]]:
    """A fresh published event (16 generals, 2 groups) and the organizer's API token; returns
    (slug, token, ids of undecided battles). Runs in a child process on the bench database."""
    ensure_database(DB_NAME)
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    script = """
import json, time
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments.events import services
from tournaments.models import General
User = get_user_model()
organizer, _ = User.objects.get_or_create(username="live-bench-organizer")
token, _ = Token.objects.get_or_create(user=organizer)
slug = f"live-bench-{int(time.time())}"
event = services.create_event(name="Live bench", slug=slug, organizers=[organizer])
for number in range(16):
    general, _ = General.objects.get_or_create(name=f"Live bench general {number + 1}")
    services.register(event, general, actor=organizer)
services.close_registration(event, actor=organizer)
services.form_groups(event, 2, seed=1, actor=organizer)
battles = list(event.battles.order_by("round", "group__index", "number").values_list("pk", flat=True))
print(json.dumps({"slug": slug, "token": token.key, "battles": battles}))
"""
    out = subprocess.run([python, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    answer = json.loads(out.strip().splitlines()[-1])
    return answer["slug"], answer["token"], answer["battles"]


def http(url: str, *, method="GET", headers=None, body=None):
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def start_gunicorn(port: int, env: dict, workers: int, worker_class: str, threads: int,
                   watchers: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "opp.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--worker-class", worker_class, "--threads", str(threads),
         "--worker-connections", str(watchers + 100), "--keep-alive", "5", "--backlog", "2048",
         "--log-level", "warning"], cwd=ROOT, env=env)
    return answering(server, port, "gunicorn")


def start_live(port: int, env: dict) -> subprocess.Popen:
    """One live process, exactly as the Procfile starts it (scripts/run live)."""
    server = subprocess.Popen(["bash", str(ROOT / "scripts" / "run"), "live"], cwd=ROOT,
                              env=dict(env, PORT=str(port), OPP_BIND="127.0.0.1"))
    return answering(server, port, "the live process")


def answering(server: subprocess.Popen, port: int, what: str) -> subprocess.Popen:
    """`server` once its /healthz answers (503 counts: a missing worker does not matter here)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if http(f"http://127.0.0.1:{port}/healthz")[0] in (200, 503):
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"{what} did not answer within 30 s")


async def record_a_change(loop, base, token, battle, number, path):
    """The organizer records a result through the API: (monotonic time the request was sent, the ETag
    of the revision endpoint `path` after it)."""
    winner = await loop.run_in_executor(None, first_general, base, token, battle)  # not timed
    sent = time.monotonic()
    await loop.run_in_executor(None, record_result, base, token, battle, winner, number)
    _, headers, _ = await loop.run_in_executor(None, http, f"{base}{path}")
    return sent, headers["ETag"]


def delivery(changes, first_seen):
    """(delays in seconds, missed): per change and watcher, from sending the change to the watcher's first
    answer with its revision or a later one (a watcher may skip a revision)."""
    delays, missed = [], 0
    for index, (sent, _) in enumerate(changes):
        for seen in first_seen:
            later = [seen[tag] for _, tag in changes[index:] if tag in seen]
            if later:
                delays.append(max(0.0, min(later) - sent))
            else:
                missed += 1
    return delays, missed


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children that are alive (gunicorn's workers)."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


async def read_answer(reader) -> tuple[int, dict, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


class Watchers:
    def __init__(self, port: int, path: str, count: int):
        self.port, self.path, self.count = port, path, count
        self.first_seen = [dict() for _ in range(count)]  # per watcher: ETag -> monotonic time first seen
        self.statuses: dict[int, int] = {}
        self.errors = 0
        self.connected = 0
        self.stop = asyncio.Event()

    async def watch(self, number: int) -> None:
        etag = None
        seen = self.first_seen[number]
        address = f"10.{number // 250}.{number % 250}.1"
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))  # pages open at different moments
        reader = writer = None
        while not self.stop.is_set():
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                    self.connected += 1
                request = (f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {address}\r\n"
                           + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n")
                writer.write(request.encode())
                status, headers, _ = await read_answer(reader)
                now = time.monotonic()
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status == 200:
                    etag = headers["etag"]
                    seen.setdefault(etag, now)
                elif status != 304:
                    self.errors += 1
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    reader = writer = None
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.errors += 1
                if writer is not None:
                    writer.close()
                reader = writer = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), POLL_SECONDS)
        if writer is not None:
            writer.close()


class StreamWatchers:
    """Watchers holding a server-sent event stream each, as static/js/live.js does with data-live-stream."""

    def __init__(self, port: int, path: str, count: int):
        self.port, self.path, self.count = port, path, count
        self.first_seen = [dict() for _ in range(count)]  # per watcher: revision -> monotonic time first seen
        self.connected = 0
        self.errors = 0
        self.refused: dict[int, int] = {}  # status -> count, for answers other than 200
        self.ended = 0  # streams the server ended before the benchmark did
        self.stop = asyncio.Event()

    async def watch(self, number: int) -> None:
        seen = self.first_seen[number]
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2 ** 16)
            writer.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(None, 2)[1])
            if status != 200:
                self.refused[status] = self.refused.get(status, 0) + 1
                self.errors += 1
                return
            self.connected += 1
            while True:  # chunked: each message the server sends is one chunk
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    if not self.stop.is_set():
                        self.ended += 1
                    return
                chunk = await reader.readexactly(size + 2)
                now = time.monotonic()
                for line in chunk.split(b"\n"):
                    if line.startswith(b"id: "):
                        seen.setdefault(line[4:].decode(), now)
        except asyncio.CancelledError:
            pass
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            if not self.stop.is_set():
                self.errors += 1
        finally:
            if writer is not None:
                writer.close()


async def run_stream(args, base: str, slug: str, token: str, battles: list[int], pids: dict) -> dict:
    watchers = StreamWatchers(args.port + 1, f"/live/events/{slug}/stream/", args.watchers)
    loop = asyncio.get_running_loop()
    ramp_started, tasks = time.monotonic(), []
    for number in range(args.watchers):  # at most --ramp new connections a second
        tasks.append(asyncio.create_task(watchers.watch(number)))
        pause = ramp_started + (number + 1) / args.ramp - time.monotonic()
        if pause > 0:
            await asyncio.sleep(pause)
    while watchers.connected + watchers.errors < args.watchers and time.monotonic() - ramp_started < 120:
        await asyncio.sleep(0.05)
    ramp = time.monotonic() - ramp_started
    await asyncio.sleep(args.warmup)
    cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    client_cpu, started = time.process_time(), time.monotonic()
    load_before = Path("/proc/loadavg").read_text().split()[0]
    changes = []  # (monotonic time the organizer's request was sent, the revision it led to)
    path = f"/live/events/{slug}/"
    for number in range(args.changes):
        sent, etag = await record_a_change(loop, base, token, battles[number], number, path)
        changes.append((sent, etag.strip('"')))
        await asyncio.sleep(args.every)
    await asyncio.sleep(2.0)  # the last change's stragglers
    elapsed = time.monotonic() - started
    cpu = {name: cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items()}
    live_memory = resident_megabytes(pids["live"])
    client_cpu = time.process_time() - client_cpu
    load_after = Path("/proc/loadavg").read_text().split()[0]
    watchers.stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    delays, missed = delivery(changes, watchers.first_seen)
    return {"delays": delays, "missed": missed, "elapsed": elapsed, "cpu": cpu, "client_cpu": client_cpu,
            "errors": watchers.errors, "refused": watchers.refused, "ended": watchers.ended,
            "connected": watchers.connected, "ramp": ramp, "load": (load_before, load_after),
            "live_memory": live_memory}


def resident_megabytes(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main_stream(args) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the client's sockets; the servers inherit it
    if hard < args.watchers + 256:
        raise SystemExit(f"{args.watchers:,} watchers need {args.watchers + 256:,} open files; the hard limit is {hard:,}")
    import redis

    redis.Redis.from_url(STREAM_REDIS_URL).flushdb()  # the bench's own Redis database: no stale heads
    env = server_env(args.port, redis=True, stream=True)
    slug, token, battles = prepare_event(env)
    web = start_gunicorn(args.port, env, args.workers or 1, "gthread", args.threads, 100)
    live_process = None
    try:
        live_process = start_live(args.port + 1, env)
        base = f"http://127.0.0.1:{args.port}"
        figures = asyncio.run(asyncio.wait_for(
            run_stream(args, base, slug, token, battles, {"live": live_process.pid, "gunicorn": web.pid}),
            timeout=args.warmup + args.watchers / args.ramp + 120 + args.changes * (args.every + 30) + 60))
    finally:
        for process in (live_process, web):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)

    delays = figures["delays"]
    p50, p99, worst = (percentile(delays, 0.5), percentile(delays, 0.99), max(delays)) if delays else (0, 0, 0)
    elapsed = figures["elapsed"]
    print(f"machine: {machine()}")
    print(f"ONE live process (scripts/run live: uvicorn, uvloop, httptools), Redis pub/sub; gunicorn "
          f"{args.workers or 1} gthread worker(s) x {args.threads} threads for the organizer's API; PostgreSQL; "
          f"{args.watchers:,} watchers holding /live/events/<slug>/stream/; {args.changes} results recorded "
          f"through the API, one every {args.every:g} s")
    print(f"ramp: {figures['connected']:,} streams open in {figures['ramp']:.1f} s (at most {args.ramp:,}/s); "
          f"refused: {figures['refused'] or 'none'}; ended early: {figures['ended']}; errors: {figures['errors']}")
    p90 = percentile(delays, 0.9) if delays else 0
    print(f"delivery delay over {len(delays):,} (watcher, change) pairs: p50 {p50 * 1000:.0f} ms, "
          f"p90 {p90 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, worst {worst * 1000:.0f} ms; missed: {figures['missed']}")
    cpu = figures["cpu"]
    print(f"CPU over {elapsed:.1f} s: live process {cpu['live'] / elapsed:.2f} cores ({cpu['live']:.1f} s), "
          f"gunicorn {cpu['gunicorn'] / elapsed:.2f} cores, benchmark client {figures['client_cpu'] / elapsed:.2f} "
          f"cores; load average {figures['load'][0]} before, {figures['load'][1]} after; "
          f"live process memory {figures['live_memory']:.0f} MB resident")
    print(TABLE_HEAD)
    print(verdict("p99 delivery delay", f"{p99 * 1000:.0f} ms", "2000 ms", p99 / 2.0, "<= 2 s", p99 <= 2.0))
    ok = not figures["errors"] and not figures["missed"] and not figures["ended"]
    print(verdict("errors and missed changes", str(figures["errors"] + figures["missed"] + figures["ended"]), "0",
                  0.0 if ok else float("inf"), "0", ok))
    print(f"reproduce: .venv/bin/python bench/live.py --stream --watchers {args.watchers} --ramp {args.ramp} "
          f"--changes {args.changes} --every {args.every:g} --warmup {args.warmup:g} --port {args.port}")


def first_general(base: str, token: str, battle: int) -> int:
    status, _, detail = http(f"{base}/api/v1/battles/{battle}/", headers={"Authorization": f"Token {token}"})
    assert status == 200, detail[:300]
    return json.loads(detail)["general_a"]["id"]


def record_result(base: str, token: str, battle: int, winner: int, number: int) -> None:
    body = json.dumps({"kind": "victory", "winner": winner, "condition": "shackle"}).encode()
    status, _, answer = http(f"{base}/api/v1/battles/{battle}/result/", method="POST", body=body,
                             headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    assert status == 200, f"recording result {number} answered {status}: {answer[:300]!r}"


async def run(args, base: str, slug: str, token: str, battles: list[int], server_pid: int) -> dict:
    path = f"/live/events/{slug}/"
    watchers = Watchers(args.port, path, args.watchers)
    tasks = [asyncio.create_task(watchers.watch(number)) for number in range(args.watchers)]
    await asyncio.sleep(args.warmup)
    server_cpu, client_cpu, started = cpu_seconds(server_pid), time.process_time(), time.monotonic()
    changes = []  # (monotonic time the organizer's request was sent, the ETag it led to)
    loop = asyncio.get_running_loop()
    for number in range(args.changes):
        changes.append(await record_a_change(loop, base, token, battles[number], number, path))
        await asyncio.sleep(args.every)
    await asyncio.sleep(POLL_SECONDS * 2)  # the last change's stragglers
    elapsed = time.monotonic() - started
    server_cpu, client_cpu = cpu_seconds(server_pid) - server_cpu, time.process_time() - client_cpu
    watchers.stop.set()
    await asyncio.gather(*tasks)

    delays, missed = delivery(changes, watchers.first_seen)
    return {"delays": delays, "missed": missed, "elapsed": elapsed, "server_cpu": server_cpu,
            "client_cpu": client_cpu, "statuses": watchers.statuses, "errors": watchers.errors,
            "connections": watchers.connected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=10, help="results recorded (at most 20)")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between results")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of polling before the first result")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: 1, or 2 with --redis)")
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"],
                        help="sync: a connection per poll (no keep-alive); gthread: keep-alive connections")
    parser.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    parser.add_argument("--redis", action="store_true", help="the shared Redis cache (several workers)")
    parser.add_argument("--port", type=int, default=8766, help="gunicorn's; --stream: the live process's is the next")
    parser.add_argument("--stream", action="store_true",
                        help="server-sent events from one live process (Redis) instead of polling")
    parser.add_argument("--ramp", type=int, default=2000, help="--stream: new streams a second at most")
    args = parser.parse_args()
    args.changes = max(1, min(args.changes, 20))
    if args.stream:
        main_stream(args)
        return
    args.workers = args.workers or (2 if args.redis else 1)
    if args.workers > 1 and not args.redis:
        raise SystemExit("without Redis each worker has its own cache: use --workers 1 or --redis")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, args.watchers * 2 + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))  # the server inherits it too

    env = server_env(args.port, args.redis)
    slug, token, battles = prepare_event(env)
    server = start_gunicorn(args.port, env, args.workers, args.worker_class, args.threads, args.watchers)
    try:
        base = f"http://127.0.0.1:{args.port}"
        figures = asyncio.run(asyncio.wait_for(run(args, base, slug, token, battles, server.pid),
                                               timeout=args.warmup + args.changes * (args.every + 30) + 60))
    finally:
        server.terminate()
        server.wait(timeout=30)

    delays = figures["delays"]
    p50, p99, worst = (percentile(delays, 0.5), percentile(delays, 0.99), max(delays)) if delays else (0, 0, 0)
    statuses = ", ".join(f"{status}: {count:,}" for status, count in sorted(figures["statuses"].items()))
    polls = sum(figures["statuses"].values())
    print(f"machine: {machine()}")
    kind = f"gthread worker(s) x {args.threads} threads" if args.worker_class == "gthread" else "sync worker(s)"
    print(f"gunicorn {args.workers} {kind}, "
          f"{'Redis cache' if args.redis else 'no Redis (in-process cache)'}, PostgreSQL; {args.watchers:,} watchers "
          f"polling /live/events/<slug>/ every {POLL_SECONDS:g} s after each answer; {args.changes} results "
          f"recorded through the API, one every {args.every:g} s")
    print(f"polls answered: {statuses} ({polls / figures['elapsed']:,.0f}/s over {figures['elapsed']:.1f} s); "
          f"connections opened: {figures['connections']:,}; errors: {figures['errors']}")
    print(f"delivery delay over {len(delays):,} (watcher, change) pairs: p50 {p50 * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, worst {worst * 1000:.0f} ms; missed: {figures['missed']}")
    server_cores = figures["server_cpu"] / figures["elapsed"]
    print(f"server CPU: {figures['server_cpu']:.1f} s in {figures['elapsed']:.1f} s = {server_cores:.2f} cores; "
          f"benchmark client CPU: {figures['client_cpu'] / figures['elapsed']:.2f} cores")
    print(TABLE_HEAD)
    print(verdict("p99 delivery delay", f"{p99 * 1000:.0f} ms", "2000 ms", p99 / 2.0, "<= 2 s", p99 <= 2.0))
    ok = not figures["errors"] and not figures["missed"]
    print(verdict("errors and missed changes", str(figures["errors"] + figures["missed"]), "0",
                  0.0 if ok else float("inf"), "0", ok))
    print(f"reproduce: .venv/bin/python bench/live.py --watchers {args.watchers} --changes {args.changes} "
          f"--every {args.every:g} --warmup {args.warmup:g} --workers {args.workers} --worker-class {args.worker_class} --threads {args.threads}"
          f"{' --redis' if args.redis else ''} --port {args.port}")


if __name__ == "__main__":
    main()
