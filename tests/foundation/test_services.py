"""The real services: the suite on PostgreSQL, and a Celery worker process answering over Redis."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

ROOT = Path(__file__).resolve().parents[2]


def test_database_is_postgresql_with_the_migrations_applied(require_postgres, django_db_blocker):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")
        cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'auth'")
        assert cursor.fetchone()[0] > 0


@pytest.fixture
def worker(redis_url):
    """A real `celery -A opp worker` process on the test Redis; stopped after the test."""
    env = dict(os.environ, REDIS_URL=redis_url, DEBUG="true")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "opp", "worker", "--pool=prefork", "--concurrency=1",
         "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.worker
def test_a_worker_process_runs_a_task_sent_over_redis(worker, redis_url):
    client = Celery("test-client", broker=redis_url, backend=redis_url)
    result = client.send_task("opp.ping")
    assert result.get(timeout=60) == "pong"
    deadline = time.monotonic() + 20
    replies = None
    while time.monotonic() < deadline and not replies:
        replies = client.control.inspect(timeout=1).ping()
    assert replies, "the worker ran the task but does not answer pings"
