"""The cache's cost per `get()` (docs/calendars-and-cache.md): Django's Redis backend, django-redis's, and the
site's DegradingRedisCache over django-redis, on a Redis at OPP_BENCH_REDIS_URL (default db 12 of the local one).

Reproduce: PYTHONPATH=. .venv/bin/python bench/cache.py [--calls 5000] [--rounds 5]
"""
import argparse
import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.cache.backends.redis import RedisCache  # noqa: E402
from django_redis.cache import RedisCache as DjangoRedisCache  # noqa: E402

from opp.cache import DegradingRedisCache  # noqa: E402


def per_call(cache, calls, rounds):
    cache.set("bench-key", {"revision": 7})
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(calls):
            cache.get("bench-key")
        best = min(best, time.perf_counter() - started)
    return best / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    location = os.environ.get("OPP_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    params = {"KEY_PREFIX": "bench", "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}
    backends = {
        "Django's RedisCache": RedisCache(location, params),
        "django-redis RedisCache": DjangoRedisCache(location, {"KEY_PREFIX": "bench"}),
        "DegradingRedisCache (the site's)": DegradingRedisCache(location, params),
    }
    print(f"{args.calls} get() calls, best of {args.rounds}, Redis at {location}, load average "
          f"{os.getloadavg()[0]:.2f}")
    for name, cache in backends.items():
        print(f"  {name:36} {per_call(cache, args.calls, args.rounds):7.1f} µs a get()")
    print("baseline: the previous subclass of Django's backend, 120 µs a get() (2026-11-26, same machine)")
    print(f"reproduce: PYTHONPATH=. .venv/bin/python bench/cache.py --calls {args.calls} --rounds {args.rounds}")


if __name__ == "__main__":
    main()
