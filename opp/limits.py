"""Counting what one client (or one target) did within a window, in the cache: the per-address limit
on failed sign-ins and the limits on password-reset mails (tournaments/accounts.py).

Windows are fixed and aligned to the clock (a window of an hour starts on the hour), so the time to
wait is known without asking the cache. Keys are digests, never the address or email themselves. The
cache degrades to process memory while Redis is down (opp/cache.py): limits then count per process.
"""
import hashlib
import time

from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

_client_identity = BaseThrottle()  # DRF's: REMOTE_ADDR, or X-Forwarded-For as API_NUM_PROXIES says


def client_ip(request):
    """The client's address as the throttles see it, for django-axes too (one notion of 'who')."""
    return _client_identity.get_ident(request)


def _key(scope, subject, window, now):
    digest = hashlib.sha256(str(subject).encode("utf-8")).hexdigest()[:32]
    return f"limit:{scope}:{int(now // window)}:{digest}"


def seconds_left(window, now=None):
    """Seconds until the current window ends (at least 1)."""
    now = time.time() if now is None else now
    return max(1, int(window - now % window))


def count(scope, subject, window):
    """How many times `subject` was counted in `scope` within the current window."""
    return cache.get(_key(scope, subject, window, time.time()), 0)


def add_one(scope, subject, window):
    """Counts one more for `subject` in `scope`; the count within the current window, this one included."""
    key = _key(scope, subject, window, time.time())
    if cache.add(key, 1, timeout=int(window) + 1):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=int(window) + 1)
        return 1
