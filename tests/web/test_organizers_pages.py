"""Generals belong to their events (R96) and organizers are chosen with consent and have an owner
(R95), on the organizer pages with the page client."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.events import membership, services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General, OrganizerInvitation

pytestmark = pytest.mark.django_db
User = get_user_model()


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_co_organizer_is_invited_on_the_page_and_accepts_on_hers(harbour):
    event, olga = harbour
    cora = grant_organizer_role(User.objects.create_user("cora"))
    owner = signed_in(olga)
    invited = owner.post("/events/harbour/manage/", {"action": "add_organizer", "username": "cora"}, follow=True)
    assert "cora is invited to organize Harbour Open" in invited.content.decode()
    assert not event.organizers.filter(pk=cora.pk).exists()
    invitation = OrganizerInvitation.objects.get(event=event, user=cora)
    assert signed_in(User.objects.create_user("eve")).get(f"/organizer-invitations/{invitation.pk}/").status_code == 404
    page = signed_in(cora).get(f"/organizer-invitations/{invitation.pk}/").content.decode()
    assert "olga invites you" in page and "Harbour Open" in page
    accepted = signed_in(cora).post(f"/organizer-invitations/{invitation.pk}/", {"answer": "accept"})
    assert accepted.status_code == 302 and accepted["Location"] == "/events/harbour/manage/"
    assert event.organizers.filter(pk=cora.pk).exists()


def test_the_page_refuses_an_account_without_the_organizer_permission(harbour):
    event, olga = harbour
    User.objects.create_user("plain")
    page = signed_in(olga).post("/events/harbour/manage/", {"action": "add_organizer", "username": "plain"})
    assert "does not hold the organizer permission" in page.content.decode()
    assert not OrganizerInvitation.objects.exists() and event.organizers.count() == 1


def test_a_co_organizer_cannot_remove_the_owner_on_the_page(harbour):
    event, olga = harbour
    cora = grant_organizer_role(User.objects.create_user("cora"))
    membership.answer_organizer_invitation(membership.invite_organizer(event, "cora", actor=olga), user=cora,
                                           accept=True)
    refused = signed_in(cora).post("/events/harbour/manage/", {"action": "remove_organizer", "username": "olga"})
    assert refused.status_code == 403 and "nobody removes the owner" in refused.content.decode()
    assert signed_in(olga).get("/events/harbour/manage/").status_code == 200
    # The owner hands the event over on the page.
    page = signed_in(olga).get("/events/harbour/manage/").content.decode()
    assert "Make owner" in page and "Make owner" not in signed_in(cora).get("/events/harbour/manage/").content.decode()
    signed_in(olga).post("/events/harbour/manage/", {"action": "hand_over", "username": "cora"})
    event.refresh_from_db()
    assert event.owner == cora


def test_a_rival_organizer_cannot_register_another_events_walk_in_on_his_page(harbour):
    event, olga = harbour
    signed_in(olga).post("/events/harbour/manage/", {"action": "register", "name": "Walter Walk"})
    walter = General.objects.get(name="Walter Walk")
    rex = grant_organizer_role(User.objects.create_user("rex"))
    services.create_event(name="Rex Secret", slug="rex-secret", actor=rex, published=False)
    rival = signed_in(rex)
    page = rival.post("/events/rex-secret/manage/", {"action": "register", "name": "Walter Walk",
                                                     "general": walter.pk}).content.decode()
    assert "Register a new general instead" in page
    assert not walter.registrations.filter(event__slug="rex-secret").exists()
    assert walter.claim_code not in rival.get("/events/rex-secret/manage/").content.decode()
    assert walter.claim_code in signed_in(olga).get("/events/harbour/manage/").content.decode()
    assert Event.objects.get(slug="rex-secret").registrations.count() == 0
