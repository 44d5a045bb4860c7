"""API benchmark: the scoreboard endpoint under load against a bare Django view, same gunicorn.

    .venv/bin/python bench/api.py [--duration 15] [--connections 64] [--rounds 2] [--port 8765]

Prepares the database `opp_bench_api` (migrate + load_demo, once), starts gunicorn (2 sync workers,
production settings: DEBUG off, Redis cache) with OPP_BENCH_BASELINE=1, which routes the baseline
view /bench/constant (a constant JSON body, see opp/urls.py; not routed otherwise), and runs wrk on
loopback at 64 connections for a bounded time against:

- baseline: GET /bench/constant;
- scoreboard: GET /api/v1/events/demo-spring-qualifier/scoreboard/ with a warm cache (200 + body);
- scoreboard with If-None-Match: the current ETag, so the answer is 304 without a body.

The three alternate for --rounds rounds (noise hits all alike); each figure is the median over
the rounds. The API throttles keep their production rates (120/min per client): every request
carries a random X-Forwarded-For address (a wrk Lua script, used for all three targets), which DRF
takes as the client's identity with API_NUM_PROXIES=1 (as behind one reverse proxy), so the load looks
like many screens, each well under its rate, and the throttle still runs (reads and writes its
history) on every request.
Goal (issue #8): scoreboard requests/s >= 0.8 x baseline, p99 <= 50 ms
at 64 connections, no errors (socket errors, timeouts, 4xx/5xx).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, TABLE_HEAD, database_url, ensure_database, machine, verdict  # noqa: E402

DB_NAME = "opp_bench_api"
REDIS_URL = "redis://127.0.0.1:6379/14"
EVENT = "demo-spring-qualifier"
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}
# Many clients: a random client address per request (see the docstring); wrk's LuaJIT has no `//`.
WRK_SCRIPT = """
init = function(args)
  math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1000000))
end
request = function()
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255),
                                                 math.random(1, 254))
  return wrk.format()
end
"""


def server_env(port: int) -> dict:
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "opp.settings", "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-not-used-for-anything-real-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url(DB_NAME), "REDIS_URL": REDIS_URL, "LOG_LEVEL": "WARNING",
        "OPP_BENCH_BASELINE": "1",
        # As behind one reverse proxy: the last X-Forwarded-For address is the client (see the docstring).
        "API_NUM_PROXIES": "1",
    })
    return env


def prepare_database(env: dict) -> None:
    ensure_database(DB_NAME)
    python = str(ROOT / ".venv" / "bin" / "python")
    demo_env = {key: value for key, value in env.items() if key != "REDIS_URL"}  # demo jobs run in-process
    for command in (["migrate", "--noinput", "-v", "0"], ["load_demo"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=demo_env, check=True,
                       stdout=subprocess.DEVNULL)


def get(url: str, headers: dict | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def start_gunicorn(port: int, env: dict, workers: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "opp.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--log-level", "warning"], cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if get(f"http://127.0.0.1:{port}/bench/constant")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def parse_wrk(output: str) -> dict:
    def latency(label):
        match = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        return float(match.group(1)) * UNITS[match.group(2)] if match else float("nan")

    requests = int(re.search(r"(\d+) requests in", output).group(1))
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": latency("50"), "p90": latency("90"), "p99": latency("99"), "requests": requests,
        "errors": (sum(int(x) for x in socket.groups()) if socket else 0) + (int(non_2xx.group(1)) if non_2xx else 0),
    }


def run_wrk(url: str, connections: int, duration: int, headers: dict | None = None) -> dict:
    script = Path(tempfile.gettempdir()) / "opp_bench_api_clients.lua"
    script.write_text(WRK_SCRIPT)
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--latency", "--timeout", "5s",
               "-s", str(script)]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    return parse_wrk(output)


def median_of(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]} | {
        "errors": sum(run["errors"] for run in runs), "requests": sum(run["requests"] for run in runs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=15, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")

    env = server_env(args.port)
    prepare_database(env)
    server = start_gunicorn(args.port, env, args.workers)
    try:
        base = f"http://127.0.0.1:{args.port}"
        targets = {"baseline": (f"{base}/bench/constant", {}),
                   "scoreboard": (f"{base}/api/v1/events/{EVENT}/scoreboard/", {})}
        status, headers, body = get(targets["scoreboard"][0])  # fills the cache
        assert status == 200, f"scoreboard answered {status}: {body[:200]!r}"
        etag = headers["ETag"]
        targets["scoreboard 304"] = (targets["scoreboard"][0], {"If-None-Match": etag})
        assert get(*targets["scoreboard 304"])[0] == 304, "a conditional request must answer 304"
        for url, extra in targets.values():  # warm every worker and connection path
            run_wrk(url, args.connections, 3, extra)
        results = {name: [] for name in targets}
        for _ in range(args.rounds):
            for name, (url, extra) in targets.items():
                results[name].append(run_wrk(url, args.connections, args.duration, extra))
    finally:
        server.terminate()
        server.wait(timeout=30)

    figures = {name: median_of(runs) for name, runs in results.items()}
    print(f"machine: {machine()}")
    print(f"gunicorn {args.workers} sync workers, wrk 2 threads, {args.connections} connections, "
          f"{args.duration} s x {args.rounds} rounds per target; scoreboard body {len(body):,} bytes, ETag {etag}")
    print("| target | requests/s | p50 ms | p90 ms | p99 ms | errors | requests |\n|---|---|---|---|---|---|---|")
    for name, f in figures.items():
        print(f"| {name} | {f['rps']:,.0f} | {f['p50']:.1f} | {f['p90']:.1f} | {f['p99']:.1f} | {f['errors']} | "
              f"{f['requests']:,} |")
    b = figures["baseline"]
    print(TABLE_HEAD)
    for name in ("scoreboard", "scoreboard 304"):
        f = figures[name]
        print(verdict(f"{name} throughput", f"{f['rps']:,.0f} req/s", f"{b['rps']:,.0f} req/s", f["rps"] / b["rps"],
                      "ratio >= 0.8", f["rps"] / b["rps"] >= 0.8))
        print(verdict(f"{name} p99 latency", f"{f['p99']:.1f} ms", f"{b['p99']:.1f} ms", f["p99"] / b["p99"],
                      "<= 50 ms", f["p99"] <= 50))
        print(verdict(f"{name} errors", str(f["errors"]), str(b["errors"]), 0.0 if not f["errors"] else float("inf"),
                      "0", f["errors"] == 0))
    print(f"reproduce: .venv/bin/python bench/api.py --duration {args.duration} --connections {args.connections} "
          f"--rounds {args.rounds} --workers {args.workers} --port {args.port}")


if __name__ == "__main__":
    main()
