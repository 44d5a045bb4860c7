"""The Redis cache backend keeps one client per connection pool and behaves as Django's."""
import pytest

from opp.cache import ReusingRedisCache


@pytest.mark.redis
def test_the_redis_cache_stores_and_reuses_its_client(redis_url):
    cache = ReusingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"})
    cache.set("scoreboard-head:x", {"revision": 7}, timeout=30)
    assert cache.get("scoreboard-head:x") == {"revision": 7}
    cache.delete("scoreboard-head:x")
    assert cache.get("scoreboard-head:x") is None
    client = cache._cache
    assert client.get_client(write=True) is client.get_client(write=True)
