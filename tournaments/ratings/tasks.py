"""The job that rewrites the ratings after a result of a rated event changes (R98).

`schedule_recompute` is called inside the transaction that changed the record; the job is sent after
the commit (never for a change rolled back). Debounced: while one job waits in the queue, further
changes send none (a cache key marks it waiting; the job clears the key before it reads the record, so
a change committed after that sends a new job and nothing is missed), and the job starts a few seconds
late (`countdown`), so a burst of results (a round's last battles) makes one or two recomputations.
Without `REDIS_URL` jobs run in-process (`CELERY_TASK_ALWAYS_EAGER`): the recomputation runs at once
after the commit, which a site of that size affords (every rated battle re-read, in one query).

The job is idempotent: it recomputes everything from the record, so running it twice, late, or after
a lost message does no harm; `manage.py rate` does the same by hand.
"""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

from tournaments.ratings.recompute import recompute_all

logger = logging.getLogger(__name__)

RECOMPUTE = "tournaments.recompute_ratings"
WAITING_KEY = "ratings:recompute-waiting"
DELAY_SECONDS = 5
# A key whose job was lost (a queue restarted) stops debouncing after this long.
WAITING_KEY_SECONDS = 120


@shared_task(name=RECOMPUTE, acks_late=True, ignore_result=True, autoretry_for=(ConnectionError,),
             max_retries=3, retry_backoff=2)
def recompute_ratings():
    cache.delete(WAITING_KEY)
    summary = recompute_all()
    logger.info("ratings recomputed: %s generals, %s weeks, %s battles", summary.generals, summary.periods,
                summary.battles)
    return summary.points


def _send():
    if settings.CELERY_TASK_ALWAYS_EAGER:  # in-process: no queue to wait in, so nothing to debounce
        recompute_ratings()
        return
    if not cache.add(WAITING_KEY, True, timeout=WAITING_KEY_SECONDS):
        return  # a job is waiting already and will read this change too
    try:
        recompute_ratings.apply_async(countdown=DELAY_SECONDS)
    except (BrokerError, ConnectionError, OSError) as error:
        cache.delete(WAITING_KEY)
        logger.warning("ratings not recomputed, the job queue does not answer (`manage.py rate` does it): %s", error)


def schedule_recompute():
    """Recomputes the ratings after the current transaction commits (at once when none is open)."""
    transaction.on_commit(_send)
