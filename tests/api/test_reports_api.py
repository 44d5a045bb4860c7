"""Reports through the API: who may report, confirm, dispute and override, and upload limits."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.reporting.conftest import replay_between
from tournaments.leagues import seasons
from tournaments.models import Report

pytestmark = pytest.mark.django_db


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_player_reports_with_a_json_replay_the_verdict_checks_and_the_opponent_confirms(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    body = {"kind": "victory", "winner": a.pk, "condition": "shackle",
            "replay": replay_between("victory-shackle", a, b)}
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", body, format="json")
    assert response.status_code == 201, response.content
    report = as_user(a.user).get(f"/api/v1/reports/{response.json()['id']}/").json()
    assert report["status"] == "checked" and report["adjudication"]["verdict"]["opp"] == {"p1": 5, "p2": 0}
    assert report["waiting_for"] == {"id": b.pk, "name": b.name} and 0 < report["seconds_left"] <= 30 * 60
    confirmed = as_user(b.user).post(f"/api/v1/reports/{report['id']}/confirm/").json()
    assert confirmed["status"] == "confirmed" and confirmed["seconds_left"] is None


def test_a_multipart_upload_works_and_an_oversized_one_is_refused(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    big = SimpleUploadedFile("big.json", b"{" + b" " * (1024 * 1024 + 1) + b"}")
    refused = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                   {"kind": "victory", "winner": a.pk, "condition": "crush", "replay": big})
    assert refused.status_code == 400 and "replay" in refused.json()["fields"]
    assert not Report.objects.exists()
    upload = SimpleUploadedFile("ok.json", json.dumps(replay_between("victory-shackle", a, b)).encode())
    with django_capture_on_commit_callbacks(execute=True):
        accepted = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                        {"kind": "victory", "winner": a.pk, "condition": "shackle",
                                         "replay": upload})
    assert accepted.status_code == 201 and accepted.json()["has_replay"]


def test_strangers_may_not_report_and_the_opponent_answers(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    stranger = get_user_model().objects.create_user("sam")
    refused = as_user(stranger).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    created = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                   {"kind": "victory", "winner": a.pk, "condition": "blunt"}, format="json").json()
    assert created["status"] == "awaiting_opponent"
    assert as_user(a.user).post(f"/api/v1/reports/{created['id']}/confirm/").status_code == 403
    disputed = as_user(b.user).post(f"/api/v1/reports/{created['id']}/dispute/", {"reason": "No blunt"},
                                    format="json")
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    # A dispute stays: the reporter can neither confirm nor withdraw it (only Ben, or an organizer).
    assert as_user(a.user).post(f"/api/v1/reports/{created['id']}/confirm/").status_code == 403
    assert as_user(a.user).post(f"/api/v1/reports/{created['id']}/withdraw-dispute/").status_code == 403
    queue = as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/").json()
    assert [r["id"] for r in queue] == [created["id"]]
    assert as_user(a.user).get(f"/api/v1/events/{event.slug}/queue/").status_code == 403
    no_reason = as_user(organizer).post(f"/api/v1/reports/{created['id']}/override/", {}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["fields"]
    overridden = as_user(organizer).post(f"/api/v1/reports/{created['id']}/override/",
                                         {"reason": "Witnessed", "kind": "stalemate", "condition": ""},
                                         format="json")
    assert overridden.status_code == 200 and overridden.json()["status"] == "overridden"
    battle.refresh_from_db()
    assert battle.kind == "stalemate"


def test_the_opponent_confirms_through_the_api(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = as_user(b.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                   {"kind": "resolve"}, format="json").json()
    confirmed = as_user(a.user).post(f"/api/v1/reports/{created['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    assert as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"},
                                format="json").status_code == 409


def test_closing_a_season_is_for_organizers(db):
    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role

    olga, sam = (get_user_model().objects.create_user(n) for n in ("olga", "sam"))
    league = services.create_event(name="L", slug="l", kind="league", actor=grant_organizer_role(olga))
    season = seasons.open_season(league, "S1")
    assert as_user(sam).post(f"/api/v1/seasons/{season.pk}/close/").status_code == 403
    assert as_user(olga).post(f"/api/v1/seasons/{season.pk}/close/").status_code == 200
