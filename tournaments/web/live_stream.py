"""A published event's revision as server-sent events (docs/live-pages.md, "Streams").

Ten thousand pages polling once a second are ten thousand requests a second; ten thousand open
streams cost nothing while nothing changes. The live process (the Procfile's `live:`, opp/asgi.py)
answers `GET /live/events/<slug>/stream/` here, without Django's middleware: it is the hot path.

- The revision is exactly the one the poll endpoint gives an anonymous reader
  (`live.public_event_revision`), so a page can switch between the stream and polling without a
  spurious reload. Only published events have a stream (404 otherwise, as the poll endpoint answers
  an anonymous reader); organizers of an unpublished event poll.
- Changes come from Redis pub/sub: `publish_event_change` is called after every commit that changes
  an event (tournaments/api/signals.py) and sends the slug on `CHANNEL`. Each live process holds ONE
  subscription and, per slug it has watchers for, ONE shared state (the current revision and a set
  of wake-ups), not a queue per watcher: a slow watcher skips to the newest revision, nothing can
  overflow and the latest state is never missed. A burst of messages for a slug is read once.
- Safety net: every `RECHECK_SECONDS` the revisions of all watched slugs are read again, so a
  message lost while Redis restarted is caught; the subscription comes back with a growing pause.
- At most `settings.OPP_LIVE_MAX_STREAMS` streams per process (503 with Retry-After beyond: the page
  polls), and each stream ends after a jittered lifetime, so reconnecting pages spread over the live
  processes again after one is added or restarted.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import re

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from tournaments.web import live

logger = logging.getLogger(__name__)

CHANNEL = "opp:live:events"
PATH = re.compile(r"^/live/events/([-a-zA-Z0-9_]{1,100})/stream/$")
HEARTBEAT_SECONDS = 20.0  # a comment line, so proxies and NAT keep an idle stream open
RECHECK_SECONDS = 10.0  # the safety net against a lost message
RETRY_MILLISECONDS = 3000  # EventSource's pause before it reconnects
LIFETIME_SECONDS = (10 * 60, 20 * 60)  # a stream ends at a random moment in this span
# The page waits a random moment within spread_ms before fetching itself, so the readers of a busy event
# do not all ask for the page in the same second: 2 ms per watcher in this process (1,000 watchers:
# within 2 s; 10,000: within 20 s), at most 20 s.
SPREAD_MS_PER_WATCHER = 2
SPREAD_MS_MAX = 20_000
RESUBSCRIBE_SECONDS = (0.5, 30.0)  # the pause after Redis went away, doubling up to the second
UNKNOWN = object()  # a state whose revision was not read yet


def public_revision(slug):
    """The revision the poll endpoint gives an anonymous reader; None for no such or an unpublished event."""
    close_old_connections()  # a database connection that broke since the last read is replaced
    return live.public_event_revision(slug)


# The publishing side: web processes and workers, after a commit.

_publisher = {}  # REDIS_URL -> redis.Redis (one client and its pool per process)


def publish_event_change(slug):
    """Tell the live processes that `slug` changed. Only where streams are on; a Redis that does not
    answer is logged and never breaks the request (the live processes' recheck catches the change)."""
    if not (settings.OPP_LIVE_STREAM_URL and settings.REDIS_URL):
        return
    try:
        client = _publisher.get(settings.REDIS_URL)
        if client is None:
            client = _publisher[settings.REDIS_URL] = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5)
        client.publish(CHANNEL, slug)
    except redis.RedisError as error:
        logger.warning("Live streams: the change of %s was not published (%s); the streams see it within %g s.",
                       slug, error, RECHECK_SECONDS)


# The live process's side.

class EventState:
    """One event's revision as this process knows it, shared by all its watchers here."""

    def __init__(self):
        self.revision = UNKNOWN
        self.watchers = 0
        self.waiters = set()  # futures of the watchers waiting for the next change
        self.known = asyncio.Event()  # set once the revision was read the first time
        self.reading = False
        self.read_again = False
        self.encoded = (None, b"")  # ((revision, spread_ms), the event's bytes): see message()

    def set(self, revision):
        changed = revision != self.revision
        self.revision = revision
        self.known.set()
        if changed:
            self.wake_all()

    def wake_all(self):
        waiters, self.waiters = self.waiters, set()
        for waiter in waiters:
            _wake(waiter)

    def spread_ms(self):
        return min(SPREAD_MS_MAX, SPREAD_MS_PER_WATCHER * self.watchers)


class Hub:
    """This process's streams: the states by slug, the Redis subscription and the recheck."""

    def __init__(self, redis_url, revision_of=public_revision, max_streams=20000):
        self.redis_url = redis_url
        self.revision_of = sync_to_async(revision_of, thread_sensitive=True)
        self.max_streams = max_streams
        self.states: dict[str, EventState] = {}
        self.streams = 0
        self.tasks = []
        self.reads = set()  # the reads under way (a task nobody holds may be collected mid-way)
        self.subscribed = asyncio.Event()

    def start(self):
        if not self.tasks and self.redis_url:
            self.tasks = [asyncio.create_task(self.listen()), asyncio.create_task(self.recheck()),
                          asyncio.create_task(self.beat())]

    async def stop(self):
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []

    def watch(self, slug):
        state = self.states.get(slug)
        if state is None:
            state = self.states[slug] = EventState()
            self.refresh(slug)
        state.watchers += 1
        self.streams += 1
        return state

    def unwatch(self, slug, state):
        state.watchers -= 1
        self.streams -= 1
        if state.watchers <= 0 and self.states.get(slug) is state:
            del self.states[slug]  # the next watcher reads it afresh

    def refresh(self, slug):
        """Read the slug's revision again, once however many messages come in meanwhile."""
        state = self.states.get(slug)
        if state is None:
            return
        if state.reading:
            state.read_again = True
            return
        state.reading = True
        task = asyncio.create_task(self._read(slug, state))
        self.reads.add(task)
        task.add_done_callback(self.reads.discard)

    async def _read(self, slug, state):
        try:
            while True:
                state.read_again = False
                try:
                    state.set(await self.revision_of(slug))
                except Exception:  # the database or the cache away: keep what the watchers have
                    logger.exception("Live streams: the revision of %s could not be read.", slug)
                    state.known.set()  # connecting watchers of a revision never read get a 503, not a wait
                if not state.read_again:
                    return
        finally:
            state.reading = False

    async def listen(self):
        pause = RESUBSCRIBE_SECONDS[0]
        while True:
            # The health check pings an idle connection, so a Redis that vanished without closing it is noticed.
            client = redis.asyncio.Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=30)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self.subscribed.set()
                    pause = RESUBSCRIBE_SECONDS[0]
                    for slug in list(self.states):  # what changed while the subscription was away
                        self.refresh(slug)
                    while True:
                        message = await pubsub.get_message(timeout=HEARTBEAT_SECONDS)
                        if message and message["type"] == "message":
                            self.refresh(message["data"].decode())
            except asyncio.CancelledError:
                raise
            except Exception as error:  # whatever broke it, the subscription must come back
                self.subscribed.clear()
                logger.warning("Live streams: the Redis subscription broke (%s); again in %g s.", error, pause)
                await asyncio.sleep(pause)
                pause = min(RESUBSCRIBE_SECONDS[1], pause * 2)
            finally:
                await client.aclose()

    async def beat(self):
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            for state in list(self.states.values()):
                state.wake_all()  # the streams with nothing new send a comment

    async def recheck(self):
        while True:
            await asyncio.sleep(RECHECK_SECONDS)
            for slug in list(self.states):
                self.refresh(slug)


_hubs = {}  # the running loop -> its Hub (one per process in production; tests run several loops)


def hub():
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for other in [other for other in _hubs if other.is_closed()]:
            del _hubs[other]
        found = _hubs[loop] = Hub(settings.REDIS_URL, max_streams=settings.OPP_LIVE_MAX_STREAMS)
        found.start()
    return found


def stream_slug(path):
    """The event's slug when `path` is a stream's, else None."""
    found = PATH.match(path)
    return found.group(1) if found else None


def message(revision, state):
    """The event for `revision`, encoded once for all the watchers that get it with the same spread."""
    key = (revision, state.spread_ms())
    if state.encoded[0] != key:
        data = json.dumps({"revision": revision, "poll_ms": live.POLL_MILLISECONDS, "spread_ms": key[1]})
        state.encoded = (key, f"id: {revision}\ndata: {data}\n\n".encode())
    return state.encoded[1]


COMMON_HEADERS = [(b"cache-control", b"no-cache"), (b"access-control-allow-origin", b"*")]


async def answer_json(send, status, detail, extra=()):
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *COMMON_HEADERS, *extra]})
    await send({"type": "http.response.body", "body": body})


def last_event_id(scope):
    for name, value in scope.get("headers", ()):
        if name == b"last-event-id":
            return value.decode("latin-1").strip()
    return None


async def stream(scope, receive, send, slug, the_hub=None):
    """The ASGI answer to GET /live/events/<slug>/stream/."""
    the_hub = the_hub or hub()
    if not the_hub.redis_url:
        # Without Redis this process never hears of a change (nor does its own cache): the page polls.
        await answer_json(send, 503, "Streams need Redis (REDIS_URL); poll /live/events/<slug>/ instead.",
                          [(b"retry-after", b"3600")])
        return
    if the_hub.streams >= the_hub.max_streams:
        # Plain words, not translated: the page never shows them, it polls instead.
        await answer_json(send, 503, "Too many streams here; poll /live/events/<slug>/ instead.",
                          [(b"retry-after", b"30")])
        return
    state = the_hub.watch(slug)
    gone = asyncio.get_running_loop().create_future()
    listener = asyncio.create_task(_wait_for_disconnect(receive, gone))
    try:
        await state.known.wait()
        if state.revision is UNKNOWN:
            await answer_json(send, 503, "The event's revision cannot be read now.", [(b"retry-after", b"5")])
            return
        if state.revision is None:
            await answer_json(send, 404, "No such event.")
            return
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"), *COMMON_HEADERS,
            (b"x-accel-buffering", b"no")]})  # nginx: pass each message at once
        sent = last_event_id(scope)
        await send({"type": "http.response.body", "body": f"retry: {RETRY_MILLISECONDS}\n\n".encode(),
                    "more_body": True})
        await _follow(state, send, sent, gone)
        await send({"type": "http.response.body", "body": b""})
    except OSError:  # the reader went away while we wrote (uvicorn's ClientDisconnected)
        pass
    finally:
        listener.cancel()
        the_hub.unwatch(slug, state)


async def _follow(state, send, sent, gone):
    loop = asyncio.get_running_loop()
    ends = loop.time() + random.uniform(*LIFETIME_SECONDS)
    waiting = [None]  # the wake-up being waited for; the reader leaving resolves it too
    gone.add_done_callback(lambda _: _wake(waiting[0]))
    while not gone.done():
        revision = state.revision
        if revision is None:
            return  # unpublished or deleted: the page's reconnect gets 404 and it polls, which stops
        if revision is not UNKNOWN and revision != sent:
            await send({"type": "http.response.body", "body": message(revision, state), "more_body": True})
            sent = revision
            continue  # it may have changed again while this was written
        if loop.time() >= ends:
            return
        # Woken by a change, by the hub's heartbeat (every HEARTBEAT_SECONDS, for all streams at once: no
        # timer per stream) or by the reader leaving. The lifetime is looked at then, so it ends within a beat.
        wake = waiting[0] = loop.create_future()
        state.waiters.add(wake)
        try:
            await wake
        finally:
            state.waiters.discard(wake)
            waiting[0] = None
        if not gone.done() and state.revision == sent and loop.time() < ends:
            await send({"type": "http.response.body", "body": b": heartbeat\n\n", "more_body": True})


def _wake(future):
    if future is not None and not future.done():
        future.set_result(None)


async def _wait_for_disconnect(receive, gone):
    try:
        while (await receive())["type"] != "http.disconnect":
            pass
    finally:
        if not gone.done():
            gone.set_result(None)
