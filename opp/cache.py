"""The site's cache: django-redis's Redis cache, degrading to this process's memory while Redis does not answer
(`DegradingRedisCache`).

It is a wrapper, not a subclass: it holds django-redis's `RedisCache` and a `LocMemCache` stand-in and talks to
both through the cache API every backend offers (get, set, add, delete, get_many, ...), so a Django upgrade that
reshapes the Redis backend's insides does not break it. The one thing that API cannot do, finding every key of
this cache's prefix (for `clear()`, which must not flush a database the Celery broker may share), goes through a
redis-py client of its own, built from the same LOCATION with `redis.Redis.from_url`.

Why django-redis and not Django's own Redis backend: Django's builds a `redis.Redis` client for every operation
(over a shared connection pool), about 0.14 ms a `get` on the development machine against 0.05 ms with
django-redis, which keeps its clients; the scoreboard answers a poll with three cache operations
(docs/calendars-and-cache.md has the measurement)."""
from __future__ import annotations

import logging
import re
import socket
import threading
import time

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

logger = logging.getLogger(__name__)

# What a Redis that does not answer raises: the cache then serves from the stand-in. django-redis wraps these
# (and a command's own error, which is not an outage) in ConnectionInterrupted, with the original as its cause.
UNANSWERED = (redis.ConnectionError, redis.TimeoutError, socket.timeout)
# Our OPTIONS (redis-py's names) and django-redis's names for them.
DJANGO_REDIS_OPTIONS = {"socket_connect_timeout": "SOCKET_CONNECT_TIMEOUT", "socket_timeout": "SOCKET_TIMEOUT"}
# The OPTIONS that also fit the scanning client (Django's own, e.g. parser_class, do not).
SCAN_CLIENT_OPTIONS = ("socket_connect_timeout", "socket_timeout", "password", "username", "ssl_cert_reqs")


class DegradingRedisCache(BaseCache):
    """The Redis cache, falling back to a cache in this process's memory while Redis does not answer.

    What the cache holds (throttle counts, scoreboard heads and documents) can be rebuilt, so a Redis
    outage must not turn reads and writes into server errors: each operation that meets a Redis
    connection error is done on the local stand-in instead, with a logged warning. After a failure the
    stand-in is used for `RETRY_AFTER` seconds without asking Redis (no connection attempt per call),
    then Redis is tried again. Throttles then count per web process, as the scoreboard's does anyway.

    What changed while Redis was away never reached it, and Redis may come back with its data: a
    scoreboard head deleted during the outage would be served stale from Redis after it. So the keys
    written or deleted while degraded are remembered and deleted from Redis (`delete_many`) before it is
    used again (more than `MAX_FORGOTTEN` of them, or a `clear()`: every key of this cache's prefix, never
    the rest of the database, which the Celery broker may share), and the stand-in is emptied, so that a
    later outage does not serve what this one kept."""

    RETRY_AFTER = 5.0
    MAX_FORGOTTEN = 10_000

    def __init__(self, server, params):
        super().__init__(params)
        self.servers = [s for s in re.split("[;,]", server) if s] if isinstance(server, str) else list(server)
        options = params.get("OPTIONS", {})
        self.primary = RedisCache(server, {**params, "OPTIONS": {
            DJANGO_REDIS_OPTIONS.get(name, name): value for name, value in options.items()}})
        self.stand_in = LocMemCache(f"degraded-{server}", {
            "TIMEOUT": params.get("TIMEOUT", 300), "KEY_PREFIX": params.get("KEY_PREFIX", ""),
            "VERSION": params.get("VERSION", 1), "KEY_FUNCTION": params.get("KEY_FUNCTION"),
            "OPTIONS": {"MAX_ENTRIES": 10_000}})
        self.scan_options = {name: value for name, value in params.get("OPTIONS", {}).items()
                             if name in SCAN_CLIENT_OPTIONS}
        self.scan_client = None  # built when first needed (a clear() during an outage)
        self.down_until = 0.0  # time.monotonic() until which Redis is not asked
        self._lock = threading.Lock()
        self._resync_lock = threading.Lock()
        self._changed_while_down = set()  # (key, version) to delete from Redis on recovery
        self._forget_everything = False  # too many of them, or a clear(): delete every key of the prefix

    # --- the cache API, each operation through `_run` ---------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(lambda cache: cache.add(key, value, timeout, version=version), [key], version)

    def get(self, key, default=None, version=None):
        return self._run(lambda cache: cache.get(key, default, version=version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(lambda cache: cache.set(key, value, timeout, version=version), [key], version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(lambda cache: cache.touch(key, timeout, version=version), [key], version)

    def delete(self, key, version=None):
        return self._run(lambda cache: cache.delete(key, version=version), [key], version)

    def get_many(self, keys, version=None):
        keys = list(keys)  # read more than once (Redis, then maybe the stand-in)
        return self._run(lambda cache: cache.get_many(keys, version=version))

    def has_key(self, key, version=None):
        return self._run(lambda cache: cache.has_key(key, version=version))

    def incr(self, key, delta=1, version=None):
        return self._run(lambda cache: cache.incr(key, delta, version=version), [key], version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        data = dict(data)
        return self._run(lambda cache: cache.set_many(data, timeout, version=version), list(data), version)

    def delete_many(self, keys, version=None):
        keys = list(keys)
        return self._run(lambda cache: cache.delete_many(keys, version=version), keys, version)

    def clear(self):
        """Every key of this cache's prefix, in Redis and in the stand-in; never Django's FLUSHDB, since the
        Celery broker may share the database."""
        def clear_one(cache):
            if cache is self.primary:
                self._delete_every_key_of_the_prefix()
            else:
                cache.clear()
        self._run(clear_one, everything=True)

    def close(self, **kwargs):
        self.primary.close(**kwargs)
        self.stand_in.close(**kwargs)

    # --- degrading and recovering -----------------------------------------------------------------------

    def _run(self, operation, changed=(), version=None, *, everything=False):
        """`operation(cache)` on Redis, or on the stand-in while Redis does not answer (noting what it
        changes there: `changed` keys of `version`, or `everything`)."""
        if self.down_until > time.monotonic():
            self._note(changed, version, everything)
            return operation(self.stand_in)
        try:
            if self._changed_while_down or self._forget_everything:
                self._resync()
            return operation(self.primary)
        except (*UNANSWERED, ConnectionInterrupted) as error:
            if isinstance(error, ConnectionInterrupted) and not isinstance(error.__cause__, UNANSWERED):
                raise
            self._degrade(error)
            self._note(changed, version, everything)
            return operation(self.stand_in)

    def _note(self, keys, version, everything):
        """Note the keys that an operation done on the stand-in changes."""
        if not keys and not everything:
            return
        version = self.version if version is None else version
        with self._lock:
            if everything:
                self._forget_everything = True
            self._changed_while_down.update((key, version) for key in keys)
            if len(self._changed_while_down) > self.MAX_FORGOTTEN:
                self._forget_everything = True
                self._changed_while_down.clear()

    def _resync(self):
        """Before Redis serves again: delete there what changed here while it was away (raises the
        Redis error if it still does not answer; everything stays noted then)."""
        with self._resync_lock:
            with self._lock:
                noted, everything = set(self._changed_while_down), self._forget_everything
            if not noted and not everything:
                return
            if everything:
                deleted = self._delete_every_key_of_the_prefix()
            else:
                deleted = len(noted)
                by_version = {}
                for key, version in noted:
                    by_version.setdefault(version, []).append(key)
                for version, keys in by_version.items():
                    for start in range(0, len(keys), 1000):
                        self.primary.delete_many(keys[start:start + 1000], version=version)
            with self._lock:
                self._changed_while_down.difference_update(noted)
                if everything:
                    self._forget_everything = False
                self.stand_in.clear()
            logger.warning("the Redis cache answers again; %d key(s) changed meanwhile were deleted from it",
                           deleted)

    def _delete_every_key_of_the_prefix(self):
        """Every key this cache made (its KEY_PREFIX, any version), found by SCAN: never a FLUSHDB, since
        the Celery broker may share the database."""
        if self.scan_client is None:
            self.scan_client = redis.Redis.from_url(self.servers[0], **self.scan_options)
        prefix = re.sub(r"([*?\[\]\\])", r"\\\1", self.key_prefix)  # taken literally by MATCH
        keys = list(self.scan_client.scan_iter(match=f"{prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            self.scan_client.delete(*keys[start:start + 1000])
        return len(keys)

    def _degrade(self, error):
        with self._lock:
            already_down = self.down_until > time.monotonic()
            self.down_until = time.monotonic() + self.RETRY_AFTER
        if not already_down:
            logger.warning("the Redis cache does not answer (%s); using this process's memory for %.0f s",
                           error, self.RETRY_AFTER)
