"""Deliveries to a real receiver on this machine (http.server in a thread), with the test settings that
allow plain http to a private address: what a counted result sends and how the receiver checks it, the
retry after a 500, the endpoint disabled after failing too often (with a note to its owner), a redirect
into the private network not followed in production mode, a slow receiver cut off at the timeout, a
huge answer cut."""
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tournaments.models import Battle, WebhookDelivery, WebhookEndpoint
from tournaments.results import recording, reporting
from tournaments.webhooks import delivery as delivery_steps
from tournaments.webhooks import services, signing, tasks

from .conftest import documented_verifier, payload

pytestmark = pytest.mark.django_db

Kind = WebhookEndpoint.Kind


def count_shackle(battle, organizer, callbacks):
    """The organizer records the battle's first general's Shackle victory; the commit's jobs run."""
    with callbacks(execute=True):
        recording.record_result(battle, kind=Battle.Kind.VICTORY, winner=battle.general_a, condition="shackle",
                                actor=organizer)


def time_passes(endpoint):
    """The waiting tries of the endpoint become due, as they would once their backoff is over."""
    WebhookDelivery.objects.filter(endpoint=endpoint, state="pending").update(
        next_attempt_at=timezone.now() - timedelta(seconds=1))


def test_a_counted_result_reaches_the_receiver_signed_as_documented(hooked, receiver,
                                                                     django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver()
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED, Kind.STANDINGS_CHANGED])
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)

    assert [r["headers"]["X-Warline-Event"] for r in found.requests] == ["result.counted", "standings.changed"]
    verify = documented_verifier()
    for request in found.requests:
        assert verify(endpoint.secret, request["headers"]["X-Warline-Signature"], request["body"])
        assert not verify(signing.new_secret(), request["headers"]["X-Warline-Signature"], request["body"])
    counted = payload(found.requests[0])
    assert counted["kind"] == "result.counted"
    assert counted["delivery"] == found.requests[0]["headers"]["X-Warline-Delivery"]
    assert counted["event"]["slug"] == event.slug and counted["event"]["url"].endswith(f"/events/{event.slug}/")
    assert counted["data"]["battle"]["id"] == battle.pk
    assert [g["name"] for g in counted["data"]["battle"]["generals"]] == [battle.general_a.name,
                                                                          battle.general_b.name]
    assert counted["data"]["result"]["winner"]["name"] == battle.general_a.name
    assert counted["data"]["result"]["condition"] == "shackle"
    assert counted["data"]["scoreboard_url"].endswith(f"/api/v1/events/{event.slug}/scoreboard/")
    assert "+00:00" in counted["created"]
    log = WebhookDelivery.objects.filter(endpoint=endpoint)
    assert {(d.kind, d.state, d.response_code, d.attempts) for d in log} == {
        ("result.counted", "delivered", 200, 1), ("standings.changed", "delivered", 200, 1)}


def test_a_refused_step_sends_nothing(hooked, receiver, django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver()
    hook(found)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        recording.record_result(battle, kind=Battle.Kind.VICTORY, winner=battle.general_a,
                                condition="shackle", actor=organizer)
        raise RuntimeError("the step fails after the result was written")
    assert found.requests == [] and not WebhookDelivery.objects.exists()


def test_a_waiting_report_says_which_battle_but_not_what_was_claimed(hooked, receiver,
                                                                     django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver()
    hook(found, kinds=[Kind.REPORT_WAITING])
    with django_capture_on_commit_callbacks(execute=True):
        reporting.submit_report(battle, user=battle.general_a.user, kind="victory", winner=battle.general_a,
                                condition="crush")
    [request] = found.requests
    body = payload(request)
    assert body["kind"] == "report.waiting" and body["data"]["battle"]["id"] == battle.pk
    assert body["data"]["confirm_by"] is not None
    assert "crush" not in request["body"].decode() and "winner" not in request["body"].decode()


def test_pairings_published_list_the_battles_to_play(hooked, receiver, django_capture_on_commit_callbacks):
    from tournaments.events import services as event_services
    from tournaments.models import Event, General

    event, organizer, battle, hook = hooked
    found = receiver()
    other = event_services.create_event(name="Ferry Cup", slug="ferry-cup", actor=organizer)
    services.register(organizer, other, url=found.url, kinds=[Kind.PAIRINGS_PUBLISHED])
    for name in ("Eve", "Fay", "Gus", "Hal"):
        event_services.register(other, General.objects.create(name=name), actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        event_services.form_groups(Event.objects.get(pk=other.pk), 2, "random", seed=3, actor=organizer)
    [request] = found.requests
    body = payload(request)
    assert body["kind"] == "pairings.published" and body["data"]["action"] == "groups formed"
    assert {b["id"] for b in body["data"]["battles"]} == set(other.battles.values_list("id", flat=True))


def test_a_500_is_tried_again_after_the_backoff_and_then_delivered(hooked, receiver,
                                                                   django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver((500, b"database down", {}), (200, b"thanks", {}))
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)

    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert (delivery.state, delivery.attempts, delivery.response_code) == ("pending", 1, 500)
    assert delivery.response_excerpt == "database down" and delivery.error == "Answered 500."
    assert delivery.next_attempt_at > timezone.now() + timedelta(seconds=20)  # the backoff: 30 s first
    assert tasks.send_due() == 0 and len(found.requests) == 1  # not due yet: nothing sent

    time_passes(endpoint)
    assert tasks.send_due() == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.response_code) == ("delivered", 2, 200)
    first, second = found.requests
    assert first["body"] == second["body"]
    assert first["headers"]["X-Warline-Delivery"] == second["headers"]["X-Warline-Delivery"] == str(
        delivery.delivery_id)
    verify = documented_verifier()
    assert all(verify(endpoint.secret, r["headers"]["X-Warline-Signature"], r["body"]) for r in found.requests)
    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 0 and endpoint.active


def test_backoff_doubles_and_is_capped():
    assert [delivery_steps.backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert delivery_steps.backoff(20).total_seconds() == 3600


def test_always_500_disables_the_endpoint_at_the_limit_and_tells_its_owner(hooked, receiver, settings, mailoutbox,
                                                                          django_capture_on_commit_callbacks):
    settings.OPP_WEBHOOKS_DISABLE_AFTER = 3
    settings.OPP_WEBHOOKS_MAX_ATTEMPTS = 8
    event, organizer, battle, hook = hooked
    organizer.email = "org@example.org"
    organizer.save(update_fields=["email"])
    found = receiver((500, b"no", {}))
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)
    for _ in range(6):  # more chances than the limit; the mail job runs after the commit
        time_passes(endpoint)
        with django_capture_on_commit_callbacks(execute=True):
            tasks.send_due()

    assert len(found.requests) == 3
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.disabled_at is not None
    assert "3 failed deliveries in a row" in endpoint.disabled_reason and "Answered 500" in endpoint.disabled_reason
    [note] = mailoutbox
    assert note.to == ["org@example.org"] and endpoint.url in note.subject
    assert endpoint.disabled_reason in note.body and f"/events/{event.slug}/webhooks/" in note.body
    # Disabled: its waiting delivery stays waiting, and nothing new is queued for it.
    assert WebhookDelivery.objects.get(endpoint=endpoint).state == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        recording.record_result(battle, kind=Battle.Kind.VICTORY, winner=battle.general_b, condition="shackle",
                                actor=organizer, reason="The generals were swapped on the score sheet.")
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 1 and len(found.requests) == 3

    # Enabled again (the receiver fixed): what waited is sent, the count starts again.
    found.answers = [(200, b"ok", {})]
    with django_capture_on_commit_callbacks(execute=True):
        services.update(organizer, endpoint, active=True)
    assert len(found.requests) == 4
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0 and endpoint.disabled_reason == ""


def test_a_delivery_given_up_after_its_tries_can_be_resent(hooked, receiver, settings,
                                                           django_capture_on_commit_callbacks):
    settings.OPP_WEBHOOKS_MAX_ATTEMPTS = 2
    event, organizer, battle, hook = hooked
    found = receiver((503, b"", {}), (503, b"", {}), (204, b"", {}))
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)
    time_passes(endpoint)
    tasks.send_due()
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert (delivery.state, delivery.attempts, delivery.next_attempt_at) == ("failed", 2, None)
    time_passes(endpoint)
    assert tasks.send_due() == 0  # given up: the sweep leaves it

    with django_capture_on_commit_callbacks(execute=True):
        services.resend(organizer, delivery)
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.response_code) == ("delivered", 1, 204)
    assert len({r["headers"]["X-Warline-Delivery"] for r in found.requests}) == 1 and len(found.requests) == 3


def test_a_redirect_to_a_private_address_is_not_followed_in_production_mode(production_mode, receiver, monkeypatch,
                                                                            event_day,
                                                                            django_capture_on_commit_callbacks):
    """The receiver stands in for a public host (its name resolves to a public address, the connection
    reaches it); it answers 302 to http://127.0.0.1/...: the site's own network is never asked."""
    from tournaments.webhooks import addresses

    event, organizer, battle = event_day
    inside = receiver((200, b"secret admin page", {}))
    outside = receiver((302, b"", {"Location": f"http://127.0.0.1:{inside.port}/admin/"}))
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34"])
    monkeypatch.setattr(addresses, "open_connection",
                        lambda address, port, timeout: addresses.socket.create_connection(
                            ("127.0.0.1", outside.port) if address == "93.184.216.34" else (address, port), timeout))
    endpoint = services.register(organizer, event, url=f"http://hooks.example:{outside.port}/in",
                                 kinds=[Kind.RESULT_COUNTED])
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)

    assert len(outside.requests) == 1 and inside.requests == []
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.response_code == 302 and delivery.state == "pending"
    assert f"http://127.0.0.1:{inside.port}/admin/" in delivery.error and "not followed" in delivery.error


def test_a_slow_receiver_fails_within_the_timeout(hooked, receiver, django_capture_on_commit_callbacks):
    def sleepy(handler):
        time.sleep(3)  # longer than OPP_WEBHOOKS_TIMEOUT (1 s here)
        handler.send_response(200)
        handler.end_headers()

    event, organizer, battle, hook = hooked
    found = receiver(sleepy)
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    started = time.monotonic()
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 2.5
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.state == "pending" and delivery.response_code is None
    assert delivery.error == "No answer within 1 s."


def test_a_receiver_answering_a_byte_at_a_time_is_cut_off_at_the_total_timeout(hooked, receiver,
                                                                               django_capture_on_commit_callbacks):
    def dripping(handler):
        try:
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 100:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(0.1)  # each byte well within a read timeout; all of them not within the total
        except OSError:
            pass

    event, organizer, battle, hook = hooked
    found = receiver(dripping)
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    started = time.monotonic()
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 2.5
    assert WebhookDelivery.objects.get(endpoint=endpoint).error == "No answer within 1 s."


def test_a_huge_answer_is_cut_after_the_first_bytes(hooked, receiver, django_capture_on_commit_callbacks):
    total = 64 * 1024 * 1024
    written = []

    def flood(handler):
        handler.send_response(200)
        handler.send_header("Content-Length", str(total))
        handler.end_headers()
        sent, chunk = 0, b"x" * 65536
        try:
            while sent < total:
                handler.wfile.write(chunk)
                sent += len(chunk)
        except OSError:
            pass
        written.append(sent)

    event, organizer, battle, hook = hooked
    found = receiver(flood)
    endpoint = hook(found, kinds=[Kind.RESULT_COUNTED])
    started = time.monotonic()
    count_shackle(battle, organizer, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 2.5
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.state == "delivered" and delivery.response_excerpt == "x" * 300
    assert wait_until_written(written) and written[0] < total  # the rest was never read


def wait_until_written(written):
    from .conftest import wait_for

    return wait_for(lambda: bool(written), seconds=5)


def test_a_site_without_webhooks_pays_no_query_for_them(event_day, django_assert_num_queries):
    """The list of listening endpoints is cached: once read, a step's audit entries ask nothing more."""
    from tournaments.webhooks import listeners

    event, organizer, battle = event_day
    listeners.active_endpoints()  # read once (as any earlier step of the process would)
    from tournaments import audit

    with django_assert_num_queries(1):  # the audit entry's INSERT only
        audit.record(event, organizer, "result recorded", "nothing in particular")
