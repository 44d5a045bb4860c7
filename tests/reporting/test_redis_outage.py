"""Redis goes down in the middle of an event day, for real: a Redis this test starts on its own port,
a Celery worker, Celery beat (the sweep) and a gunicorn web process all pointed at it. While Redis is
down, reports through the API and through the battle page are saved with their replays and wait,
queued with the reason; `adjudicate_pending` says the queue does not answer and fails. Once Redis
is back, the sweep sends them and the worker adjudicates them."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys

import httpx
import pytest

from tests.conftest import free_port, missing_service
from tournaments.models import Report

from .conftest import replay_between
from .test_workers import ROOT, database_url, stop_process_group, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.worker, pytest.mark.postgres]


class Processes:
    """Starts processes in their own process groups and stops every one of them at the end."""

    def __init__(self, tmp_path):
        self.tmp_path, self.started = tmp_path, []

    def start(self, name, command, env=None):
        log = open(self.tmp_path / f"{name}.log", "ab")  # noqa: SIM115  (closed with the process)
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.started.append((process, log))
        return process

    def stop(self, process):
        stop_process_group(process)

    def stop_all(self):
        for process, log in reversed(self.started):
            self.stop(process)
            log.close()


@pytest.fixture
def processes(tmp_path):
    started = Processes(tmp_path)
    yield started
    started.stop_all()


def start_redis(processes, port):
    process = processes.start("redis", ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                        "--save", "", "--appendonly", "no"])
    wait_for(lambda: _answers(port), 20, "the test's Redis to answer")
    return process


def _answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def manage(env, *args):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_reports_made_while_redis_is_down_are_saved_and_adjudicated_after(event_day_committed, processes,
                                                                          require_postgres, tmp_path):
    if shutil.which("redis-server") is None:
        missing_service("redis-server is not installed, so this test cannot start its own Redis.")
    event, organizer, _first = event_day_committed
    api_battle, page_battle = event.battles.select_related("general_a", "general_b").order_by("pk")[:2]
    redis_port, web_port = free_port(), free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = dict(os.environ, REDIS_URL=redis_url, DATABASE_URL=database_url(), DEBUG="true", OPP_SWEEP_SECONDS="2",
               CELERY_VISIBILITY_TIMEOUT="10")
    redis = start_redis(processes, redis_port)
    processes.start("worker", [sys.executable, "-m", "celery", "-A", "opp", "worker", "--pool=solo",
                               "--loglevel=INFO", "--without-gossip", "--without-mingle",
                               "-n", f"outage-{os.getpid()}@%h"], env)
    processes.start("beat", [sys.executable, "-m", "celery", "-A", "opp", "beat", "--loglevel=INFO",
                             "--schedule", str(tmp_path / "beat-schedule")], env)
    processes.start("web", [sys.executable, "-m", "gunicorn", "opp.wsgi", "--bind", f"127.0.0.1:{web_port}",
                            "--workers", "1", "--timeout", "60"], env)
    base = f"http://127.0.0.1:{web_port}"

    def healthy():
        try:
            return httpx.get(f"{base}/healthz", timeout=5).json()["status"] == "ok"
        except (httpx.HTTPError, ValueError):
            return False

    wait_for(healthy, 60, "the web process to say that Redis and a worker answer")

    processes.stop(redis)
    assert not _answers(redis_port)

    # The API: reads and a report with a replay (the throttle's cache is down too).
    from rest_framework.authtoken.models import Token

    a, b = api_battle.general_a, api_battle.general_b
    token = Token.objects.create(user=a.user).key
    api = httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=30)
    assert api.get("/api/v1/events/").status_code == 200
    answer = api.post(f"/api/v1/battles/{api_battle.pk}/reports/", json={
        "kind": "victory", "winner": a.pk, "condition": "shackle",
        "replay": replay_between("victory-shackle", a, b)})
    assert answer.status_code == 201, answer.text
    assert answer.json()["status"] == "queued" and "did not answer" in answer.json()["status_reason"]

    # The battle page: sign in, then report with a replay file.
    c, d = page_battle.general_a, page_battle.general_b
    page = httpx.Client(base_url=base, timeout=30)
    page.get("/accounts/login/")
    signed_in = page.post("/accounts/login/", data={"login": c.user.username, "password": "pw",
                                                    "csrfmiddlewaretoken": page.cookies["csrftoken"]})
    assert signed_in.status_code == 302, signed_in.text[:500]
    form = page.get(f"/battles/{page_battle.pk}/")
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    replay = json.dumps(replay_between("victory-shackle", c, d)).encode()
    reported = page.post(f"/battles/{page_battle.pk}/report/", data={
        "kind": "victory", "winner": str(c.pk), "condition": "shackle", "csrfmiddlewaretoken": csrf},
        files={"replay_file": ("replay.json", replay, "application/json")})
    assert reported.status_code == 302, reported.text[:500]

    waiting = Report.objects.filter(battle__in=[api_battle, page_battle])
    assert [(r.status, bool(r.replay)) for r in waiting] == [(Report.Status.QUEUED, True)] * 2
    assert all("did not answer" in r.status_reason for r in waiting)

    refused = manage(env, "adjudicate_pending")
    assert refused.returncode != 0
    assert "does not answer" in refused.stderr and "2 adjudication(s) still wait" in refused.stderr

    start_redis(processes, redis_port)
    wait_for(lambda: all(r.status == Report.Status.CHECKED for r in waiting.all()), 90,
             "the sweep to send the waiting jobs and the worker to check both reports")
    assert all(r.status_reason.startswith("Checked by the engine") for r in waiting.all())
    sent_again = manage(env, "adjudicate_pending")
    assert sent_again.returncode == 0, sent_again.stderr
    assert "0 adjudication(s) sent" in sent_again.stdout
