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


def _dead_redis_url():
    import socket

    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_a_redis_cache_that_does_not_answer_degrades_to_process_memory_with_a_warning(caplog):
    from opp.cache import DegradingRedisCache

    cache = DegradingRedisCache(_dead_redis_url(), {"KEY_PREFIX": "test-cache",
                                                    "OPTIONS": {"socket_connect_timeout": 0.5}})
    with caplog.at_level("WARNING", logger="opp.cache"):
        cache.set("throttle_anon_1", [1.0, 2.0], timeout=60)
        assert cache.get("throttle_anon_1") == [1.0, 2.0]
        assert cache.add("k", 1) and cache.incr("k") == 2
        cache.delete_many(["k"])
        assert cache.get("k", "gone") == "gone"
    warnings = [r for r in caplog.records if "does not answer" in r.getMessage()]
    assert len(warnings) == 1  # once per outage, not once per call


@pytest.mark.redis
def test_the_degrading_cache_uses_redis_again_once_it_answers(redis_url):
    from opp.cache import DegradingRedisCache

    cache = DegradingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"})
    cache._down_until = 0.0
    cache.set("shared", "in redis")
    assert ReusingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"}).get("shared") == "in redis"


def test_the_api_and_the_report_page_answer_while_the_redis_cache_does_not(client, settings, django_user_model):
    """The throttles read the cache on every API call, and an audit entry clears a cached scoreboard: with
    the cache's Redis gone both must keep working (they were server errors)."""
    from django.core.cache import caches

    from tournaments import services
    from tournaments.membership import grant_organizer_role

    settings.CACHES = {"default": {"BACKEND": "opp.cache.DegradingRedisCache", "LOCATION": _dead_redis_url(),
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}
    assert type(caches["default"]).__name__ == "DegradingRedisCache"
    organizer = grant_organizer_role(django_user_model.objects.create_user("org", password="pw"))
    event = services.create_event(name="Dark Cup", slug="dark-cup", actor=organizer)  # audit: clears the cache
    event.published = True
    event.save()
    assert client.get("/api/v1/events/").status_code == 200
    assert client.get("/api/v1/events/dark-cup/scoreboard/").status_code == 200
    client.force_login(organizer)
    assert client.get("/events/dark-cup/").status_code == 200
