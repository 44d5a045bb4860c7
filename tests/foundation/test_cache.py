"""The cache: Django's Redis cache behind a wrapper that uses public APIs only, degrading to process memory
while Redis does not answer."""
import ast
from pathlib import Path

import pytest
from django.core.cache.backends.base import BaseCache
from django_redis.cache import RedisCache

from opp.cache import DegradingRedisCache


@pytest.mark.redis
def test_the_cache_stores_in_redis_as_djangos_redis_cache_does(redis_url):
    cache = DegradingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"})
    cache.set("scoreboard-head:x", {"revision": 7}, timeout=30)
    assert cache.get("scoreboard-head:x") == {"revision": 7}
    assert RedisCache(redis_url, {"KEY_PREFIX": "test-cache"}).get("scoreboard-head:x") == {"revision": 7}
    assert cache.add("throttle", 1) and not cache.add("throttle", 5) and cache.incr("throttle", 2) == 3
    assert cache.get_many(["throttle", "scoreboard-head:x", "none"]) == {"throttle": 3,
                                                                        "scoreboard-head:x": {"revision": 7}}
    cache.delete("scoreboard-head:x")
    assert cache.get("scoreboard-head:x") is None and cache.has_key("throttle")


@pytest.mark.redis
def test_clear_deletes_this_caches_keys_and_never_the_brokers(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    client.set("celery", b"a queued job")
    cache = DegradingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"})
    cache.set_many({"a": 1, "b": 2})
    other = DegradingRedisCache(redis_url, {"KEY_PREFIX": "other-site"})
    other.set("a", "theirs")
    cache.clear()
    assert cache.get_many(["a", "b"]) == {} and other.get("a") == "theirs"
    assert client.get("celery") == b"a queued job"


def test_the_cache_uses_no_private_name_of_django_or_redis():
    """A Django upgrade may change the Redis backend's private methods: the wrapper reaches only public
    ones (its own underscored attributes, on self, are its business)."""
    tree = ast.parse(Path(__file__).resolve().parents[2].joinpath("opp", "cache.py").read_text())
    foreign = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and node.attr.startswith("_") and not node.attr.endswith("__")  # super().__init__ is public
               and not (isinstance(node.value, ast.Name) and node.value.id == "self")]
    assert foreign == []
    assert issubclass(DegradingRedisCache, BaseCache) and not issubclass(DegradingRedisCache, RedisCache)


def _dead_redis_url():
    import socket

    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_a_redis_cache_that_does_not_answer_degrades_to_process_memory_with_a_warning(caplog):
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
    cache = DegradingRedisCache(redis_url, {"KEY_PREFIX": "test-cache"})
    cache.down_until = float("inf")  # degraded: the stand-in answers
    cache.set("shared", "in memory")
    assert RedisCache(redis_url, {"KEY_PREFIX": "test-cache"}).get("shared") is None
    cache.down_until = 0.0  # RETRY_AFTER has passed
    cache.set("shared", "in redis")
    assert RedisCache(redis_url, {"KEY_PREFIX": "test-cache"}).get("shared") == "in redis"


def test_the_api_and_the_report_page_answer_while_the_redis_cache_does_not(client, settings, django_user_model):
    """The throttles read the cache on every API call, and an audit entry clears a cached scoreboard: with
    the cache's Redis gone both must keep working (they were server errors)."""
    from django.core.cache import caches

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role

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


class FakeRedis:
    """A Redis database on a dict, with a switch to make it stop answering; what it holds survives an outage,
    as a Redis restarted with its data does. `cache()` is Django's cache API over it (what the wrapper's
    primary offers), the object itself the few redis-py commands of the wrapper's scanning client."""

    def __init__(self):
        self.data, self.up = {}, True

    def answer(self):
        if not self.up:
            import redis

            raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    def delete(self, *keys):
        self.answer()
        return sum(self.data.pop(key, None) is not None for key in keys)

    def scan_iter(self, match, count=None):
        import fnmatch

        self.answer()
        return [key for key in list(self.data) if fnmatch.fnmatchcase(key, match)]

    def cache(self, prefix):
        return FakeRedisCache(self, prefix)


class FakeRedisCache(BaseCache):
    def __init__(self, redis, prefix):
        super().__init__({"KEY_PREFIX": prefix})
        self.redis = redis

    def _key(self, key, version):
        self.redis.answer()
        return self.make_key(key, version=version)

    def add(self, key, value, timeout=None, version=None):
        made = self._key(key, version)
        if made in self.redis.data:
            return False
        self.redis.data[made] = value
        return True

    def get(self, key, default=None, version=None):
        return self.redis.data.get(self._key(key, version), default)

    def set(self, key, value, timeout=None, version=None):
        self.redis.data[self._key(key, version)] = value

    def delete(self, key, version=None):
        return self.redis.data.pop(self._key(key, version), None) is not None

    def delete_many(self, keys, version=None):
        for key in keys:
            self.delete(key, version=version)

    def has_key(self, key, version=None):
        return self._key(key, version) in self.redis.data

    def clear(self):
        raise AssertionError("the wrapper never flushes the database")


def _cache_over(fake):
    cache = DegradingRedisCache("redis://127.0.0.1:1/0", {"KEY_PREFIX": "opp"})
    cache.primary, cache.scan_client = fake.cache("opp"), fake
    return cache


def _redis_answers_again(cache, fake):
    fake.up = True
    cache.down_until = 0.0  # RETRY_AFTER has passed


def test_a_scoreboard_head_deleted_during_an_outage_is_not_served_stale_afterwards():
    fake = FakeRedis()
    cache = _cache_over(fake)
    cache.set("scoreboard-head:cup", {"revision": 1}, timeout=3600)
    fake.up = False
    cache.delete("scoreboard-head:cup")  # a result comes in while Redis is away
    assert cache.get("scoreboard-head:cup") is None
    cache.set("throttle_anon_1", [1.0], timeout=60)
    _redis_answers_again(cache, fake)  # ... and Redis comes back with the head it had
    assert cache.get("scoreboard-head:cup") is None  # not revision 1
    assert "opp:1:scoreboard-head:cup" not in fake.data and "opp:1:throttle_anon_1" not in fake.data
    cache.set("scoreboard-head:cup", {"revision": 2}, timeout=3600)
    assert cache.get("scoreboard-head:cup") == {"revision": 2}


def test_a_second_outage_does_not_serve_what_the_first_one_kept():
    fake = FakeRedis()
    cache = _cache_over(fake)
    fake.up = False
    cache.set("scoreboard-head:cup", {"revision": 1}, timeout=3600)
    _redis_answers_again(cache, fake)
    cache.set("scoreboard-head:cup", {"revision": 2}, timeout=3600)
    fake.up = False
    cache.down_until = 0.0
    assert cache.get("scoreboard-head:cup") is None  # not the revision 1 of the first outage


def test_a_recovery_that_fails_keeps_what_it_must_delete():
    fake = FakeRedis()
    cache = _cache_over(fake)
    cache.set("scoreboard-head:cup", {"revision": 1}, timeout=3600)
    fake.up = False
    cache.delete("scoreboard-head:cup")
    cache.down_until = 0.0  # Redis is tried again and still does not answer
    assert cache.get("scoreboard-head:cup") is None
    _redis_answers_again(cache, fake)
    assert cache.get("scoreboard-head:cup") is None


def test_a_clear_or_too_many_changes_during_an_outage_delete_this_caches_keys_only(monkeypatch):
    fake = FakeRedis()
    cache = _cache_over(fake)
    cache.set("scoreboard-head:cup", {"revision": 1}, timeout=3600)
    fake.data["celery"] = b"a queued job"  # the broker may share the database: never flushed
    monkeypatch.setattr(DegradingRedisCache, "MAX_FORGOTTEN", 3)
    fake.up = False
    for number in range(5):
        cache.set(f"throttle_anon_{number}", [1.0], timeout=60)
    _redis_answers_again(cache, fake)
    assert cache.get("scoreboard-head:cup") is None
    assert fake.data == {"celery": b"a queued job"}
    cache.set("scoreboard-head:cup", {"revision": 2}, timeout=3600)
    fake.up = False
    cache.clear()
    _redis_answers_again(cache, fake)
    assert cache.get("scoreboard-head:cup") is None and fake.data == {"celery": b"a queued job"}


def test_the_report_form_saves_a_replay_while_the_redis_cache_and_the_queue_do_not_answer(
        client, settings, db, monkeypatch, django_capture_on_commit_callbacks):
    """The README's promise: without Redis a report is saved with its replay and stays queued with the
    reason (the battle page shows it); the cache (the audit signal clears a scoreboard) falls back."""
    from django.core.cache import caches
    from kombu.exceptions import OperationalError as BrokerError

    from tests.reporting.conftest import build_event_day, upload_shackle_on_the_page
    from tournaments.models import Report
    from tournaments.results import tasks

    def broker_down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    settings.CACHES = {"default": {"BACKEND": "opp.cache.DegradingRedisCache", "LOCATION": _dead_redis_url(),
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}
    assert type(caches["default"]).__name__ == "DegradingRedisCache"
    monkeypatch.setattr(tasks.adjudicate_report, "delay", broker_down)
    event, organizer, battle = build_event_day()  # a started tournament with player accounts
    client.force_login(battle.general_a.user)
    response = upload_shackle_on_the_page(client, battle, django_capture_on_commit_callbacks)
    assert response.status_code == 302, response.content[:2000]
    report = Report.objects.get(battle=battle)
    assert report.replay and report.status == Report.Status.QUEUED
    assert "did not answer" in report.status_reason
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "The job queue did not answer" in page


def test_a_key_of_another_version_changed_during_an_outage_is_deleted_in_its_version():
    fake = FakeRedis()
    cache = _cache_over(fake)
    cache.set("standings", "v2 old", version=2)
    cache.set("standings", "v1 kept")
    fake.up = False
    cache.set("standings", "v2 new", version=2)
    _redis_answers_again(cache, fake)
    assert cache.get("standings", version=2) is None  # not "v2 old"
    assert cache.get("standings") == "v1 kept"
