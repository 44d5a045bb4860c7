"""A person's second account, made by signing up again (issue 25: anyone can now make accounts), cannot
act for the general of their first: it cannot confirm, dispute or report that general's battle, claim
it once claimed, or enter it into an event, through the API or the pages. Only the account a general
belongs to acts for it (trust.py, R75-R78)."""
import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api.conftest import as_user
from tournaments.domain import NotAllowed
from tournaments.events import membership, services
from tournaments.models import Battle, General, Registration, Report
from tournaments.results import reporting

pytestmark = pytest.mark.django_db


def second_account_of(first, mailoutbox):
    """The same person signs up again, with another username and address, and verifies it."""
    browser = Client()
    username = f"{first.username}-again"
    answer = browser.post("/accounts/signup/", {"username": username, "email": f"{username}@example.org",
                                                "password1": "Second-Line-42", "password2": "Second-Line-42"})
    assert answer.status_code == 302, answer.content.decode()[:400]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mailoutbox[-1].body).group(0)
    browser.post(urlparse(link).path)
    assert browser.post("/accounts/login/", {"login": username, "password": "Second-Line-42"}).status_code == 302
    return get_user_model().objects.get(username=username), browser


@pytest.fixture
def waiting(event_day, mailoutbox):
    """Ben reported a Victory over Ada; Ada's second account is signed in on the site."""
    event, organizer, battle = event_day
    ada, ben = battle.general_a, battle.general_b
    report = reporting.submit_report(battle, user=ben.user, kind=Battle.Kind.VICTORY, winner=ben, condition="crush")
    second, browser = second_account_of(ada.user, mailoutbox)
    return battle, report, ada, second, browser


def test_a_second_account_cannot_confirm_or_dispute_the_first_accounts_battle_in_the_api(waiting):
    battle, report, _, second, _ = waiting
    api = as_user(second)
    assert api.post(f"/api/v1/reports/{report.pk}/confirm/").status_code in (403, 404)
    assert api.post(f"/api/v1/reports/{report.pk}/dispute/", {"reason": "Not so"}, format="json").status_code in (403, 404)
    report.refresh_from_db()
    battle.refresh_from_db()
    assert report.status == Report.Status.AWAITING_OPPONENT and report.answered_by_id is None
    assert not battle.is_decided


def test_a_second_account_cannot_report_the_first_accounts_battle_in_the_api(waiting):
    battle, _, ada, second, _ = waiting
    answer = as_user(second).post(f"/api/v1/battles/{battle.pk}/reports/",
                                  {"kind": "victory", "winner": ada.pk, "condition": "crush"}, format="json")
    assert answer.status_code == 403, answer.content
    assert battle.reports.count() == 1


def test_a_second_account_cannot_answer_or_report_on_the_pages(waiting):
    battle, report, ada, second, browser = waiting
    confirm = browser.post(f"/reports/{report.pk}/answer/", {"answer": "confirm"}, follow=True).content.decode()
    assert "Only the opponent of the general who reported, or an organizer, may confirm it." in confirm
    dispute = browser.post(f"/reports/{report.pk}/answer/", {"answer": "dispute", "reason": "Not so"}).content.decode()
    assert "Disputed: an organizer will decide." not in dispute and 'name="reason"' not in dispute
    reported = browser.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": ada.pk, "condition": "crush"})
    assert "Only the two generals of this battle and the event&#x27;s organizers may report it." in \
        reported.content.decode()
    report.refresh_from_db()
    assert report.status == Report.Status.AWAITING_OPPONENT and battle.reports.count() == 1


def test_a_second_account_cannot_claim_a_claimed_general(harbour, mailoutbox):
    event, olga = harbour
    walk_in = membership.create_general("Goran Golub", actor=olga)
    code = walk_in.claim_code
    first = get_user_model().objects.create_user("goran", password="pw")
    membership.claim(first, code)
    second, browser = second_account_of(first, mailoutbox)

    api = as_user(second).post("/api/v1/generals/claim/", {"code": code}, format="json")
    assert api.status_code in (400, 404, 409), api.content
    page = browser.post("/claim/", {"code": code})
    assert page.status_code in (200, 400, 404, 409)
    assert "Goran Golub is yours" not in page.content.decode()
    walk_in.refresh_from_db()
    assert walk_in.user_id == first.pk and not General.objects.filter(user=second).exists()


def test_a_second_account_cannot_join_an_event_as_the_first_accounts_general(harbour, mailoutbox):
    event, olga = harbour
    first = get_user_model().objects.create_user("goran", password="pw")
    general = General.objects.create(name="Goran Golub", user=first)
    second, browser = second_account_of(first, mailoutbox)

    same_name = as_user(second).post(f"/api/v1/events/{event.slug}/join/", {"name": "Goran Golub"}, format="json")
    assert same_name.status_code == 409 and same_name.json()["matches"][0]["claimed"] is True
    page = browser.post(f"/events/{event.slug}/join/", {"name": "goran  golub"})
    assert page.status_code in (200, 302, 409)
    assert not Registration.objects.filter(event=event, general=general).exists()

    # Made on purpose, a second general of that name is the second account's own, never the first's.
    own = as_user(second).post(f"/api/v1/events/{event.slug}/join/", {"name": "Goran Golub", "create_new": True},
                               format="json")
    assert own.status_code == 201
    mine = General.objects.get(user=second)
    assert mine.pk != general.pk and Registration.objects.filter(event=event, general=mine).exists()
    assert not Registration.objects.filter(event=event, general=general).exists()
    with pytest.raises(NotAllowed):
        services.register(event, general, actor=second)  # the first's general enters only by its player
