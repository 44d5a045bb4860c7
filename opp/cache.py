"""Django's Redis cache, keeping one Redis client per connection pool.

Django's backend builds a new `redis.Redis` client for every cache operation; each build copies the
client's response-callback table, which costs more than the cache round trip itself on hot paths
(the scoreboard answers a poll with three cache operations). The clients share the backend's
thread-safe connection pools, so reusing them changes nothing else."""
from django.core.cache.backends.redis import RedisCache, RedisCacheClient


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
