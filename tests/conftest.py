"""Test-wide set-up.

The suite runs on whatever DATABASE_URL names (scripts/test picks PostgreSQL when it answers).
Tests that need a real service are marked `postgres`, `redis` or `worker`. Where services are
mandatory (CI=true or OPP_REQUIRE_SERVICES=1) a missing service FAILS those tests; elsewhere
they are skipped with a loud message.
"""
import os
import socket
import warnings
from urllib.parse import urlparse

# pytest-django reads the settings after this module is imported (no DJANGO_SETTINGS_MODULE in
# the ini file on purpose), so these defaults apply to every test process.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")
os.environ.setdefault("DEBUG", "true")
# Tests exercise the in-process (eager) path unless a test starts its own worker.
os.environ.pop("REDIS_URL", None)

import pytest  # noqa: E402
from django.conf import settings as django_settings  # noqa: E402

# Before anything imports the rules engine: which one this run tests (OPP_ENGINE=pure|compiled).
from tests import engine_under_test  # noqa: E402

# Touching the settings loads them, so pytest-django's own pytest_configure sets Django up.
django_settings.INSTALLED_APPS  # noqa: B018
# Background jobs (mails, webhook deliveries: opp/background.py) run at once, after the commit of the step,
# so a test reads mail.outbox right after an action; tests/mail turns it off to prove the real path.
django_settings.OPP_BACKGROUND_INLINE = True

TEST_REDIS_URL = os.environ.get("OPP_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def services_required():
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("OPP_REQUIRE_SERVICES") == "1"


def missing_service(sentence):
    """Fail where services are mandatory, skip loudly elsewhere."""
    if services_required():
        pytest.fail(f"{sentence} Services are mandatory here (CI=true or OPP_REQUIRE_SERVICES=1).",
                    pytrace=False)
    warnings.warn(f"SKIPPED, SERVICE MISSING: {sentence}", stacklevel=2)
    pytest.skip(f"SERVICE MISSING: {sentence}")


def free_port():
    """A loopback port nobody listens on now, for a server a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tcp_answers(host, port, timeout=1.0):
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db["ENGINE"].rsplit(".", 1)[-1]
    if where != "sqlite3":
        where += f" at {db.get('HOST') or 'socket'}:{db.get('PORT') or 'default'}"
    redis_url = urlparse(TEST_REDIS_URL)
    redis_state = "answers" if tcp_answers(redis_url.hostname, redis_url.port or 6379) else "DOES NOT ANSWER"
    return [
        f"warline: database {where}; test Redis {TEST_REDIS_URL} {redis_state}; "
        f"services {'MANDATORY' if services_required() else 'optional (missing ones skip)'}",
        engine_under_test.describe(),
    ]


MEASURED = "measured_"  # record_property("measured_<what>", sentence): shown at the end of the run
_measurements = []


def pytest_runtest_logreport(report):
    """Collect what tests measured (e.g. the kill -9 test's recovery time), which print() would hide."""
    if report.when == "call":
        for name, value in report.user_properties:
            if name.startswith(MEASURED):
                _measurements.append((report.nodeid, name.removeprefix(MEASURED), value))


def pytest_terminal_summary(terminalreporter):
    if _measurements:
        terminalreporter.section("measured")
        for nodeid, what, value in _measurements:
            terminalreporter.write_line(f"{what}: {value}  [{nodeid}]")


@pytest.fixture
def require_postgres(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        missing_service(
            f"this test needs PostgreSQL but the suite runs on {connection.vendor}; "
            "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/opp."
        )


@pytest.fixture
def redis_url():
    parsed = urlparse(TEST_REDIS_URL)
    if not tcp_answers(parsed.hostname, parsed.port or 6379):
        missing_service(f"Redis does not answer at {TEST_REDIS_URL}.")
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    yield TEST_REDIS_URL
    client.flushdb()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with an empty cache, shared and in-process (scoreboards and throttles are cached)."""
    from django.core.cache import cache

    from tournaments.api.scoreboard import forget_everything_local

    cache.clear()
    forget_everything_local()
    yield
    cache.clear()
    forget_everything_local()


@pytest.fixture(autouse=True)
def site_language():
    """Each test starts in the site's language: a request asking for German leaves German active in its thread
    (as a web process's next request would reset it), and code a test calls directly must not inherit it."""
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)
