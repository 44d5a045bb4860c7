"""The trust model on the pages (R75-R78): joining, same names, claiming, confirming a disqualification."""
import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.membership import grant_organizer_role
from tournaments.models import Event, General

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def organizer(client):
    user = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    client.force_login(user)
    return user


def test_the_organizer_is_shown_the_general_of_the_same_name(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    goran = General.objects.create(name="Goran Golub", user=User.objects.create_user("goran"))
    page = client.post("/events/quay/manage/", {"action": "register", "name": "goran  golub"}).content.decode()
    assert "Invite Goran Golub" in page and "Create a new general named" in page
    assert not event.registrations.exists() and General.objects.count() == 1
    client.post("/events/quay/manage/", {"action": "invite", "general": goran.pk})
    assert event.invitations.get().general == goran and not event.registrations.exists()
    client.force_login(goran.user)
    page = client.get("/events/quay/").content.decode()
    assert "You are invited" in page
    client.post(f"/invitations/{event.invitations.get().pk}/answer/", {"answer": "accept"})
    assert event.registrations.get().general == goran


def test_a_member_joins_a_league_from_its_page_and_withdraws(client, organizer):
    services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    client.force_login(User.objects.create_user("mira"))
    page = client.get("/events/pier/").content.decode()
    assert "You have no general yet" in page
    client.post("/events/pier/join/", {"name": "Mira Marsh"})
    event = Event.objects.get(slug="pier")
    assert event.registrations.get(status="active").general.name == "Mira Marsh"
    assert event.confirmation_minutes == 3 * 24 * 60
    client.post("/events/pier/withdraw/")
    assert event.registrations.get().status == "withdrawn"


def test_a_player_claims_their_general_with_the_link(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    client.post("/events/quay/manage/", {"action": "register", "name": "Hana Horvat"})
    general = event.registrations.get().general
    page = client.get("/events/quay/manage/").content.decode()
    assert f"/claim/{general.claim_code}/" in page
    hana = User.objects.create_user("hana")
    client.force_login(hana)
    client.post(f"/claim/{general.claim_code}/", {"code": general.claim_code})
    general.refresh_from_db()
    assert general.user == hana and general.claim_code == ""


def test_disqualifying_asks_for_confirmation(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    generals = [General.objects.create(name=name) for name in ("Ada", "Ben", "Cyd", "Dov")]
    for general in generals:
        services.register(event, general, actor=organizer)
    services.form_groups(event, 2, "random", seed=1, actor=organizer)
    form = {"action": "disqualify", "general": generals[0].pk, "reason": "conduct", "details": "Threw dice"}
    page = client.post("/events/quay/manage/", form).content.decode()
    assert "Tick the box to confirm" in page and not event.disqualifications.exists()
    client.post("/events/quay/manage/", dict(form, confirm="on"))
    assert event.disqualifications.get().general == generals[0]
