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
    then Redis is tried again. Throttles then count per web process, as the scoreboard's does anyway."""

    RETRY_AFTER = 5.0

    def __init__(self, server, params):
        super().__init__(server, params)
        self._local = LocMemCache(f"degraded-{server}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = 0.0
        self._lock = threading.Lock()

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
        if self._down_until > time.monotonic():
            return getattr(self._local, name)(*args, **kwargs)
        try:
            return redis_operation(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            self._degrade(error)
            return getattr(self._local, name)(*args, **kwargs)

    operation.__name__ = name
    return operation


for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many",
              "delete_many", "clear"):
    setattr(DegradingRedisCache, _name, _degrading(_name))
