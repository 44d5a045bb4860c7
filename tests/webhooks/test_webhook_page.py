"""The organizer's webhooks page: linked from the event's organizer page; an organizer adds a webhook (a
refused address is shown with what was typed), sees its deliveries with the answer's code and sends one
again; a player gets 403."""
import pytest

from tournaments.models import WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


def test_an_organizer_adds_a_webhook_and_sees_its_deliveries(hooked, receiver, client,
                                                             django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver((500, b"broken", {}), (200, b"fine", {}))
    client.force_login(organizer)
    manage = client.get(f"/events/{event.slug}/manage/")
    assert f'href="/events/{event.slug}/webhooks/"' in manage.content.decode()

    refused = client.post(f"/events/{event.slug}/webhooks/", {"action": "add", "url": "ftp://nowhere.example/",
                                                              "kinds": ["result.counted"]})
    assert refused.status_code == 400
    assert "must start with https://" in refused.content.decode() and "ftp://nowhere.example/" in refused.content.decode()

    added = client.post(f"/events/{event.slug}/webhooks/", {"action": "add", "url": found.url,
                                                            "kinds": ["result.counted", "ping"]})
    assert added.status_code == 400  # "ping" is not a kind one subscribes to
    added = client.post(f"/events/{event.slug}/webhooks/", {"action": "add", "url": found.url,
                                                            "kinds": ["result.counted"]}, follow=True)
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.kinds == ["result.counted"] and endpoint.secret in added.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/events/{event.slug}/webhooks/", {"action": "ping", "endpoint": endpoint.pk})
    page = client.get(f"/events/{event.slug}/webhooks/").content.decode()
    assert "<code>500</code> Answered 500." in page
    delivery = WebhookDelivery.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/events/{event.slug}/webhooks/", {"action": "resend", "delivery": delivery.pk})
    assert "<code>200</code>" in client.get(f"/events/{event.slug}/webhooks/").content.decode()
    assert client.post(f"/events/{event.slug}/webhooks/", {"action": "delete", "endpoint": "x1"}).status_code == 404
    client.post(f"/events/{event.slug}/webhooks/", {"action": "delete", "endpoint": endpoint.pk})
    assert not WebhookEndpoint.objects.exists()


def test_a_player_cannot_open_the_page(hooked, client):
    event, organizer, battle, hook = hooked
    client.force_login(battle.general_a.user)
    assert client.get(f"/events/{event.slug}/webhooks/").status_code == 403
    assert client.post(f"/events/{event.slug}/webhooks/", {"action": "add", "url": "https://hooks.example/",
                                                           "kinds": ["result.counted"]}).status_code == 403
    assert not WebhookEndpoint.objects.exists()


def test_staff_add_a_site_wide_webhook_in_the_admin_checked_like_the_api(local_test_settings, receiver, client,
                                                                         settings):
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.create_superuser("boss", password="boss-password-1")
    client.force_login(boss)
    found = receiver()
    assert client.get("/admin/tournaments/webhookendpoint/add/").status_code == 200
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = False
    refused = client.post("/admin/tournaments/webhookendpoint/add/", {"url": found.url, "kinds": ["event.finished"]})
    assert refused.status_code == 200 and "public internet addresses only" in refused.content.decode()
    assert not WebhookEndpoint.objects.exists()
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = True
    added = client.post("/admin/tournaments/webhookendpoint/add/", {"url": found.url, "kinds": ["event.finished"]})
    assert added.status_code == 302
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.event is None and endpoint.owner == boss and endpoint.secret.startswith("whsec_")
    assert client.get("/admin/tournaments/webhookendpoint/").status_code == 200
    assert client.get(f"/admin/tournaments/webhookendpoint/{endpoint.pk}/change/").status_code == 200
    assert client.get("/admin/tournaments/webhookdelivery/").status_code == 200
