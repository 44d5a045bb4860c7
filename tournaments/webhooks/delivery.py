"""One try of one delivery, and what follows from its answer.

- A 2xx answer delivers it. Anything else (another status, a redirect, no answer, an address the guard
  refuses) is a failed try: the delivery is tried again after a backoff that doubles from
  `OPP_WEBHOOKS_RETRY_SECONDS` (30 s) up to `OPP_WEBHOOKS_RETRY_MAX_SECONDS` (an hour), at most
  `OPP_WEBHOOKS_MAX_ATTEMPTS` times (8), then it is given up (`failed`; an organizer may resend it).
- The endpoint counts its failed tries in a row; at `OPP_WEBHOOKS_DISABLE_AFTER` (10) it is disabled, with
  the reason, and its owner gets a mail saying so. A delivered try sets the count back to 0.
- The row is the schedule (`next_attempt_at`): a job claims it with a conditional UPDATE that moves
  `next_attempt_at` a lease ahead, so two jobs never send one delivery at once, and a job that died
  mid-way leaves a row the sweep finds again when the lease runs out.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from opp.background import doubling_pause
from tournaments.mailing import outbox
from tournaments.mailing.language import footer, written_in
from tournaments.models import Notification, NotificationSettings, WebhookDelivery, WebhookEndpoint
from tournaments.notifications import site_url
from tournaments.webhooks import addresses, listeners, signing

logger = logging.getLogger(__name__)

State = WebhookDelivery.State
LEASE = timedelta(seconds=60)  # longer than any one try (the resolver, the connection and the answer)
DUE_AT_ONCE = 200  # deliveries one sweep hands on
OWNER_NOTE = "account"  # the mail kind nobody opts out of: it is about something the owner set up


def max_attempts() -> int:
    return int(getattr(settings, "OPP_WEBHOOKS_MAX_ATTEMPTS", 8))


def disable_after() -> int:
    return int(getattr(settings, "OPP_WEBHOOKS_DISABLE_AFTER", 10))


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed try: 30 s, 1 min, 2 min, 4 min ... at most an hour."""
    first = float(getattr(settings, "OPP_WEBHOOKS_RETRY_SECONDS", 30))
    most = float(getattr(settings, "OPP_WEBHOOKS_RETRY_MAX_SECONDS", 3600))
    return doubling_pause(attempts, first, most)


def headers_for(delivery, secret, *, now=None) -> dict[str, str]:
    return {signing.SIGNATURE_HEADER: signing.signature_header(secret, delivery.body, now=now),
            signing.KIND_HEADER: delivery.kind, signing.DELIVERY_HEADER: str(delivery.delivery_id)}


def claim(delivery_id) -> WebhookDelivery | None:
    """The delivery, if it is due now and its endpoint active, with a lease on it; else None."""
    now = timezone.now()
    claimed = WebhookDelivery.objects.filter(delivery_id=delivery_id, state=State.PENDING, next_attempt_at__lte=now,
                                             endpoint__active=True).update(next_attempt_at=now + LEASE)
    if not claimed:
        return None
    return WebhookDelivery.objects.select_related("endpoint", "endpoint__owner", "endpoint__event").get(
        delivery_id=delivery_id)


def deliver(delivery_id) -> str:
    """Tries the delivery once if it is due: "delivered", "failed" (tried again later, or given up), or
    "not due" (delivered already, given up, claimed by another job, or its endpoint disabled).

    What a failed try records (its error, an endpoint's reason for being disabled) is written in the
    site's language, whichever thread runs the job: a worker, the background thread, or a request's."""
    with translation.override(settings.LANGUAGE_CODE):
        return _try(delivery_id)


def _try(delivery_id) -> str:
    delivery = claim(delivery_id)
    if delivery is None:
        return "not due"
    endpoint = delivery.endpoint
    body = delivery.body.encode()
    try:
        answer = addresses.post(endpoint.url, body, headers_for(delivery, endpoint.secret))
    except (addresses.Refused, addresses.SendFailed) as error:
        return failed(delivery, str(error))
    except Exception as error:  # noqa: BLE001 - whatever happened, the try is recorded and the lease given back
        logger.exception("webhook delivery %s", delivery_id)
        return failed(delivery, f"{type(error).__name__}: {error}")
    if 200 <= answer.status < 300:
        return delivered(delivery, answer)
    if 300 <= answer.status < 400:
        where = answer.location or _("no Location")
        return failed(delivery, _("Answered %(status)s, a redirect to %(where)s: redirects are not followed.")
                      % {"status": answer.status, "where": where}, answer)
    return failed(delivery, _("Answered %(status)s.") % {"status": answer.status}, answer)


@transaction.atomic
def delivered(delivery, answer) -> str:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        state=State.DELIVERED, attempts=F("attempts") + 1, response_code=answer.status,
        response_excerpt=answer.excerpt, error="", delivered_at=timezone.now(), next_attempt_at=None)
    WebhookEndpoint.objects.filter(pk=delivery.endpoint_id, consecutive_failures__gt=0).update(consecutive_failures=0)
    return "delivered"


def failed(delivery, error, answer=None) -> str:
    """Records a failed try: its answer, the next try (or giving up), the endpoint's count of failures in a
    row, and disables the endpoint at the limit."""
    attempts = delivery.attempts + 1
    given_up = attempts >= max_attempts()
    with transaction.atomic():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            attempts=attempts, error=error[:300], response_code=answer.status if answer else None,
            response_excerpt=answer.excerpt if answer else "",
            state=State.FAILED if given_up else State.PENDING,
            next_attempt_at=None if given_up else timezone.now() + backoff(attempts))
        WebhookEndpoint.objects.filter(pk=delivery.endpoint_id).update(
            consecutive_failures=F("consecutive_failures") + 1)
        endpoint = WebhookEndpoint.objects.select_related("owner", "event").get(pk=delivery.endpoint_id)
        if endpoint.active and endpoint.consecutive_failures >= disable_after() and disable(endpoint, error):
            tell_owner(endpoint)  # queued with the change, sent by the mail job after the commit
    return "failed"


def disable(endpoint, last_error) -> bool:
    """Disables the endpoint with the reason; False when another job did it first."""
    now = timezone.now()
    with translation.override(settings.LANGUAGE_CODE):  # a record: the site's language, whoever's thread runs
        reason = (_("Disabled after %(count)d failed deliveries in a row; the last: %(error)s")
                  % {"count": endpoint.consecutive_failures, "error": last_error})[:300]
    done = WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).update(
        active=False, disabled_at=now, disabled_reason=reason)
    if done:
        endpoint.active, endpoint.disabled_at, endpoint.disabled_reason = False, now, reason
        listeners.forget()
    return bool(done)


def settings_page(endpoint) -> str:
    if endpoint.event_id:
        return site_url(reverse("event-webhooks", args=[endpoint.event.slug]))
    return site_url(reverse("admin:tournaments_webhookendpoint_change", args=[endpoint.pk]))


def tell_owner(endpoint) -> None:
    """Queues the owner's note that the endpoint is disabled (tournaments.mailing: a durable mail, retried
    by its own job, never sent inside a request), in the owner's language; the reason inside it is the
    record's, as the webhooks page shows it. An owner without an email address gets none."""
    owner = endpoint.owner
    if not owner.email:
        return
    chosen = NotificationSettings.objects.filter(user=owner).values_list("language", flat=True).first()
    with written_in(chosen):
        where = endpoint.event.name if endpoint.event_id else _("every event of the site")
        subject = (_("Webhook disabled: %(url)s") % {"url": endpoint.url})[:200]
        body = "\n".join([
            _("The webhook %(url)s (%(where)s) is disabled: it failed too many times in a row.")
            % {"url": endpoint.url, "where": where},
            "", endpoint.disabled_reason, "",
            _("Nothing is sent to it until it is enabled again. Fix the receiver, then enable it and resend what "
              "it missed: %(url)s") % {"url": settings_page(endpoint)},
        ]) + footer(_("You get this email because you registered this webhook."))
    key = f"webhook:{endpoint.pk}:disabled:{int(endpoint.disabled_at.timestamp())}"
    outbox.queue_mails([(Notification(user=owner, kind=OWNER_NOTE, key=key[:80], subject=subject), body)])


def due_ids(limit=DUE_AT_ONCE) -> list[str]:
    """Pending deliveries of active endpoints whose try is due (a retry, or a job lost with its process)."""
    return [str(delivery_id) for delivery_id in WebhookDelivery.objects.filter(
        state=State.PENDING, next_attempt_at__lte=timezone.now(), endpoint__active=True)
        .order_by("next_attempt_at").values_list("delivery_id", flat=True)[:limit]]
