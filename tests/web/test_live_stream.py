"""The event streams of the live process (tournaments/web/live_stream.py, opp/asgi.py): the shared
per-event state, the ASGI answer called directly with fake receive/send, a change published through
Redis reaching an open stream, the page's attribute, and one uvicorn process end to end."""
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.template import Context, Template
from django.test import RequestFactory

from tests.conftest import free_port
from tests.deploy.procfile import ROOT, run_command
from tests.web.conftest import grouped_event
from tournaments.models import Event
from tournaments.results import recording
from tournaments.web import live, live_stream


def run(coroutine, timeout=10):
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


class Reader:
    """A fake stream reader: what the server sent, and a disconnect on demand."""

    def __init__(self, headers=()):
        self.scope = {"type": "http", "method": "GET", "path": "/live/events/quay/stream/",
                      "headers": list(headers)}
        self.sent = []
        self.received = asyncio.Event()
        self.leave = asyncio.Event()
        self.requested = False

    async def receive(self):
        if not self.requested:
            self.requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        self.sent.append(message)
        self.received.set()

    @property
    def status(self):
        return self.sent[0]["status"] if self.sent else None

    @property
    def headers(self):
        return dict(self.sent[0]["headers"])

    def events(self):
        """The revisions the stream carried, each with its data."""
        text = b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body").decode()
        found = []
        for block in text.split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
            if "id" in lines:
                found.append((lines["id"], json.loads(lines["data"])))
        return found

    async def wait_for(self, condition, timeout=5):
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition():
            self.received.clear()
            remaining = deadline - asyncio.get_running_loop().time()
            assert remaining > 0, f"not seen in {timeout} s; sent: {self.sent}"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.received.wait(), remaining)


class Revisions(dict):
    """The revision source of a hub under test: slug -> revision, counting the reads."""

    reads = 0

    def __call__(self, slug):
        self.reads += 1
        time.sleep(0.01)  # a read takes a moment, so messages can pile up meanwhile
        return self.get(slug)


def test_a_slow_watcher_gets_the_latest_revision_and_a_burst_is_read_once():
    async def scenario():
        revisions = Revisions(quay="r1")
        hub = live_stream.Hub("redis://unused", revision_of=revisions)
        state = hub.watch("quay")
        await state.known.wait()
        assert state.revision == "r1"
        waiter = asyncio.get_running_loop().create_future()
        state.waiters.add(waiter)
        reads_before = revisions.reads
        for revision in ("r2", "r3", "r4"):  # a burst of changes while a read is under way
            revisions["quay"] = revision
            hub.refresh("quay")
        while state.reading:
            await asyncio.sleep(0.01)
        # The watcher that slept through the burst wakes to the newest state, not to r2.
        assert waiter.done() and state.revision == "r4"
        assert revisions.reads - reads_before <= 2  # one read under way, one more for all the rest
        hub.unwatch("quay", state)
        assert "quay" not in hub.states

    run(scenario())


def test_the_stream_sends_the_revision_at_once_then_each_change_and_cleans_up_on_leaving():
    async def scenario():
        revisions = Revisions(quay="r1")
        hub = live_stream.Hub("redis://unused", revision_of=revisions)
        reader = Reader()
        task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
        await reader.wait_for(lambda: reader.events())
        assert reader.status == 200
        assert reader.headers[b"content-type"].startswith(b"text/event-stream")
        assert reader.headers[b"access-control-allow-origin"] == b"*"
        body = b"".join(m.get("body", b"") for m in reader.sent[1:])
        assert body.startswith(b"retry: ")
        revision, data = reader.events()[0]
        assert revision == "r1" and data == {"revision": "r1", "poll_ms": 1000, "spread_ms": 2}
        assert hub.streams == 1

        revisions["quay"] = "r2"
        hub.refresh("quay")
        await reader.wait_for(lambda: len(reader.events()) == 2)
        assert reader.events()[-1][0] == "r2"

        reader.leave.set()
        await asyncio.wait_for(task, 2)
        assert hub.streams == 0 and hub.states == {}

    run(scenario())


def test_an_idle_stream_gets_a_heartbeat_and_ends_after_its_lifetime(monkeypatch):
    monkeypatch.setattr(live_stream, "LIFETIME_SECONDS", (0.3, 0.3))

    async def scenario():
        hub = live_stream.Hub("redis://unused", revision_of=Revisions(quay="r1"))
        reader = Reader()
        task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
        await reader.wait_for(lambda: reader.events())
        hub.states["quay"].wake_all()  # what the hub's beat does every HEARTBEAT_SECONDS
        await reader.wait_for(lambda: reader.sent[-1].get("body") == b": heartbeat\n\n")
        await asyncio.sleep(0.35)
        hub.states["quay"].wake_all()  # the next beat after the lifetime: the stream ends, the page reconnects
        await asyncio.wait_for(task, 1)
        assert reader.sent[-1] == {"type": "http.response.body", "body": b""}
        assert hub.streams == 0

    run(scenario())


def test_a_reconnecting_page_that_has_the_current_revision_gets_no_message_until_a_change():
    async def scenario():
        revisions = Revisions(quay="r1")
        hub = live_stream.Hub("redis://unused", revision_of=revisions)
        reader = Reader(headers=[(b"last-event-id", b"r1")])
        task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
        await reader.wait_for(lambda: len(reader.sent) >= 2)  # the head and the retry: line
        await asyncio.sleep(0.05)
        assert reader.status == 200 and reader.events() == []
        revisions["quay"] = "r2"
        hub.refresh("quay")
        await reader.wait_for(lambda: reader.events())
        assert [revision for revision, _ in reader.events()] == ["r2"]
        reader.leave.set()
        await task

    run(scenario())


def test_an_unknown_or_unpublished_event_has_no_stream_and_a_full_or_redisless_process_says_503():
    async def scenario():
        hub = live_stream.Hub("redis://unused", revision_of=Revisions(quay=None), max_streams=1)
        reader = Reader()
        await live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub)
        assert reader.status == 404 and json.loads(reader.sent[1]["body"]) == {"detail": "No such event."}
        assert hub.streams == 0

        hub = live_stream.Hub("", revision_of=Revisions(quay="r1"))
        reader = Reader()
        await live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub)
        assert reader.status == 503  # without Redis no change would ever reach the stream: the page polls

        hub = live_stream.Hub("redis://unused", revision_of=Revisions(quay="r1"), max_streams=1)
        first, second = Reader(), Reader()
        task = asyncio.create_task(live_stream.stream(first.scope, first.receive, first.send, "quay", hub))
        await first.wait_for(lambda: first.events())
        await live_stream.stream(second.scope, second.receive, second.send, "quay", hub)
        assert second.status == 503 and second.headers[b"retry-after"] == b"30"
        assert second.headers[b"access-control-allow-origin"] == b"*"  # the page's script may read the refusal
        first.leave.set()
        await task

    run(scenario())


@pytest.fixture
def event(organizer):
    return grouped_event(organizer, name="Quay Open", slug="quay", seed=7)


@pytest.fixture
def close_read_connections():
    """The hub reads revisions in asgiref's one thread: its database connection is closed there afterwards."""
    yield
    asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


@pytest.mark.django_db(transaction=True)
def test_the_stream_carries_the_poll_endpoints_revision_and_nothing_for_an_unpublished_event(
        client, event, close_read_connections):
    polled = client.get("/live/events/quay/").json()["revision"]
    assert live_stream.public_revision("quay") == polled

    async def first_event():
        reader = Reader()
        hub = live_stream.Hub("redis://unused")
        task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
        await reader.wait_for(lambda: reader.events() or reader.status == 404)
        reader.leave.set()
        await task
        return reader

    assert run(first_event()).events()[0][0] == polled
    event.published = False
    event.save()
    assert run(first_event()).status == 404


@pytest.mark.redis
def test_a_change_published_through_redis_reaches_an_open_stream(redis_url, settings):
    settings.REDIS_URL = redis_url
    settings.OPP_LIVE_STREAM_URL = "/"

    async def scenario():
        revisions = Revisions(quay="r1")
        hub = live_stream.Hub(redis_url, revision_of=revisions)
        hub.start()
        try:
            await asyncio.wait_for(hub.subscribed.wait(), 5)
            reader = Reader()
            task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
            await reader.wait_for(lambda: reader.events())
            revisions["quay"] = "r2"
            await asyncio.to_thread(live_stream.publish_event_change, "quay")  # as the web process does
            await reader.wait_for(lambda: len(reader.events()) == 2, timeout=3)  # well before the 10 s recheck
            assert reader.events()[-1][0] == "r2"
            reader.leave.set()
            await task
        finally:
            await hub.stop()

    run(scenario())


@pytest.mark.redis
def test_a_change_whose_message_was_lost_reaches_the_stream_at_the_next_recheck(redis_url, monkeypatch):
    monkeypatch.setattr(live_stream, "RECHECK_SECONDS", 0.2)

    async def scenario():
        revisions = Revisions(quay="r1")
        hub = live_stream.Hub(redis_url, revision_of=revisions)
        hub.start()
        try:
            reader = Reader()
            task = asyncio.create_task(live_stream.stream(reader.scope, reader.receive, reader.send, "quay", hub))
            await reader.wait_for(lambda: reader.events())
            revisions["quay"] = "r2"  # changed, and nothing published (Redis was restarting)
            await reader.wait_for(lambda: len(reader.events()) == 2, timeout=2)
            reader.leave.set()
            await task
        finally:
            await hub.stop()

    run(scenario())


def test_a_publish_that_finds_no_redis_is_logged_and_the_request_goes_on(settings, caplog):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # a port where nothing listens
    settings.OPP_LIVE_STREAM_URL = "/"
    live_stream.publish_event_change("quay")
    assert "was not published" in caplog.text


RENDER = Template('{% load live %}<div{% live_page "event" "quay" %}></div>')


@pytest.mark.django_db
def test_public_pages_of_a_published_event_name_the_stream_only_when_streams_are_on(client, event, organizer,
                                                                                   settings):
    def attribute(user=None):
        request = RequestFactory().get("/events/quay/")
        from django.contrib.auth.models import AnonymousUser
        request.user = user or AnonymousUser()
        html = RENDER.render(Context({"request": request}))
        return html.split('data-live-stream="')[1].split('"')[0] if "data-live-stream" in html else None

    assert attribute() is None  # the default: pages poll
    settings.OPP_LIVE_STREAM_URL = "/"
    assert attribute() == "/live/events/quay/stream/"
    settings.OPP_LIVE_STREAM_URL = "https://live.example.org"
    assert attribute() == "https://live.example.org/live/events/quay/stream/"
    page = client.get("/events/quay/screen/").content.decode()
    assert 'data-live-stream="https://live.example.org/live/events/quay/stream/"' in page
    assert "data-live-stream" not in client.get(f"/battles/{event.battles.first().pk}/").content.decode()

    Event.objects.filter(pk=event.pk).update(published=False)
    Event.objects.get(pk=event.pk).save()  # drops the cached head
    assert attribute(organizer) is None  # its organizer polls: there is no public stream


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_live_process_streams_a_recorded_result_end_to_end(require_postgres, redis_url, event, organizer,
                                                              settings):
    """scripts/run live, as production starts it: connect, record a result here, the event arrives."""
    settings.CACHES = {"default": {"BACKEND": "opp.cache.DegradingRedisCache", "LOCATION": redis_url,
                                   "KEY_PREFIX": "opp"}}  # the live process's cache, as in production
    settings.REDIS_URL = redis_url
    settings.OPP_LIVE_STREAM_URL = "/"
    database = connection.settings_dict
    port = free_port()
    env = dict(os.environ, PORT=str(port), OPP_BIND="127.0.0.1", REDIS_URL=redis_url, OPP_LIVE_STREAM_URL="/",
               DEBUG="true", LOG_LEVEL="WARNING",
               DATABASE_URL=f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}")
    server = subprocess.Popen(run_command("live"), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 8
        while True:
            try:
                connection_ = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, server.stdout.read1().decode()
                time.sleep(0.1)
        with connection_:
            connection_.settimeout(5)
            connection_.sendall(b"GET /live/events/quay/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            seen = b""
            while b"id: " not in seen:
                seen += connection_.recv(4096)
            assert seen.startswith(b"HTTP/1.1 200") and b"text/event-stream" in seen
            before = live.public_event_revision("quay")
            assert f"id: {before}".encode() in seen
            time.sleep(0.3)  # the process's subscription is made when its first stream opens
            battle = event.battles.select_related("general_a").order_by("pk").first()
            recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle",
                                    actor=organizer)
            after = live.public_event_revision("quay")
            assert after != before
            while f"id: {after}".encode() not in seen:
                seen += connection_.recv(4096)
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("environment, sentence", [
    ({"OPP_LIVE_STREAM_URL": "/"}, "OPP_LIVE_STREAM_URL needs REDIS_URL"),
    ({"OPP_LIVE_STREAM_URL": "live.example.org", "REDIS_URL": "redis://127.0.0.1:6379/0"},
     "OPP_LIVE_STREAM_URL must be / or an origin like https://live.example.org, not 'live.example.org'"),
])
def test_a_site_with_streams_but_no_redis_or_no_origin_refuses_to_start_and_says_why(environment, sentence):
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "OPP_LIVE_STREAM_URL")}
    env.update(environment, DJANGO_SETTINGS_MODULE="opp.settings", DEBUG="true")
    answer = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", "import django; django.setup()"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert answer.returncode != 0 and sentence in answer.stderr


def test_a_stream_origin_is_allowed_by_the_pages_content_security_policy():
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "OPP_LIVE_STREAM_URL")}
    env.update(DJANGO_SETTINGS_MODULE="opp.settings", DEBUG="true", REDIS_URL="redis://127.0.0.1:6379/0",
               OPP_LIVE_STREAM_URL="https://live.example.org/")
    script = ("import django; django.setup(); from django.conf import settings; "
              "print(settings.OPP_LIVE_STREAM_URL, settings.CONTENT_SECURITY_POLICY['DIRECTIVES']['connect-src'])")
    answer = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", script], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert answer.stdout.strip().splitlines()[-1] == "https://live.example.org [\"'self'\", 'https://live.example.org']"
