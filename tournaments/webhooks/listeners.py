"""Which endpoints listen: a short-lived cached list of the active ones, so that the steps of a site
without webhooks (or an event without them) pay no query for them. Every change of an endpoint drops it."""
from __future__ import annotations

from functools import partial

from django.core.cache import cache
from django.db import transaction

from tournaments.models import WebhookEndpoint

CACHE_KEY = "webhooks:active-endpoints"
CACHE_SECONDS = 60  # the longest an endpoint's change could go unseen by another process


def active_endpoints() -> list[tuple[int, int | None, list[str]]]:
    """(id, event id or None for the whole site, kinds) of every active endpoint."""
    found = cache.get(CACHE_KEY)
    if found is None:
        found = [(pk, event_id, list(kinds or [])) for pk, event_id, kinds in
                 WebhookEndpoint.objects.filter(active=True).values_list("id", "event_id", "kinds")]
        cache.set(CACHE_KEY, found, CACHE_SECONDS)
    return found


def forget() -> None:
    """Drops the cached list now and again after the commit (another process may read the old rows in
    between)."""
    cache.delete(CACHE_KEY)
    transaction.on_commit(partial(cache.delete, CACHE_KEY))


def listening(event, kind) -> list[int]:
    """The active endpoints that want `kind` of `event`: the event's own, and the site's for a published
    event (an unpublished one is its organizers' business)."""
    return [pk for pk, event_id, kinds in active_endpoints() if kind in kinds
            and (event_id == event.pk or (event_id is None and event.published))]
