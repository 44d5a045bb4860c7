"""Django's Redis cache, keeping one Redis client per connection pool and degrading to this process's
memory while Redis does not answer (`DegradingRedisCache`).

Django's backend builds a new `redis.Redis` client for every cache operation; each build copies the
client's response-callback table, which costs more than the cache round trip itself on hot paths
(the scoreboard answers a poll with three cache operations). The clients share the backend's
thread-safe connection pools, so reusing them changes nothing else."""
import logging
import threading
import time

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class ReusingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient


class DegradingRedisCache(ReusingRedisCache):
    """The Redis cache, falling back to a cache in this process's memory while Redis does not answer.

    What the cache holds (throttle counts, scoreboard heads and documents) can be rebuilt, so a Redis
    outage must not turn reads and writes into server errors: each operation that meets a Redis
    connection error is done on the local cache instead, with a logged warning. After a failure the
    local cache is used for `RETRY_AFTER` seconds without asking Redis (no connection attempt per call),
    then Redis is tried again. Throttles then count per web process, as the scoreboard's does anyway.

    What changed while Redis was away never reached it, and Redis may come back with its data: a
    scoreboard head deleted during the outage would be served stale from Redis after it. So the keys
    written or deleted while degraded are remembered and deleted from Redis before it is used again
    (more than `MAX_FORGOTTEN` of them, or a `clear()`: every key of this cache's prefix, never the rest
    of the database, which the Celery broker may share), and the local stand-in is emptied, so that a
    later outage does not serve what this one kept."""

    RETRY_AFTER = 5.0
    MAX_FORGOTTEN = 10_000

    def __init__(self, server, params):
        super().__init__(server, params)
        self._local = LocMemCache(f"degraded-{server}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._resync_lock = threading.Lock()
        self._changed_while_down = set()  # Redis keys (made, with prefix and version) to delete on recovery
        self._forget_everything = False  # too many of them, or a clear(): delete every key of the prefix

    def _changed_locally(self, name, args, kwargs):
        """Note the keys that an operation done on the local stand-in changes."""
        if name in ("get", "get_many", "has_key"):
            return
        if name == "clear":
            keys = ()
            self._forget_everything = True
        elif name == "set_many":
            keys = list((args[0] if args else kwargs["data"]).keys())
        elif name == "delete_many":
            keys = list(args[0] if args else kwargs["keys"])
        else:
            keys = [args[0] if args else kwargs["key"]]
        version = kwargs.get("version")
        with self._lock:
            self._changed_while_down.update(self.make_key(key, version=version) for key in keys)
            if len(self._changed_while_down) > self.MAX_FORGOTTEN:
                self._forget_everything = True
                self._changed_while_down.clear()

    def _resync(self):
        """Before Redis serves again: delete there what changed here while it was away (raises the
        Redis error if it still does not answer; everything stays noted then)."""
        with self._resync_lock:
            with self._lock:
                noted, everything = list(self._changed_while_down), self._forget_everything
            if not noted and not everything:
                return
            keys = noted
            if everything:
                client = self._cache.get_client(write=True)
                keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
            for start in range(0, len(keys), 1000):
                self._cache.delete_many(keys[start:start + 1000])
            with self._lock:
                self._changed_while_down.difference_update(noted)
                if everything:
                    self._forget_everything = False
                self._local.clear()
            logger.warning("the Redis cache answers again; %d key(s) changed meanwhile were deleted from it",
                           len(keys))

    def _degrade(self, error):
        with self._lock:
            already_down = self._down_until > time.monotonic()
            self._down_until = time.monotonic() + self.RETRY_AFTER
        if not already_down:
            logger.warning("the Redis cache does not answer (%s); using this process's memory for %.0f s",
                           error, self.RETRY_AFTER)


def _degrading(name):
    redis_operation = getattr(ReusingRedisCache, name)

    def operation(self, *args, **kwargs):
        if name in ("get_many", "delete_many") and args:
            args = (list(args[0]), *args[1:])  # read more than once (noted, then Redis or the stand-in)
        if self._down_until > time.monotonic():
            self._changed_locally(name, args, kwargs)
            return getattr(self._local, name)(*args, **kwargs)
        try:
            if self._changed_while_down or self._forget_everything:
                self._resync()
            return redis_operation(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            self._degrade(error)
            self._changed_locally(name, args, kwargs)
            return getattr(self._local, name)(*args, **kwargs)

    operation.__name__ = name
    return operation


for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many",
              "delete_many", "clear"):
    setattr(DegradingRedisCache, _name, _degrading(_name))
