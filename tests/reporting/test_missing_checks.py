"""Checks a deliberately wrong change in the trust model must trip, written as the players and the
organizer would notice them: two player accounts and an organizer, through the API and the pages.

Each test names the place it guards: an engine-checked report is not confirmed by an opponent who
reports another result, even with the same log; two uploads are not "the same battle" because their turns match; a newer
report of a general replaces their older one; a complete event takes no result and no report; a
report naming the wrong Player-1 is disputed by the replay (R73); the confirmation window has an
upper bound (30 days) wherever an organizer sets it.
"""
import copy
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.reporting.conftest import replay_between
from tournaments.models import Event, Report
from tournaments.results import confirmation

pytestmark = pytest.mark.django_db

MAX_WINDOW = 60 * 24 * 30  # 30 days, in minutes


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def page_client(user):
    client = Client()
    client.force_login(user)
    return client


def post_report(user, battle, callbacks, **body):
    """A report through the API, its replay adjudicated in-process as the worker would."""
    with callbacks(execute=True):
        return as_user(user).post(f"/api/v1/battles/{battle.pk}/reports/", body, format="json")


def report_status(user, report_id):
    return as_user(user).get(f"/api/v1/reports/{report_id}/").json()


def counted_result(battle, user):
    """The battle's counted result as the API shows it (None while nothing counts)."""
    return as_user(user).get(f"/api/v1/battles/{battle.pk}/").json()["result"]


def checked_report_by_a(battle, callbacks):
    """Ada uploads the genuine log of her victory by Shackle (she is p1): the engine checks it."""
    a, b = battle.general_a, battle.general_b
    created = post_report(a.user, battle, callbacks, kind="victory", winner=a.pk, condition="shackle",
                          replay=replay_between("victory-shackle", a, b))
    assert created.status_code == 201, created.content
    report = report_status(a.user, created.json()["id"])
    assert report["status"] == "checked", report
    return report


# --- 1. an engine-checked report and an opponent who reports another result ------------------------

@pytest.mark.parametrize("with_replay", [False, True], ids=["without-replay", "with-the-same-log"])
def test_an_engine_checked_report_is_disputed_not_confirmed_when_the_opponent_reports_another_result(
        event_day, django_capture_on_commit_callbacks, with_replay):
    """Guards reporting._answer_with_report: a report the engine checked is confirmed by the opponent's
    report only when it claims the same result; another result disputes both, also when the opponent
    uploads the very same log (a log proves the battle was legal, not who won it: R92)."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = checked_report_by_a(battle, django_capture_on_commit_callbacks)
    body = {"kind": "victory", "winner": b.pk, "condition": "crush"}
    if with_replay:
        body["replay"] = replay_between("victory-shackle", a, b, meta={"tool": "Ben's phone"})
    answer = post_report(b.user, battle, django_capture_on_commit_callbacks, **body)
    assert answer.status_code == 201, answer.content
    assert report_status(b.user, answer.json()["id"])["status"] == "disputed"
    first = report_status(a.user, first["id"])
    assert first["status"] == "disputed" and "reported another result" in first["status_reason"]
    assert counted_result(battle, organizer) is None  # nothing counts: the organizer decides
    queue = as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/").json()
    assert first["id"] in [r["id"] for r in queue]


# --- 2. two uploads are the same battle only when everything but `meta` matches --------------------

def _formation_changed(document):
    first = document["formation"][0]
    first["facing"] = "S" if first["facing"] != "S" else "N"


def _sides_swapped(document):
    generals = document["generals"]
    generals["p1"]["name"], generals["p2"]["name"] = generals["p2"]["name"], generals["p1"]["name"]


def _kingdom_changed(document):
    document["generals"]["p2"]["kingdom"] = "frost"  # the same names, another general's army


def _control_changed(document):
    document["rules"]["control"] = {"d4": "p1"}  # another board: a zone the p1 kingdom controls


def _variants_changed(document):
    document["rules"]["variants"] = ["double_time"]


def _board_changed(document):
    document["rules"]["board"]["height"] += 1


@pytest.mark.parametrize("change", [_formation_changed, _sides_swapped, _kingdom_changed, _control_changed,
                                    _variants_changed, _board_changed],
                         ids=["another-formation", "sides-swapped", "another-kingdom", "another-control",
                              "other-variants", "another-board-size"])
def test_an_upload_that_shares_only_the_turns_is_not_the_same_battle(event_day,
                                                                      django_capture_on_commit_callbacks, change):
    """Guards agreement.same_battle (its only other test is the positive one): Ben claims the same
    result as Ada but uploads a log with exactly her turns and another formation, the generals on the
    other sides, another kingdom for a side, another board (controlled zones, size) or other variants. That is not the log Ada uploaded: refused, or a
    dispute for the organizer, never Ada's checked report confirmed by it (R92)."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = checked_report_by_a(battle, django_capture_on_commit_callbacks)
    other = replay_between("victory-shackle", a, b)
    change(other)
    assert other["turns"] == replay_between("victory-shackle", a, b)["turns"]
    answer = post_report(b.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=copy.deepcopy(other))
    first = report_status(a.user, first["id"])
    if answer.status_code == 400:  # refused outright (a log that names the sides wrongly): nothing changed
        assert first["status"] == "checked"
    else:
        assert answer.status_code == 201, answer.content
        assert first["status"] == "disputed", first
    assert counted_result(battle, organizer) is None


# --- 3. a general's newer report replaces their older one -----------------------------------------

def test_a_generals_newer_report_supersedes_the_older_one(event_day):
    """Guards submit_report's superseding: Ada corrects her report; Ben sees one report to answer, the
    old one cannot be confirmed any more, and when the window passes the *newer* claim counts."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    older = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                 {"kind": "victory", "winner": a.pk, "condition": "crush"}, format="json").json()
    newer = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"},
                                 format="json")
    assert newer.status_code == 201, newer.content
    newer = newer.json()
    assert report_status(a.user, older["id"])["status"] == "superseded"
    waiting = as_user(b.user).get("/api/v1/me/").json()["awaiting_my_confirmation"]
    assert [r["id"] for r in waiting] == [newer["id"]]
    assert as_user(b.user).post(f"/api/v1/reports/{older['id']}/confirm/").status_code == 409
    confirmation.confirm_expired(now=timezone.now() + timedelta(minutes=event.confirmation_minutes + 1))
    decided = counted_result(battle, organizer)
    assert decided["kind"] == "stalemate" and decided["winner"] is None
    assert report_status(a.user, newer["id"])["status"] == "confirmed"


# --- 4. a complete event takes no result and no report --------------------------------------------

def _play_to_the_end(event, organizer):
    """The organizer records every battle until a Victor is crowned: both qualifying groups, then the
    Final Group (4 generals in 2 groups of 2)."""
    for _ in range(3):
        battle = event.battles.filter(kind="").select_related("general_a").first()
        answer = as_user(organizer).post(f"/api/v1/battles/{battle.pk}/result/",
                                         {"kind": "victory", "winner": battle.general_a_id,
                                          "condition": "shackle"}, format="json")
        assert answer.status_code == 200, answer.content
    assert as_user(organizer).get(f"/api/v1/events/{event.slug}/").json()["state"] == "complete"


def test_a_complete_event_refuses_an_organizers_correction(event_day):
    """Guards record_result's refusal on a complete event: the final's result stays as crowned."""
    event, organizer, battle = event_day
    _play_to_the_end(event, organizer)
    final = event.battles.get(group__stage="final")
    loser = final.general_b
    answer = as_user(organizer).post(f"/api/v1/battles/{final.pk}/result/",
                                     {"kind": "victory", "winner": loser.pk, "condition": "crush",
                                      "reason": "A late complaint."}, format="json")
    assert answer.status_code == 409 and "complete" in answer.json()["detail"]
    shown = counted_result(final, organizer)
    assert shown["winner"] == final.general_a_id and shown["condition"] == "shackle"
    event.refresh_from_db()
    assert event.victor_id == final.general_a_id


def test_a_complete_event_refuses_a_players_report_on_a_battle_never_played(event_day):
    """Guards submit_report's refusal on a complete event. A battle of a finished event can stay
    unplayed (e.g. an imported archive of an event that ended early); the event is marked complete
    directly here, as such an import leaves it."""
    event, organizer, battle = event_day
    Event.objects.filter(pk=event.pk).update(state=Event.State.COMPLETE)
    a, b = battle.general_a, battle.general_b
    for user, body in ((a.user, {"kind": "victory", "winner": a.pk, "condition": "crush"}),
                       (b.user, {"kind": "stalemate"})):
        answer = as_user(user).post(f"/api/v1/battles/{battle.pk}/reports/", body, format="json")
        assert answer.status_code == 409 and "complete" in answer.json()["detail"], answer.content
    assert not Report.objects.filter(battle=battle).exists()
    assert counted_result(battle, organizer) is None


# --- 5. a report naming the wrong Player-1 ----------------------------------------------------------

def test_a_report_naming_the_wrong_player_1_is_disputed_by_the_replay(event_day,
                                                                      django_capture_on_commit_callbacks):
    """Guards compare_with_report's Player-1 check (R73: Player-1 is decided by the Challenge and
    the replay records it): Ada is p1 in the log; a report saying Ben was Player-1 is disputed with
    the sentence, and Ben cannot confirm it: an organizer decides."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    wrong = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                        condition="shackle", player_1=b.pk, replay=replay_between("victory-shackle", a, b))
    sentence = f"The report says {b.name} was Player-1; the replay says {a.name}"
    if wrong.status_code == 400:  # refused as it is made: nothing is stored
        assert wrong.json()["detail"].startswith(sentence) and "replay" in wrong.json()["fields"]
        assert not Report.objects.filter(battle=battle).exists()
    else:  # or taken, and disputed by the replay: an organizer decides, not Ben
        assert wrong.status_code == 201, wrong.content
        report = report_status(a.user, wrong.json()["id"])
        assert report["status"] == "disputed" and report["status_reason"].startswith(sentence)
        assert as_user(b.user).post(f"/api/v1/reports/{report['id']}/confirm/").status_code in (403, 409)
    confirmation.confirm_expired(now=timezone.now() + timedelta(days=31))
    assert counted_result(battle, organizer) is None


def test_a_report_naming_the_right_player_1_is_checked(event_day, django_capture_on_commit_callbacks):
    """The counterpart: the same report with Ada as Player-1 agrees with the replay."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    right = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                        condition="shackle", player_1=a.pk, replay=replay_between("victory-shackle", a, b))
    assert report_status(a.user, right.json()["id"])["status"] == "checked"


# --- 6. the confirmation window's upper bound ---------------------------------------------------------

def test_the_api_refuses_a_window_above_30_days_and_takes_30_days(event_day):
    """Guards the event serializer's bound (creating) and confirmation.set_window's (changing)."""
    event, organizer, battle = event_day
    too_long = as_user(organizer).patch(f"/api/v1/events/{event.slug}/",
                                        {"confirmation_minutes": MAX_WINDOW + 1}, format="json")
    assert too_long.status_code == 400 and "confirmation_minutes" in too_long.json()["fields"]
    event.refresh_from_db()
    assert event.confirmation_minutes == 30
    longest = as_user(organizer).patch(f"/api/v1/events/{event.slug}/", {"confirmation_minutes": MAX_WINDOW},
                                       format="json")
    assert longest.status_code == 200 and longest.json()["confirmation_minutes"] == MAX_WINDOW
    created = as_user(organizer).post("/api/v1/events/", {"slug": "long-wait", "name": "Long Wait",
                                                          "confirmation_minutes": MAX_WINDOW + 1}, format="json")
    assert created.status_code == 400 and "confirmation_minutes" in created.json()["fields"]
    assert not Event.objects.filter(slug="long-wait").exists()


def test_the_manage_page_refuses_a_window_above_30_days(event_day):
    """Guards confirmation.set_window's bound, which the organizer's page reaches without a form."""
    event, organizer, battle = event_day
    client = page_client(organizer)
    page = client.post(f"/events/{event.slug}/manage/", {"action": "set_window",
                                                         "confirmation_minutes": MAX_WINDOW + 1}, follow=True)
    assert "between 1 minute and 30 days" in page.content.decode()
    event.refresh_from_db()
    assert event.confirmation_minutes == 30
    client.post(f"/events/{event.slug}/manage/", {"action": "set_window", "confirmation_minutes": MAX_WINDOW})
    event.refresh_from_db()
    assert event.confirmation_minutes == MAX_WINDOW


def test_the_new_event_page_refuses_a_window_above_30_days(event_day):
    """Guards the event form's bound."""
    event, organizer, battle = event_day
    client = page_client(organizer)
    fields = {"name": "Long Wait", "slug": "long-wait", "kind": "tournament", "forfeit_award_opp": 1,
              "forfeits_to_disqualify": 2, "time_zone": "UTC"}
    refused = client.post("/events/new/", {**fields, "confirmation_minutes": MAX_WINDOW + 1})
    assert refused.status_code == 200 and not Event.objects.filter(slug="long-wait").exists()
    assert "confirmation_minutes" in refused.context["form"].errors
    assert client.post("/events/new/", {**fields, "confirmation_minutes": MAX_WINDOW}).status_code == 302
    assert Event.objects.get(slug="long-wait").confirmation_minutes == MAX_WINDOW

