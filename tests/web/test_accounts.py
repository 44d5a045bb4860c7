"""Accounts as a stranger, a player and an attacker meet them (django-allauth, tournaments/accounts/):
signing up with a verified email, signing in by username or email, a reset linked from the sign-in page,
changing the email, the sign-up modes (open, invite-only, closed), answers that never tell whether an
address has an account, the lockout on the sign-in form, and deleting an account while its counted
results stay."""
import re
from urllib.parse import urlparse

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.accounts import signup
from tournaments.events import membership, services
from tournaments.models import (
    AuditEntry,
    Battle,
    General,
    Invitation,
    NotificationSettings,
    Registration,
    SignupInvitation,
    SiteAccess,
)
from tournaments.results import recording

pytestmark = pytest.mark.django_db
PASSWORD = "Keep-the-Line-42"
TOKEN_URL = "/api/v1/auth/token/"


def sign_up(client, username="nadia", email="nadia@example.org", **extra):
    return client.post("/accounts/signup/", {"username": username, "email": email, "password1": PASSWORD,
                                             "password2": PASSWORD, **extra})


def link_in(mail, path_start):
    return urlparse(re.search(rf"https?://\S+{re.escape(path_start)}\S*", mail.body).group(0)).path


def sign_in(client, login, password=PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password})


def token_answer(username, password=PASSWORD):
    return APIClient().post(TOKEN_URL, {"username": username, "password": password}, format="json")


def verified_user(username="vera", email="vera@example.org"):
    user = get_user_model().objects.create_user(username, email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


# --- sign-up, verification, sign-in ---------------------------------------------------------------------

def test_a_stranger_signs_up_verifies_the_email_and_signs_in_by_username_or_email(client, mailoutbox):
    page = client.get("/accounts/signup/").content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in page
    assert 'name="invite"' not in page  # open sign-up asks for no code

    answer = sign_up(client)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/confirm-email/"
    assert "Check your email" in client.get(answer["Location"]).content.decode()
    assert [mail.to for mail in mailoutbox] == [["nadia@example.org"]]
    assert "WARLINE Organized Play" in mailoutbox[0].subject

    # Not verified yet: neither the site nor the API lets the account in.
    stranger = Client()
    refused = sign_in(stranger, "nadia")
    assert refused.status_code == 302 and refused["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in stranger.session
    api = token_answer("nadia")
    assert api.status_code == 403 and api.json()["detail"].startswith("Verify your email first")
    assert not Token.objects.exists()

    confirm = client.get(link_in(mailoutbox[0], "/accounts/confirm-email/"))
    assert "Verify my email" in confirm.content.decode()  # a page with a button: opening the link confirms nothing
    assert not EmailAddress.objects.get(email="nadia@example.org").verified
    client.post(link_in(mailoutbox[0], "/accounts/confirm-email/"))
    assert EmailAddress.objects.get(email="nadia@example.org").verified

    by_name, by_email = Client(), Client()
    assert sign_in(by_name, "nadia")["Location"] == "/"
    assert sign_in(by_email, "nadia@example.org")["Location"] == "/"
    assert by_name.session["_auth_user_id"] == by_email.session["_auth_user_id"]
    assert token_answer("nadia").status_code == 200


def test_an_account_staff_made_without_a_recorded_address_signs_in_as_before(client):
    get_user_model().objects.create_user("walkin", email="walkin@example.org", password=PASSWORD)
    assert sign_in(client, "walkin")["Location"] == "/"
    assert sign_in(Client(), "walkin@example.org")["Location"] == "/"
    assert token_answer("walkin").status_code == 200


def test_a_wrong_password_is_answered_on_the_form_in_words(client):
    verified_user()
    answer = sign_in(client, "vera", "not-it")
    assert answer.status_code == 200
    assert "The username and/or password you specified are not correct." in answer.content.decode()
    assert 'id="form-errors"' in answer.content.decode()


def test_the_sign_in_page_links_the_reset_and_the_reset_works(client, mailoutbox):
    verified_user()
    page = client.get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password/reset/">Forgot your password?</a>' in page
    assert '<label for="id_login">Username or email</label>' in page
    assert client.post("/accounts/password/reset/", {"email": "vera@example.org"})["Location"] == \
        "/accounts/password/reset/done/"
    form = client.get(link_in(mailoutbox[0], "/accounts/password/reset/key/"), follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"password1": "New-Line-43!", "password2": "New-Line-43!"})
    assert done.status_code == 302
    assert sign_in(Client(), "vera", "New-Line-43!")["Location"] == "/"
    assert sign_in(Client(), "vera").status_code == 200  # the old password is refused


def test_the_email_changes_only_once_the_new_address_is_verified(client, mailoutbox):
    user = verified_user()
    client.force_login(user)
    settings_page = client.get("/my/notifications/").content.decode()
    assert 'href="/accounts/email/"' in settings_page and 'href="/my/account/delete/"' in settings_page
    assert client.post("/accounts/email/", {"action_add": "", "email": "vera@new.example.org"}).status_code == 302
    assert mailoutbox[-1].to == ["vera@new.example.org"]
    user.refresh_from_db()
    assert user.email == "vera@example.org"  # mail still goes to the verified address
    assert "Waiting for verification" in client.get("/accounts/email/").content.decode()
    client.post(link_in(mailoutbox[-1], "/accounts/confirm-email/"))
    user.refresh_from_db()
    assert user.email == "vera@new.example.org"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == ["vera@new.example.org"]
    assert mailoutbox[-1].to == ["vera@example.org"]  # the old address is told, in case it was not its owner


def test_signing_out_is_a_post_from_the_header(client):
    client.force_login(verified_user())
    page = client.get("/").content.decode()
    assert 'action="/accounts/logout/"' in page
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


# --- sign-up modes -------------------------------------------------------------------------------------

def test_closed_sign_up_says_so_and_takes_no_account(client, settings):
    settings.OPP_SIGNUP = "closed"
    page = client.get("/accounts/signup/").content.decode()
    assert "Sign-up is closed" in page and "<form method=\"post\" action=\"/accounts/signup/" not in page
    sign_up(client)
    assert not get_user_model().objects.filter(username="nadia").exists()
    home = client.get("/").content.decode()
    assert 'href="/accounts/signup/"' not in home and "/accounts/login/" in home


def test_the_admin_row_wins_over_the_setting(client, settings):
    settings.OPP_SIGNUP = "closed"
    SiteAccess.objects.create(signup=SiteAccess.Signup.OPEN)
    assert signup.signup_mode() == "open"
    assert 'href="/accounts/signup/"' in client.get("/").content.decode()


def test_invite_only_sign_up_takes_one_valid_unused_code(client, mailoutbox):
    SiteAccess.objects.create(signup=SiteAccess.Signup.INVITE)
    invitation = SignupInvitation.objects.create(note="Harbour club")
    page = client.get(f"/accounts/signup/?invite={invitation.code}").content.decode()
    assert f'value="{invitation.code}"' in page and "by invitation only" in page

    missing = sign_up(client)
    assert missing.status_code == 200 and "enter the invitation code" in missing.content.decode()
    wrong = sign_up(client, invite="made-up-code")
    assert "not valid or has been used already" in wrong.content.decode()
    assert not get_user_model().objects.filter(username="nadia").exists()

    assert sign_up(client, invite=invitation.code).status_code == 302
    invitation.refresh_from_db()
    assert invitation.used_by.username == "nadia" and invitation.used_at is not None

    again = sign_up(Client(), username="second", email="second@example.org", invite=invitation.code)
    assert again.status_code == 200 and "not valid or has been used already" in again.content.decode()
    assert not get_user_model().objects.filter(username="second").exists()


def test_a_code_taken_between_the_check_and_the_save_is_refused_on_the_form(client, monkeypatch):
    """The race of two sign-ups with one code: the loser passed the form's check, then finds the row taken
    under its lock; no account is made and the form says why."""
    SiteAccess.objects.create(signup=SiteAccess.Signup.INVITE)
    invitation = SignupInvitation.objects.create()
    first = get_user_model().objects.create_user("first")
    SignupInvitation.objects.filter(pk=invitation.pk).update(used_by=first, used_at="2026-01-01T00:00:00Z")
    monkeypatch.setattr(signup, "invitation_refusal", lambda code: None)  # the form's check ran before the taking
    answer = sign_up(client, invite=invitation.code)
    assert answer.status_code == 200 and "not valid or has been used already" in answer.content.decode()
    assert not get_user_model().objects.filter(username="nadia").exists()
    assert not EmailAddress.objects.filter(email="nadia@example.org").exists()


def test_sign_ups_from_one_address_are_limited_with_a_page_in_words(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "1/h/ip"}
    assert sign_up(client).status_code == 302
    limited = sign_up(client, username="other", email="other@example.org")
    assert limited.status_code == 429 and "Too many requests" in limited.content.decode()
    assert "<main>" in limited.content.decode()


# --- no enumeration --------------------------------------------------------------------------------------

def test_reset_answers_alike_for_a_known_and_an_unknown_address(mailoutbox):
    verified_user()
    known = Client().post("/accounts/password/reset/", {"email": "vera@example.org"}, follow=True)
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [("/accounts/password/reset/done/", 302)]
    assert known.content == unknown.content
    # Only the address's owner learns which: a link, or a note that no account has the address.
    assert [mail.to for mail in mailoutbox] == [["vera@example.org"], ["nobody@example.org"]]
    assert "/accounts/password/reset/key/" in mailoutbox[0].body
    assert "/accounts/password/reset/key/" not in mailoutbox[1].body


def test_sign_up_answers_alike_whether_the_address_has_an_account(mailoutbox):
    verified_user()
    taken = sign_up(Client(), username="imposter", email="vera@example.org")
    fresh = sign_up(Client(), username="newcomer", email="newcomer@example.org")
    assert taken.status_code == fresh.status_code == 302 and taken["Location"] == fresh["Location"]
    assert not get_user_model().objects.filter(username="imposter").exists()
    assert {mail.to[0] for mail in mailoutbox} == {"vera@example.org", "newcomer@example.org"}


# --- lockout -----------------------------------------------------------------------------------------

def test_wrong_passwords_lock_the_account_out_whether_typed_as_username_or_email(client, settings):
    verified_user()
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = sign_in(client, "vera" if attempt % 2 else "vera@example.org", "guess")
        assert wrong.status_code == 200
    assert sign_in(client, "vera@example.org", "guess").status_code == 429  # the failure that locks
    locked = sign_in(client, "vera")  # the right password, the username this time
    assert locked.status_code == 429
    assert "Too many failed sign-ins for this username from your address" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert sign_in(Client(REMOTE_ADDR="10.8.8.8"), "vera")["Location"] == "/"  # not from elsewhere


# --- deleting an account ------------------------------------------------------------------------------

@pytest.fixture
def played(organizer):
    """Ada (of eight players in two groups) with a counted Victory, a token and email settings."""
    from tests.web.conftest import grouped_event

    event = grouped_event(organizer, name="Harbour Cup", slug="harbour-cup", seed=7)
    ada = General.objects.get(name="Ada")
    battle = Battle.objects.filter(group__event=event).filter(general_a=ada).first() or \
        Battle.objects.filter(group__event=event, general_b=ada).first()
    recording.record_result(battle, kind="victory", winner=ada, condition="crush", actor=organizer)
    user = ada.user
    EmailAddress.objects.create(user=user, email="ada@example.org", verified=True, primary=True)
    Token.objects.create(user=user)
    NotificationSettings.objects.get_or_create(user=user)
    return event, ada, battle


def test_deleting_an_account_keeps_the_general_and_its_results_under_its_name(client, played):
    event, ada, battle = played
    user = ada.user
    client.force_login(user)
    page = client.get("/my/account/delete/").content.decode()
    assert "Keep the name Ada" in page and f"Former general {ada.pk}" in page
    answer = client.post("/my/account/delete/", {"password": "pw", "name": "keep"}, follow=True)
    assert "Your account is deleted" in answer.content.decode()
    assert "_auth_user_id" not in client.session

    ada.refresh_from_db()
    battle.refresh_from_db()
    assert (ada.name, ada.user_id, ada.claim_code) == ("Ada", None, "")
    assert battle.winner_id == ada.pk and battle.kind == "victory"
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert not Token.objects.filter(user_id=user.pk).exists()
    assert not EmailAddress.objects.filter(email="ada@example.org").exists()
    assert not NotificationSettings.objects.filter(user_id=user.pk).exists()
    assert AuditEntry.objects.filter(event=event, action="player left", subject="Ada").exists()
    assert "Ada" in client.get(f"/events/{event.slug}/").content.decode()  # still in the standings


def test_deleting_an_account_may_rename_the_general_anonymously(client, played):
    event, ada, battle = played
    client.force_login(ada.user)
    client.post("/my/account/delete/", {"password": "pw", "name": "anonymous"})
    ada.refresh_from_db()
    assert ada.name == f"Former general {ada.pk}" and ada.user_id is None
    entry = AuditEntry.objects.get(event=event, action="general renamed")
    assert entry.before == {"name": "Ada"} and entry.after == {"name": f"Former general {ada.pk}"}
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert f"Former general {ada.pk}" in page and ">Ada<" not in page


def test_a_departed_players_record_cannot_be_handed_to_someone_else(client, played, organizer):
    """The general looks unclaimed now, but its organizers cannot make a new claim code for it (someone
    else would take over the record) nor enter it into another event."""
    from tournaments.domain import NotAllowed
    from tournaments.events import membership, services

    event, ada, _ = played
    client.force_login(ada.user)
    client.post("/my/account/delete/", {"password": "pw", "name": "keep"})
    ada.refresh_from_db()
    assert ada.player_left_at is not None and ada.claim_code == ""
    with pytest.raises(NotAllowed):
        membership.renew_claim_code(ada, actor=organizer)
    later = services.create_event(name="Autumn Cup", slug="autumn-cup", actor=organizer)
    with pytest.raises(NotAllowed):
        membership.register_by_organizer(later, actor=organizer, general=ada)
    ada.refresh_from_db()
    assert ada.claim_code == "" and not later.registrations.exists()


def test_deleting_needs_the_password_and_a_choice(client, played):
    _, ada, _ = played
    client.force_login(ada.user)
    wrong = client.post("/my/account/delete/", {"password": "guess", "name": "keep"})
    assert wrong.status_code == 200 and "That is not your password." in wrong.content.decode()
    no_choice = client.post("/my/account/delete/", {"password": "pw"})
    assert "Choose how your general appears in past results." in no_choice.content.decode()
    assert get_user_model().objects.filter(pk=ada.user_id).exists()


def test_the_owner_of_an_event_still_running_hands_it_over_first(client, played, organizer):
    event, _, _ = played
    client.force_login(organizer)
    page = client.get("/my/account/delete/").content.decode()
    assert "You own Harbour Cup, which is not complete: hand it over to a co-organizer" in page
    assert 'name="password"' not in page
    client.post("/my/account/delete/", {"password": "pw", "name": "keep"})
    assert get_user_model().objects.filter(pk=organizer.pk).exists()


def test_deleting_withdraws_from_events_still_taking_registrations(client, harbour):
    event, olga = harbour
    other = services.create_event(name="Quay Open", slug="quay-open", actor=olga)
    user = get_user_model().objects.create_user("ines", password="pw")
    general = General.objects.create(name="Ines", user=user)
    membership.join(event, user)
    invitation = membership.invite(other, general, actor=olga)
    client.force_login(user)
    client.post("/my/account/delete/", {"password": "pw", "name": "keep"})
    assert Registration.objects.get(event=event, general=general).status == Registration.Status.WITHDRAWN
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert AuditEntry.objects.filter(event=event, action="withdrawn", subject="Ines",
                                     reason="The player deleted their account.").exists()
