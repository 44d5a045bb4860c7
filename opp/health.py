"""Health of what the site depends on: the database, Redis and the Celery workers.

Each check returns a `Check`; `overall()` decides the site's status. The web process can
serve pages without workers (reports queue up), so missing workers make the status
"degraded", while an unreachable database or Redis makes it "down".
"""
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import connection


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    required: bool = True

    def as_dict(self):
        return asdict(self)


def check_database():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "does not answer"
        return Check("database", False, f"{connection.vendor} does not answer: {exc}")
    return Check("database", True, f"{connection.vendor} answers")


def check_redis():
    if not settings.REDIS_URL:
        return Check("redis", True, "not configured: jobs run in-process", required=False)
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return Check("redis", False, f"does not answer at {_redacted(settings.REDIS_URL)}: {exc}")
    return Check("redis", True, f"answers at {_redacted(settings.REDIS_URL)}")


def check_workers(timeout=1.5):
    if not settings.REDIS_URL:
        return Check("workers", True, "not needed: jobs run in-process", required=False)
    from opp.celery import app

    try:
        replies = app.control.inspect(timeout=timeout).ping() or {}
    except Exception as exc:  # the broker itself failed; check_redis says why
        return Check("workers", False, f"cannot ask the workers: {exc}", required=False)
    if not replies:
        return Check("workers", False, "no worker answered: start one with `celery -A opp worker`",
                     required=False)
    names = ", ".join(sorted(replies))
    return Check("workers", True, f"{len(replies)} answered: {names}", required=False)


def run_checks():
    return [check_database(), check_redis(), check_workers()]


def overall(checks):
    if any(not c.ok and c.required for c in checks):
        return "down"
    if any(not c.ok for c in checks):
        return "degraded"
    return "ok"


def _redacted(url):
    # Never print a Redis password into logs or a public health page.
    if "@" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
