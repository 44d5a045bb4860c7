"""The README's "Running it in production", followed word by word on a clean machine: its fenced bash blocks run
as they are written, in a copy of the repository's files (what `git ls-files` lists, untracked files not
ignored included: what the next commit holds), with a new venv made by the README's own commands, a new
PostgreSQL database and Redis db 7. The `scripts/run ...` lines run in the background as a supervisor would run
them, until /healthz says the database, Redis and a worker answer; then the blocks after them, then everything
stops. The environment the README tells the reader to set comes from here."""
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import textwrap
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from urllib.parse import urlparse, urlunparse

import pytest

from tests.conftest import TEST_REDIS_URL, missing_service, tcp_answers
from tests.deploy.procfile import ROOT, process_types

README = ROOT / "README.md"
SECTION = "## Running it in production"
DATABASE = "opp_deploy_readme"
REDIS_DB = 7
WEB_PORT, LIVE_PORT = 8771, 8772
SITE_HOST = "opp.example.org"
HEALTHY_WITHIN_SECONDS = 120

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.worker]


def readme_production_section():
    text = README.read_text()
    start = text.index(SECTION + "\n")
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end != -1 else len(text)]


def readme_production_blocks():
    """The section's ```bash blocks, in order, as the reader would paste them."""
    return [textwrap.dedent(block) for block in
            re.findall(r"^[ \t]*```bash\n(.*?)^[ \t]*```", readme_production_section(), re.S | re.M)]


def readme_environment_names():
    """The variables the README tells the reader to set (its step "The environment")."""
    step = re.search(r"^\d+\. The environment.*?(?=^\d+\. )", readme_production_section(), re.S | re.M).group(0)
    return set(re.findall(r"`([A-Z][A-Z0-9_]+)(?:=[^`]*)?`", step))


def commands(block):
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def clean_copy(destination):
    """The repository's files as a clone of the next commit has them; nothing built, installed or collected."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a file deleted in the working tree is not in the next commit either
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)
    return destination


@pytest.fixture
def fresh_database_url():
    """A new, empty PostgreSQL database on the server the suite uses (or the local one), dropped afterwards."""
    import psycopg

    configured = urlparse(os.environ.get("DATABASE_URL", ""))
    server = configured if configured.scheme.startswith("postgres") else urlparse("postgres://postgres@127.0.0.1:5432/")
    if not tcp_answers(server.hostname, server.port or 5432):
        missing_service(f"PostgreSQL does not answer at {server.hostname}:{server.port or 5432}.")
    admin = urlunparse(server._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE}")
    yield urlunparse(server._replace(path=f"/{DATABASE}"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


@pytest.fixture
def rehearsal_redis_url():
    import redis

    server = urlparse(TEST_REDIS_URL)
    if not tcp_answers(server.hostname, server.port or 6379):
        missing_service(f"Redis does not answer at {server.hostname}:{server.port or 6379}.")
    url = urlunparse(server._replace(path=f"/{REDIS_DB}"))
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()


def production_environment(database_url, redis_url, workdir):
    """This process's environment without the test run's own settings, and the values the README asks for."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PYTHONPATH",
                                   "PYTHONSAFEPATH", "OPP_ENGINE", "VIRTUAL_ENV", "OPP_TEST_REDIS_URL"}}
    environment.update({
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": SITE_HOST,
        "CSRF_TRUSTED_ORIGINS": f"https://{SITE_HOST}",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SUPERUSER_USERNAME": "siteadmin",
        "DJANGO_SUPERUSER_EMAIL": f"admin@{SITE_HOST}",
        "DJANGO_SUPERUSER_PASSWORD": secrets.token_urlsafe(16),
        "SECURE_PROXY_SSL_HEADER": "true",
        "API_NUM_PROXIES": "1",
        # Where the processes listen and how many each starts: small, on ports of their own.
        "OPP_BIND": "127.0.0.1",
        "WEB_CONCURRENCY": "2",
        "WORKER_CONCURRENCY": "1",
        "CELERY_BEAT_SCHEDULE": str(workdir / "celerybeat-schedule"),
    })
    return environment


PORTS = {"web": WEB_PORT, "live": LIVE_PORT}


@contextmanager
def running(lines, cwd, environment, logs):
    """Each `scripts/run <type>` line in the background, in a process group of its own; all stopped at the end."""
    started = []
    try:
        for line in lines:
            process_type = line.split("#")[0].split()[1]
            assert process_type in process_types(), line
            log = logs / f"{process_type}.log"
            env = dict(environment, **({"PORT": str(PORTS[process_type])} if process_type in PORTS else {}))
            with log.open("w") as output:
                process = subprocess.Popen(["bash", "-c", line], cwd=cwd, env=env, stdout=output,
                                           stderr=subprocess.STDOUT, start_new_session=True)
            started.append((process_type, process, log))
        yield started
    finally:
        for _, process, _ in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for _, process, _ in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def health(port):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": SITE_HOST})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"{}")
    except (OSError, ValueError):
        return None, None


def wait_until_healthy(started):
    deadline = time.monotonic() + HEALTHY_WITHIN_SECONDS
    answers = {}
    while time.monotonic() < deadline:
        for process_type, process, log in started:
            assert process.poll() is None, f"{process_type} ended ({process.returncode}):\n{log.read_text()[-3000:]}"
        answers = {port: health(port) for port in PORTS.values()}
        if all(status == 200 and body["status"] == "ok" for status, body in answers.values()):
            return answers
        time.sleep(1)
    logs = "\n".join(f"--- {t}\n{log.read_text()[-1500:]}" for t, _, log in started)
    pytest.fail(f"/healthz did not say ok within {HEALTHY_WITHIN_SECONDS} s: {answers}\n{logs}")


def test_the_readme_names_the_install_the_preparation_the_processes_and_the_check():
    blocks = [commands(block) for block in readme_production_blocks()]
    assert len(blocks) == 3, blocks
    install, run, check = blocks
    assert install[1] == ".venv/bin/pip install --require-hashes -r requirements.lock"
    assert sorted(line.split()[1] for line in run) == sorted(process_types())
    assert check == [".venv/bin/python manage.py health"]


def run_to_completion(block, site, environment):
    """One block, as a reader pastes it into a shell that stops at the first failing command."""
    answer = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=site, env=environment,
                            capture_output=True, text=True, timeout=900)
    assert answer.returncode == 0, f"{block}\nexit {answer.returncode}\n{answer.stdout[-3000:]}\n{answer.stderr[-3000:]}"
    return answer.stdout


def is_process_block(block):
    return all(line.startswith("scripts/run ") for line in commands(block))


def test_the_readme_production_section_runs_word_by_word_on_a_clean_copy(
        tmp_path, fresh_database_url, rehearsal_redis_url, record_property):
    began = time.monotonic()
    site = clean_copy(tmp_path / "site")
    assert not (site / ".venv").exists() and not (site / "staticfiles").exists()
    environment = production_environment(fresh_database_url, rehearsal_redis_url, tmp_path)
    told = readme_environment_names()
    assert told <= set(environment), f"the README asks for settings this rehearsal does not give: {told - set(environment)}"
    blocks = readme_production_blocks()
    processes = next(index for index, block in enumerate(blocks) if is_process_block(block))
    try:
        for block in blocks[:processes]:
            run_to_completion(block, site, environment)
        prepared = time.monotonic()
        with running(commands(blocks[processes]), site, environment, tmp_path) as started:
            answers = wait_until_healthy(started)
            healthy = time.monotonic()
            # What the load balancer and the image's HEALTHCHECK see, on web and live alike.
            for _, body in answers.values():
                assert {name: check["ok"] for name, check in body["checks"].items()} == {
                    "database": True, "redis": True, "workers": True}
            for port in PORTS.values():
                probe = subprocess.run([str(site / ".venv/bin/python"), "deploy/healthcheck.py", str(port)],
                                       cwd=site, env=environment, capture_output=True, text=True, timeout=30)
                assert probe.returncode == 0 and probe.stdout.startswith("200 ok"), probe.stdout
            for block in blocks[processes + 1:]:
                assert "status: ok" in run_to_completion(block, site, environment)
        # The first administrator exists, made by createsuperuser --noinput from the environment.
        probe = subprocess.run(
            [str(site / ".venv/bin/python"), "manage.py", "shell", "-c",
             "from django.contrib.auth import get_user_model as m; "
             "print(m().objects.get(username='siteadmin').is_superuser)"],
            cwd=site, env=environment, capture_output=True, text=True, timeout=120)
        assert probe.stdout.strip().splitlines()[-1:] == ["True"], probe.stderr
    finally:
        shutil.rmtree(site, ignore_errors=True)  # the venv and the static files: some hundred MB
    record_property("measured_readme_rehearsal",
                    f"{time.monotonic() - began:.0f} s in all: installed and prepared in {prepared - began:.0f} s, "
                    f"processes healthy {healthy - prepared:.0f} s later")
