"""A site in its grown shape, started as production starts it: a fresh PostgreSQL database migrated by
`manage.py migrate`, Redis, and the Procfile's processes (web, worker, beat) each started by `scripts/run`
in its own process group, with production settings (DEBUG off). Used by test_grown_shape.py.

Nothing here imports Django: the site runs in the child processes, and the test reads it through
HTTP (the API), the processes' logs and, for the final count, its database."""
from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg
import requests

from tests.deploy.procfile import ROOT, run_command

# Celery's worker log, one line per job it was handed and per job it finished (INFO).
RECEIVED = re.compile(r"Task (\S+)\[([0-9a-f-]+)\] received")
STAMP = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) ")  # the site's log format (settings.LOGGING)
FINISHED = re.compile(r"Task (\S+)\[([0-9a-f-]+)\] (succeeded|failed|raised|retry)")


class SiteFailed(AssertionError):
    """The site did something the test cannot go on from (a process died, a wait ran out)."""


def wait_until(predicate, timeout, what, interval=0.1):
    """The predicate's first truthy value within `timeout` seconds; SiteFailed naming `what` otherwise."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SiteFailed(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def free_ports(count, first=8760, last=8769):
    """`count` ports nobody listens on, from first..last when free (the ports this test is given on a shared
    machine), else any the system hands out."""
    found = []
    for port in [*range(first, last + 1), *([0] * count)]:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            found.append(probe.getsockname()[1])
        if len(found) == count:
            return found
    raise SiteFailed("no free port to start the web processes on")


@dataclass
class Process:
    """One started Procfile process: its type, name, the Popen (pid = its process group) and its log."""

    kind: str
    name: str
    popen: subprocess.Popen
    log: Path
    env: dict = field(repr=False)

    @property
    def alive(self):
        return self.popen.poll() is None

    def log_text(self):
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def jobs(self, task):
        """(received, finished) job ids of `task` in this worker's log."""
        text = self.log_text()
        received = {job for name, job in RECEIVED.findall(text) if name == task}
        finished = {job for name, job, _how in FINISHED.findall(text) if name == task}
        return received, finished

    def held_jobs(self, task):
        """{job id: when it was received (epoch seconds)} of the jobs of `task` this worker holds unfinished."""
        _received, finished = self.jobs(task)
        held = {}
        for line in self.log_text().splitlines():
            found = RECEIVED.search(line)
            stamp = STAMP.match(line)
            if found and stamp and found.group(1) == task and found.group(2) not in finished:
                held[found.group(2)] = time.mktime(time.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S")) \
                    + int(stamp.group(2)) / 1000
        return held

    def succeeded(self, task):
        return len(re.findall(rf"Task {re.escape(task)}\[[0-9a-f-]+\] succeeded", self.log_text()))


class GrownSite:
    _secret_key = secrets.token_urlsafe(50)  # one a test run, as a site has one

    def __init__(self, workdir: Path, redis_url: str, postgres_url: str):
        self.workdir = workdir
        self.redis_url = redis_url
        server = urlparse(postgres_url)
        self.database = f"opp_grown_{os.getpid()}"
        self.admin_url = urlunparse(server._replace(path="/postgres"))
        self.database_url = urlunparse(server._replace(path=f"/{self.database}"))
        self.processes: list[Process] = []
        self.webs: dict[str, str] = {}  # name: base URL

    # -- the environment production gives every process (README, "Settings") --------------------------
    def environment(self, **extra):
        env = {name: value for name, value in os.environ.items()
               if not name.startswith(("DJANGO_", "OPP_", "CELERY_", "PYTEST_")) and name not in (
                   "DATABASE_URL", "REDIS_URL", "DEBUG", "PORT", "WEB_CONCURRENCY", "WORKER_CONCURRENCY")}
        env.update({
            "DEBUG": "false",
            "SECRET_KEY": self._secret_key,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",  # no mail server here
            "OPP_BIND": "127.0.0.1",
            "PYTHONUNBUFFERED": "1",
        })
        env.update({name: str(value) for name, value in extra.items()})
        return env

    # -- the database ---------------------------------------------------------------------------------
    def create_database(self):
        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.database}"')

    def drop_database(self):
        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    def connect(self):
        """A connection of the test's own to the site's database (autocommit), for locks and the final count."""
        return psycopg.connect(self.database_url, autocommit=True, connect_timeout=5)

    def manage(self, *args, timeout=120, **env):
        """`python manage.py <args>` in a child process, as an operator runs it; its output on failure."""
        answer = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.environment(**env),
                                capture_output=True, text=True, timeout=timeout)
        if answer.returncode != 0:
            raise SiteFailed(f"manage.py {' '.join(args)} exited {answer.returncode}:\n"
                             f"{answer.stdout[-3000:]}\n{answer.stderr[-3000:]}")
        return answer.stdout

    # -- the processes --------------------------------------------------------------------------------
    def start(self, kind, name, **env):
        log = self.workdir / f"{name}.log"
        handle = log.open("wb")
        popen = subprocess.Popen(run_command(kind), cwd=ROOT, env=self.environment(**env), stdout=handle,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        handle.close()
        process = Process(kind, name, popen, log, env)
        self.processes.append(process)
        return process

    def start_web(self, name, port, **env):
        process = self.start("web", name, PORT=port, **env)
        self.webs[name] = f"http://127.0.0.1:{port}"
        return process

    def kill(self, process):
        """kill -9 of the process's whole group (gunicorn's master and workers; Celery's and its pool)."""
        os.killpg(process.popen.pid, signal.SIGKILL)
        process.popen.wait(timeout=10)
        self.webs.pop(process.name, None)

    def stop_all(self):
        """SIGTERM to every group still running, SIGKILL to those still there after 15 s."""
        running = [p for p in self.processes if p.alive]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.popen.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in running:
            try:
                process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.popen.pid, signal.SIGKILL)
                process.popen.wait(timeout=10)

    def require_alive(self):
        dead = [p for p in self.processes if not p.alive and p.popen.returncode != -signal.SIGKILL]
        if dead:
            p = dead[0]
            raise SiteFailed(f"{p.name} ({p.kind}) exited {p.popen.returncode}; its log ends:\n{p.log_text()[-3000:]}")

    def health(self, web):
        try:
            answer = requests.get(f"{self.webs[web]}/healthz", timeout=5)
        except requests.RequestException:
            return None
        return answer.json() if answer.headers.get("Content-Type", "").startswith("application/json") else None

    def wait_healthy(self, workers, timeout):
        """Every web answers /healthz 200 "ok" with all `workers` (node names) answering its ping."""
        def ready():
            self.require_alive()
            for web in self.webs:
                state = self.health(web)
                if not state or state["status"] != "ok":
                    return False
                detail = state["checks"]["workers"]["detail"]
                if not all(worker in detail for worker in workers):
                    return False
            return True
        wait_until(ready, timeout, f"/healthz ok with the workers {workers} on {sorted(self.webs)}", interval=0.25)

    def jobs_in_redis(self, task):
        """Jobs of `task` still in the Celery queue, or handed to a worker and not acknowledged (kombu's Redis
        keys `celery` and `unacked`); beat's own periodic jobs pass through there too and are not counted."""
        import redis

        client = redis.Redis.from_url(self.redis_url)
        queued = [json.loads(raw) for raw in client.lrange("celery", 0, -1)]
        handed_out = [json.loads(raw)[0] for raw in client.hvals("unacked")]
        return sum(1 for message in queued + handed_out if message.get("headers", {}).get("task") == task)


class Api:
    """One API client (a token, or anonymous) that says which web process it asks each time."""

    def __init__(self, site: GrownSite, token=None):
        self.site = site
        self.headers = {"Accept": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"

    def url(self, web, path):
        return f"{self.site.webs[web]}/api/v1/{path.lstrip('/')}"

    def get(self, web, path, **headers):
        return requests.get(self.url(web, path), headers={**self.headers, **headers}, timeout=30)

    def post(self, web, path, body=None, *, key=None, timeout=30):
        headers = dict(self.headers)
        if key:
            headers["Idempotency-Key"] = key
        return requests.post(self.url(web, path), json=body if body is not None else {}, headers=headers,
                             timeout=timeout)


def expect(answer, status):
    """The answer's JSON when it has the status, else SiteFailed with what the site said."""
    if answer.status_code != status:
        raise SiteFailed(f"{answer.request.method} {answer.request.url} answered {answer.status_code}, "
                         f"not {status}: {answer.text[:2000]}")
    return answer.json() if answer.content else None


def token_of(site, web, username, password):
    return expect(requests.post(f"{site.webs[web]}/api/v1/auth/token/",
                                json={"username": username, "password": password}, timeout=30), 200)["token"]
