"""The steps on webhooks, for the API and the organizer's page alike: register an endpoint, change it
(address, kinds, enabled), delete it, rotate its secret, resend a delivery, send a test delivery.

Who may: an event's organizers for the event's endpoints (`trust.may_organize`), site staff for the
endpoints that hear of every event. A refusal is a sentence (DomainError: 400, NotAllowed: 403, Conflict:
409), never a fault."""
from __future__ import annotations

import uuid
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import trust
from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import addresses, hooks, payloads, signing

Kind = WebhookEndpoint.Kind
PING = "ping"  # the kind of a test delivery; no endpoint subscribes to it
MOST_PER_EVENT = 10  # endpoints of one event (or of the whole site)
MAX_URL = WebhookEndpoint._meta.get_field("url").max_length
NOT_STAFF = gettext_lazy("Only site staff register and manage the webhooks that hear of every event.")


def _signed_in(user):
    return bool(user is not None and getattr(user, "is_authenticated", False))


def may_manage(user, event) -> bool:
    """Whether `user` registers and manages the webhooks of `event` (None: of the whole site)."""
    if not _signed_in(user):
        return False
    if event is None:
        return bool(user.is_staff or user.is_superuser)
    return trust.may_organize(user, event)


def require_manage(user, event):
    if not may_manage(user, event):
        raise NotAllowed(NOT_STAFF if event is None else trust.NOT_ORGANIZER)


def endpoints_of(event):
    """An event's endpoints (None: the site-wide ones), oldest first."""
    return WebhookEndpoint.objects.filter(event=event).select_related("owner", "event")


def clean_kinds(kinds) -> list[str]:
    """The kinds asked for, known and each once, in the order of `Kind`; a sentence naming the first bad one."""
    choices = ", ".join(Kind.values)
    if not isinstance(kinds, list | tuple) or not kinds:
        raise DomainError(_("Choose at least one kind of happening: %(kinds)s.") % {"kinds": choices}, field="kinds")
    for kind in kinds:
        if not isinstance(kind, str) or kind not in Kind.values:
            raise DomainError(_("%(kind)r is not a kind of happening; the kinds are: %(kinds)s.")
                              % {"kind": kind, "kinds": choices}, field="kinds")
    return [kind for kind in Kind.values if kind in kinds]


def clean_url(url) -> str:
    """The address, checked by the guard (its form, and where its host points now)."""
    if not isinstance(url, str) or not url.strip():
        raise DomainError(_("Give the address deliveries go to (https://...)."), field="url")
    url = url.strip()
    if len(url) > MAX_URL:
        raise DomainError(_("The address is %(length)d characters long; at most %(most)d.")
                          % {"length": len(url), "most": MAX_URL}, field="url")
    try:
        addresses.check_url(url)
    except addresses.Refused as refusal:
        raise DomainError(str(refusal), field="url") from None
    return url


@transaction.atomic
def register(user, event, *, url, kinds) -> WebhookEndpoint:
    """A new endpoint of `event` (None: every event, site staff only), with a new secret."""
    require_manage(user, event)
    kinds = clean_kinds(kinds)
    url = clean_url(url)
    if endpoints_of(event).count() >= MOST_PER_EVENT:
        raise Conflict(_("At most %(most)d webhooks per event: delete one first.") % {"most": MOST_PER_EVENT})
    return WebhookEndpoint.objects.create(event=event, owner=user, url=url, kinds=kinds, secret=signing.new_secret())


@transaction.atomic
def update(user, endpoint, *, url=None, kinds=None, active=None) -> WebhookEndpoint:
    """Changes what is given. Enabling a disabled endpoint sets its failures back to 0 and sends what is
    still waiting for it."""
    require_manage(user, endpoint.event)
    fields = []
    if url is not None:
        endpoint.url = clean_url(url)
        fields.append("url")
    if kinds is not None:
        endpoint.kinds = clean_kinds(kinds)
        fields.append("kinds")
    if active is not None and bool(active) != endpoint.active:
        endpoint.active = bool(active)
        fields.append("active")
        if endpoint.active:
            endpoint.consecutive_failures, endpoint.disabled_at, endpoint.disabled_reason = 0, None, ""
            fields += ["consecutive_failures", "disabled_at", "disabled_reason"]
            waiting = endpoint.deliveries.filter(state=WebhookDelivery.State.PENDING)
            waiting.update(next_attempt_at=timezone.now())
            due = [str(d) for d in waiting.values_list("delivery_id", flat=True)[:200]]
            transaction.on_commit(partial(hooks.hand_off, due), robust=True)
    if fields:
        endpoint.save(update_fields=fields)
    return endpoint


@transaction.atomic
def delete(user, endpoint) -> None:
    require_manage(user, endpoint.event)
    endpoint.delete()


@transaction.atomic
def rotate_secret(user, endpoint) -> WebhookEndpoint:
    """A new secret; deliveries are signed with it from now on (a retry too)."""
    require_manage(user, endpoint.event)
    endpoint.secret = signing.new_secret()
    endpoint.save(update_fields=["secret"])
    return endpoint


@transaction.atomic
def resend(user, delivery) -> WebhookDelivery:
    """Sends a delivery again, as it was (same body, same delivery id: receivers tell a repeat by it),
    with its tries counted afresh."""
    endpoint = delivery.endpoint
    require_manage(user, endpoint.event)
    if not endpoint.active:
        raise Conflict(_("This webhook is disabled: enable it first, then resend."))
    WebhookDelivery.objects.filter(pk=delivery.pk).update(state=WebhookDelivery.State.PENDING, attempts=0,
                                                          next_attempt_at=timezone.now(), error="")
    transaction.on_commit(partial(hooks.hand_off, [str(delivery.delivery_id)]), robust=True)
    delivery.refresh_from_db()
    return delivery


@transaction.atomic
def ping(user, endpoint) -> WebhookDelivery:
    """A test delivery to the endpoint (kind `ping`), sent like any other."""
    require_manage(user, endpoint.event)
    if not endpoint.active:
        raise Conflict(_("This webhook is disabled: enable it first, then send a test delivery."))
    delivery_id = uuid.uuid4()
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, delivery_id=delivery_id, key=f"{PING}:{delivery_id}", kind=PING,
        body=payloads.envelope(PING, delivery_id, endpoint.event, payloads.ping(endpoint)),
        next_attempt_at=timezone.now())
    transaction.on_commit(partial(hooks.hand_off, [str(delivery_id)]), robust=True)
    return delivery
