"""Registrations that wait for an organizer's approval: with open sign-up anyone can make an account,
so an event may ask its organizers to approve each player who enters themselves."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.events import membership, services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Event, Registration

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def olga():
    return grant_organizer_role(User.objects.create_user("olga", password="pw-olga-123"))


@pytest.fixture
def event(olga):
    return services.create_event(name="Harbour Open", slug="harbour", actor=olga, approve_registrations=True)


def player(name):
    user = User.objects.create_user(name.lower(), password=f"pw-{name.lower()}-123")
    return user


def status_of(event, user):
    return event.registrations.get(general__user=user).status


def test_a_player_who_joins_waits_for_approval_and_is_not_in_the_field(event):
    ada = player("Ada")
    registration = membership.join(event, ada, name="Ada")
    assert registration.status == Registration.Status.PENDING
    assert list(event.active_registrations()) == []
    assert services.awaiting_approval(event).get().general.name == "Ada"
    assert AuditEntry.objects.filter(event=event, action="registration requested", subject="Ada").exists()


def test_approval_registers_the_general_numbered_as_registered_now(event, olga):
    ada, ben = player("Ada"), player("Ben")
    membership.join(event, ada, name="Ada")
    membership.join(event, ben, name="Ben")
    services.decide_registration(event, ben.general, actor=olga, approve=True)
    services.decide_registration(event, ada.general, actor=olga, approve=True)
    assert [(r.general.name, r.number) for r in event.active_registrations()] == [("Ben", 3), ("Ada", 4)]


def test_a_refusal_needs_a_sentence_which_the_player_reads(event, olga):
    ada = player("Ada")
    membership.join(event, ada, name="Ada")
    with pytest.raises(DomainError, match="why the registration is refused"):
        services.decide_registration(event, ada.general, actor=olga, approve=False, reason="  ")
    services.decide_registration(event, ada.general, actor=olga, approve=False,
                                 reason="This event is for members of the Harbour club.")
    assert status_of(event, ada) == Registration.Status.REFUSED
    page = Client()
    page.force_login(ada)
    body = page.get(f"/events/{event.slug}/").content.decode()
    assert "The organizers refused Ada's registration: This event is for members of the Harbour club." in body
    assert f'action="/events/{event.slug}/join/"' not in body  # no way round the refusal by joining again
    with pytest.raises(Conflict, match="refused"):
        membership.join(event, ada)
    entry = AuditEntry.objects.get(event=event, action="registration refused")
    assert entry.reason == "This event is for members of the Harbour club."


def test_an_invitation_is_the_organizers_approval(event, olga):
    ada = player("Ada")
    general = membership.create_own_general(ada, "Ada")
    invitation = membership.invite(event, general, actor=olga)
    membership.answer_invitation(invitation, user=ada, accept=True)
    assert status_of(event, ada) == Registration.Status.ACTIVE


def test_only_an_organizer_of_the_event_decides(event):
    ada, rival = player("Ada"), grant_organizer_role(player("Rival"))
    services.create_event(name="Rival Cup", slug="rival", actor=rival)
    membership.join(event, ada, name="Ada")
    with pytest.raises(NotAllowed):
        services.decide_registration(event, ada.general, actor=rival, approve=True)
    with pytest.raises(NotAllowed):
        services.decide_registration(event, ada.general, actor=ada, approve=True)  # not their own approval
    assert status_of(event, ada) == Registration.Status.PENDING


def test_a_decision_taken_already_is_a_conflict(event, olga):
    ada = player("Ada")
    membership.join(event, ada, name="Ada")
    services.decide_registration(event, ada.general, actor=olga, approve=True)
    with pytest.raises(Conflict, match="does not wait for approval"):
        services.decide_registration(event, ada.general, actor=olga, approve=False, reason="Too late.")
    assert status_of(event, ada) == Registration.Status.ACTIVE


def test_registration_cannot_close_while_players_wait_for_an_answer(event, olga):
    membership.join(event, player("Ada"), name="Ada")
    with pytest.raises(Conflict, match="1 registration waits for your approval"):
        services.close_registration(event, actor=olga)
    assert Event.objects.get(pk=event.pk).state == Event.State.REGISTRATION


def test_a_player_may_withdraw_their_request(event):
    ada = player("Ada")
    membership.join(event, ada, name="Ada")
    services.withdraw(event, ada.general, actor=ada)
    assert status_of(event, ada) == Registration.Status.WITHDRAWN
    assert not services.awaiting_approval(event).exists()


def test_without_approval_a_player_enters_at_once(olga):
    open_event = services.create_event(name="Open Cup", slug="open-cup", actor=olga)
    ada = player("Ada")
    assert membership.join(open_event, ada, name="Ada").status == Registration.Status.ACTIVE


def test_the_queue_and_refusal_sentences_are_not_public(event, olga):
    ada = player("Ada")
    membership.join(event, ada, name="Ada")
    services.decide_registration(event, ada.general, actor=olga, approve=False, reason="Private reason.")
    stranger = Client()
    assert "Private reason." not in stranger.get(f"/events/{event.slug}/").content.decode()
    listed = stranger.get(f"/api/v1/events/{event.slug}/registrations/").json()
    assert listed == []
    organizer = Client()
    organizer.force_login(olga)
    assert [r["status"] for r in organizer.get(f"/api/v1/events/{event.slug}/registrations/").json()] == ["refused"]


def test_the_organizer_page_approves_and_refuses(event, olga):
    ada, ben = player("Ada"), player("Ben")
    membership.join(event, ada, name="Ada")
    membership.join(event, ben, name="Ben")
    page = Client()
    page.force_login(olga)
    body = page.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Waiting for your approval" in body and "Approve Ada" in body and "Refuse Ben" in body
    page.post(f"/events/{event.slug}/manage/", {"action": "decide_registration", "general": ada.general.pk,
                                                "decision": "approve"})
    answer = page.post(f"/events/{event.slug}/manage/", {"action": "decide_registration", "general": ben.general.pk,
                                                         "decision": "refuse", "reason": "Full, sorry."}, follow=True)
    assert "Ben&#x27;s registration is refused" in answer.content.decode()
    assert status_of(event, ada) == Registration.Status.ACTIVE
    assert status_of(event, ben) == Registration.Status.REFUSED


def test_the_api_decides_with_a_clear_answer(event, olga):
    ada = player("Ada")
    membership.join(event, ada, name="Ada")
    api = Client()
    api.force_login(olga)
    url = f"/api/v1/events/{event.slug}/registrations/decision/"
    missing = api.post(url, {"general": ada.general.pk, "approve": False}, content_type="application/json")
    assert missing.status_code == 400, missing.content
    assert "why the registration is refused" in str(missing.json())
    assert status_of(event, ada) == Registration.Status.PENDING
    done = api.post(url, {"general": ada.general.pk, "approve": True}, content_type="application/json")
    assert done.status_code == 200 and done.json()["status"] == "active"
    again = api.post(url, {"general": ada.general.pk, "approve": True}, content_type="application/json")
    assert again.status_code == 409
    as_player = Client()
    as_player.force_login(ada)
    assert as_player.post(url, {"general": ada.general.pk, "approve": True},
                          content_type="application/json").status_code == 403
