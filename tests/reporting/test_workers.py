"""Adjudication jobs on real Celery worker processes over Redis, on the PostgreSQL test database:
a report confirmed by a worker, and a worker killed with SIGKILL mid-job whose job another worker
finishes (late acknowledgement)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

from tournaments import reporting
from tournaments.models import Adjudication, AuditEntry, Report

from .conftest import replay_between

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.postgres]


def database_url():
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def workers(redis_url, require_postgres):
    """Starts worker processes (each in its own process group) and stops them after the test."""
    started = []

    def start(name, **extra_env):
        env = dict(os.environ, REDIS_URL=redis_url, DATABASE_URL=database_url(), DEBUG="true",
                   CELERY_VISIBILITY_TIMEOUT="3", **extra_env)
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "opp", "worker", "--pool=prefork", "--concurrency=1",
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"{name}-{os.getpid()}@%h"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def jobs_over_redis(redis_url, monkeypatch):
    """Reports enqueue their jobs on the test Redis, as the web processes do in production."""
    client = Celery("test-client", broker=redis_url, backend=redis_url)
    monkeypatch.setattr(reporting, "enqueue", lambda adjudication_id: client.send_task(
        "tournaments.adjudicate_report", args=[adjudication_id]))
    return client


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def status_of(report):
    return Report.objects.get(pk=report.pk).status


def test_a_worker_confirms_a_report_with_a_matching_replay(event_day_committed, workers, jobs_over_redis):
    event, organizer, battle = event_day_committed
    a, b = battle.general_a, battle.general_b
    workers("confirm")
    report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle",
                                     replay=replay_between("victory-shackle", a, b))
    wait_for(lambda: status_of(report) == Report.Status.CONFIRMED, 90, "the worker's verdict")
    battle.refresh_from_db()
    assert battle.winner == a and battle.condition == "shackle"


def test_a_worker_killed_mid_job_loses_nothing(event_day_committed, workers, jobs_over_redis):
    event, organizer, battle = event_day_committed
    a, b = battle.general_a, battle.general_b
    doomed = workers("doomed", OPP_ADJUDICATION_DELAY="30")
    report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle",
                                     replay=replay_between("victory-shackle", a, b))
    wait_for(lambda: Adjudication.objects.get(report=report).state == Adjudication.State.RUNNING, 90,
             "the first worker to take the job")
    os.killpg(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=10)
    assert status_of(report) == Report.Status.ADJUDICATING

    workers("rescuer")
    wait_for(lambda: status_of(report) == Report.Status.CONFIRMED, 120, "the second worker to finish the job")
    adjudication = Adjudication.objects.get(report=report)
    assert adjudication.state == Adjudication.State.DONE and adjudication.attempts == 2
    assert AuditEntry.objects.filter(event=event, action="result recorded").count() == 1
