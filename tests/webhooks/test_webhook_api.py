"""The webhooks API: only an event's organizers see and register its webhooks (a player, another event's
organizer: 403; an event they cannot see: 404; nobody signed in: 401), only staff the site-wide ones; bad
addresses and kinds are 400 with the sentence and the field; the log and the resend."""
import pytest
from django.contrib.auth import get_user_model

from tests.api.conftest import as_user
from tournaments.events import services as event_services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import services

pytestmark = pytest.mark.django_db




@pytest.fixture
def rival(db):
    """Another organizer, with an event of her own."""
    rita = grant_organizer_role(get_user_model().objects.create_user("rita"))
    event_services.create_event(name="Rival Open", slug="rival-open", actor=rita)
    return rita


def test_only_the_events_organizers_list_and_register_its_webhooks(hooked, receiver, rival):
    event, organizer, battle, hook = hooked
    found = receiver()
    url = f"/api/v1/events/{event.slug}/webhooks/"
    body = {"url": found.url, "kinds": ["result.counted"]}
    player = battle.general_a.user

    assert as_user().get(url).status_code == 401
    for outsider in (player, rival):
        refused = as_user(outsider).get(url)
        assert refused.status_code == 403 and refused.json()["detail"] == "Only an organizer of this event may do that."
        assert as_user(outsider).post(url, body, format="json").status_code == 403
    assert not WebhookEndpoint.objects.exists()

    created = as_user(organizer).post(url, body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["secret"].startswith("whsec_") and created.json()["event"] == event.slug
    endpoint_url = f"{url}{created.json()['id']}/"
    assert [e["url"] for e in as_user(organizer).get(url).json()] == [found.url]
    for outsider in (player, rival):  # nor read, change or delete one
        assert as_user(outsider).get(endpoint_url).status_code == 403
        assert as_user(outsider).patch(endpoint_url, {"active": False}, format="json").status_code == 403
        assert as_user(outsider).get(f"{endpoint_url}deliveries/").status_code == 403
        assert as_user(outsider).delete(endpoint_url).status_code == 403
    assert WebhookEndpoint.objects.get().active
    # Her own event's address does not reach another event's webhook.
    assert as_user(rival).get(f"/api/v1/events/rival-open/webhooks/{created.json()['id']}/").status_code == 404


def test_an_unpublished_event_is_404_to_outsiders(hooked, rival):
    event, organizer, battle, hook = hooked
    event.published = False
    event.save()
    assert as_user(rival).get(f"/api/v1/events/{event.slug}/webhooks/").status_code == 404
    assert as_user(organizer).get(f"/api/v1/events/{event.slug}/webhooks/").status_code == 200


def test_site_wide_webhooks_are_for_staff(hooked, receiver):
    event, organizer, battle, hook = hooked
    found = receiver()
    body = {"url": found.url, "kinds": ["event.finished"]}
    refused = as_user(organizer).post("/api/v1/webhooks/", body, format="json")
    assert refused.status_code == 403 and "site staff" in refused.json()["detail"]
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    created = as_user(staff).post("/api/v1/webhooks/", body, format="json")
    assert created.status_code == 201 and created.json()["event"] is None
    assert as_user(organizer).get("/api/v1/webhooks/").status_code == 403
    assert [e["id"] for e in as_user(staff).get("/api/v1/webhooks/").json()] == [created.json()["id"]]
    assert as_user(organizer).get(f"/api/v1/events/{event.slug}/webhooks/").json() == []  # not the event's


@pytest.mark.parametrize("body, field, words", [
    ({"url": "http://hooks.example/in", "kinds": ["result.counted"]}, "url", "https://"),
    ({"url": "https://127.0.0.1/in", "kinds": ["result.counted"]}, "url", "public internet addresses only"),
    ({"url": "https://169.254.169.254/latest/", "kinds": ["result.counted"]}, "url", "private network"),
    ({"url": "https://hooks.example/in", "kinds": ["nope"]}, "kinds[0]", "not a valid choice"),
    ({"url": "https://hooks.example/in", "kinds": []}, "kinds", ""),
    ({"kinds": ["result.counted"]}, "url", "required"),
])
def test_bad_addresses_and_kinds_are_400_with_the_sentence(event_day, body, field, words):
    event, organizer, battle = event_day
    answer = as_user(organizer).post(f"/api/v1/events/{event.slug}/webhooks/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["fields"] and words in answer.json()["detail"]
    assert not WebhookEndpoint.objects.exists()


def test_the_log_resend_rotate_and_ping(hooked, receiver, django_capture_on_commit_callbacks):
    event, organizer, battle, hook = hooked
    found = receiver((500, b"down", {}), (200, b"up", {}))
    endpoint = hook(found)
    base = f"/api/v1/events/{event.slug}/webhooks/{endpoint.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        pinged = as_user(organizer).post(f"{base}ping/")
    assert pinged.status_code == 202 and pinged.json()["kind"] == "ping"
    [logged] = as_user(organizer).get(f"{base}deliveries/").json()
    assert (logged["state"], logged["response_code"], logged["response_excerpt"]) == ("pending", 500, "down")
    with django_capture_on_commit_callbacks(execute=True):
        resent = as_user(organizer).post(f"{base}deliveries/{logged['id']}/resend/")
    assert resent.status_code == 202
    assert WebhookDelivery.objects.get(pk=logged["id"]).state == "delivered"
    assert as_user(organizer).post(f"{base}deliveries/999999/resend/").status_code == 404

    old = endpoint.secret
    rotated = as_user(organizer).post(f"{base}rotate-secret/")
    assert rotated.status_code == 200 and rotated.json()["secret"] not in ("", old)

    changed = as_user(organizer).patch(base, {"active": False, "kinds": ["event.finished"]}, format="json")
    assert changed.status_code == 200 and changed.json()["active"] is False
    assert changed.json()["kinds"] == ["event.finished"]
    refused = as_user(organizer).post(f"{base}ping/")
    assert refused.status_code == 409 and "disabled" in refused.json()["detail"]
    assert as_user(organizer).delete(base).status_code == 204
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


def test_at_most_ten_webhooks_per_event(hooked, receiver):
    event, organizer, battle, hook = hooked
    found = receiver()
    for _ in range(services.MOST_PER_EVENT):
        hook(found)
    refused = as_user(organizer).post(f"/api/v1/events/{event.slug}/webhooks/",
                                      {"url": found.url, "kinds": ["result.counted"]}, format="json")
    assert refused.status_code == 409 and "At most 10" in refused.json()["detail"]


def test_the_schema_documents_the_webhook_paths_with_their_refusals(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in ("/api/v1/events/{slug}/webhooks/", "/api/v1/webhooks/",
                 "/api/v1/events/{slug}/webhooks/{id}/deliveries/{delivery_pk}/resend/"):
        assert path in paths, sorted(p for p in paths if "webhook" in p)
    listing = paths["/api/v1/events/{slug}/webhooks/"]["get"]["responses"]
    assert {"200", "401", "403", "404"} <= set(listing)
    assert schema["components"]["schemas"]["WebhookEndpoint"]["properties"]["kinds"]["items"] == {
        "$ref": "#/components/schemas/WebhookKindEnum"}
    assert schema["components"]["schemas"]["WebhookKindEnum"]["enum"] == WebhookEndpoint.Kind.values
