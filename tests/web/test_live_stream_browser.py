"""A public event page in real headless Chromium follows the event's stream from a live process
(scripts/run live, another origin) instead of polling, and falls back to polling when the stream
cannot be had."""
import copy
import os
import socket
import subprocess
import time

import pytest
from django.db import connection

from tests.conftest import free_port
from tests.deploy.procfile import ROOT, run_command
from tests.web.conftest import grouped_event
from tournaments.results import recording

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
WAIT_MS = 15_000


@pytest.fixture
def streams_on(require_postgres, redis_url, settings):
    """A live process on its own origin, sharing the cache and Redis with the test's web server."""
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    settings.CACHES = {"default": {"BACKEND": "opp.cache.DegradingRedisCache", "LOCATION": redis_url,
                                   "KEY_PREFIX": "opp"}}
    settings.REDIS_URL = redis_url
    settings.OPP_LIVE_STREAM_URL = origin
    policy = copy.deepcopy(settings.CONTENT_SECURITY_POLICY)
    policy["DIRECTIVES"]["connect-src"].append(origin)  # as opp/settings.py does for an origin
    settings.CONTENT_SECURITY_POLICY = policy
    database = connection.settings_dict
    env = dict(os.environ, PORT=str(port), OPP_BIND="127.0.0.1", REDIS_URL=redis_url, OPP_LIVE_STREAM_URL=origin,
               DEBUG="true", LOG_LEVEL="WARNING",
               DATABASE_URL=f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}")
    server = subprocess.Popen(run_command("live"), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "the live process did not start"
            time.sleep(0.1)
    yield server
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture
def event(organizer):
    return grouped_event(organizer, name="Harbour Open", slug="harbour-open", seed=11)


def test_a_public_page_follows_the_stream_without_polling_and_polls_when_it_is_gone(
        streams_on, live_server, browser, event, organizer):
    battles = list(event.battles.select_related("general_a").order_by("group__index", "number"))
    page = browser.new_context().new_page()
    polls, streams = [], []
    page.on("request", lambda request: polls.append(request.url) if request.url.endswith("/live/events/harbour-open/")
            else streams.append(request.url) if request.url.endswith("/stream/") else None)
    page.goto(f"{live_server.url}/events/harbour-open/")
    page.evaluate("window.notReloaded = true")
    row = page.locator("table.standings tr", has_text=battles[0].general_a.name).first
    assert row.locator("td strong").inner_text() == "0"

    recording.record_result(battles[0], kind="victory", winner=battles[0].general_a, condition="shackle",
                            actor=organizer)
    row.locator("td strong", has_text="5").wait_for(timeout=WAIT_MS)
    assert page.evaluate("window.notReloaded") is True
    assert streams and polls == []  # the change came through the stream, nothing polled

    # The live process goes away: after the browser's retries the page polls, and still updates.
    streams_on.terminate()
    streams_on.wait(timeout=10)
    page.wait_for_timeout(12_000)  # three retries, 3 s apart
    recording.record_result(battles[1], kind="victory", winner=battles[1].general_a, condition="shackle",
                            actor=organizer)
    page.locator("table.standings tr", has_text=battles[1].general_a.name).first.locator(
        "td strong", has_text="5").wait_for(timeout=WAIT_MS)
    assert polls, "the page did not fall back to polling"
    assert page.evaluate("window.notReloaded") is True
