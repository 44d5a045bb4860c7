"""A league through the API: members report their own arranged battles (as any report), organizers
remove battles, close and reopen seasons; closed seasons and decided playoffs refuse with 409."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.reporting.conftest import replay_between
from tests.tournaments.helpers import make_league
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Battle, Report, Season
from tournaments.results import arranged, recording

from .conftest import as_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    event, organizer, members = make_league(("Ada", "Ben", "Cyd", "Dov"))
    season = seasons.open_season(event, "Autumn", actor=organizer)
    return event, organizer, members, season


def test_a_member_reports_an_arranged_battle_with_a_json_replay(league, django_capture_on_commit_callbacks):
    event, organizer, (ada, ben, *_rest), season = league
    body = {"opponent": ben.pk, "kind": "victory", "winner": ada.pk, "condition": "shackle",
            "replay": replay_between("victory-shackle", ada, ben)}
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/", body, format="json")
    assert response.status_code == 201, response.content
    battle = Battle.objects.get(pk=response.json()["id"])
    report = battle.reports.get()
    assert report.reported_by == ada.user and report.replay  # the same submission as any report
    assert report.status == Report.Status.CHECKED and not battle.kind  # the engine agrees; Ben has not (R75)
    assert as_user(ben.user).post(f"/api/v1/reports/{report.pk}/confirm/").status_code == 200
    battle.refresh_from_db()
    assert battle.winner == ada and battle.player_1 == ada  # Player-1 from the replay


def test_a_member_reports_a_forfeit_with_player_1_and_the_opponent_confirms(league):
    event, organizer, (ada, ben, *_rest), season = league
    response = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/",
                                      {"opponent": ben.pk, "kind": "forfeit", "forfeited_by": ben.pk,
                                       "player_1": ada.pk}, format="json")
    assert response.status_code == 201, response.content
    report = Report.objects.get()
    assert report.status == Report.Status.AWAITING_OPPONENT and report.player_1 == ada
    assert as_user(ben.user).post(f"/api/v1/reports/{report.pk}/confirm/").status_code == 200
    battle = Battle.objects.get()
    assert battle.kind == Battle.Kind.FORFEIT and battle.forfeited_by == ben


def test_a_member_uploads_the_replay_as_a_file(league, django_capture_on_commit_callbacks):
    event, organizer, (ada, ben, *_rest), season = league
    upload = SimpleUploadedFile("battle.json", json.dumps(replay_between("stalemate", ada, ben)).encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/",
                                          {"opponent": ben.pk, "kind": "stalemate", "replay": upload})
    assert response.status_code == 201, response.content
    assert Report.objects.get().replay


def test_members_report_only_their_own_battles(league):
    event, organizer, (ada, ben, cyd, dov), season = league
    others = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/",
                                    {"general_a": cyd.pk, "general_b": dov.pk}, format="json")
    assert others.status_code == 403 and "organizer" in others.json()["detail"]
    stranger = get_user_model().objects.create_user("sam")
    refused = as_user(stranger).post(f"/api/v1/seasons/{season.pk}/battles/",
                                     {"opponent": ben.pk, "kind": "stalemate"}, format="json")
    assert refused.status_code == 403 and "Only members" in refused.json()["detail"]
    assert as_user().post(f"/api/v1/seasons/{season.pk}/battles/", {}, format="json").status_code in (401, 403)
    assert not Battle.objects.exists()


def test_a_second_report_of_the_same_pair_is_refused_by_r111(league):
    event, organizer, (ada, ben, *_rest), season = league
    body = {"opponent": ben.pk, "kind": "stalemate"}
    assert as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/", body, format="json").status_code == 201
    again = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/", body, format="json")
    assert again.status_code == 409 and "R111" in again.json()["detail"]
    assert Battle.objects.count() == 1


def test_organizers_remove_an_unreported_scheduled_battle(league):
    event, organizer, (ada, ben, cyd, dov), season = league
    scheduled = seasons.schedule_battle(season, cyd, dov, actor=organizer)
    assert as_user(ada.user).delete(f"/api/v1/battles/{scheduled.pk}/").status_code == 403
    removed = as_user(organizer).delete(f"/api/v1/battles/{scheduled.pk}/?reason=Dov+is+away")
    assert removed.status_code == 204 and not Battle.objects.filter(pk=scheduled.pk).exists()
    assert AuditEntry.objects.filter(action="battle removed", reason="Dov is away").exists()
    decided = arranged.record_arranged_battle(season, ada, ben, kind="stalemate", actor=organizer).battle
    refused = as_user(organizer).delete(f"/api/v1/battles/{decided.pk}/")
    assert refused.status_code == 409 and "has a result" in refused.json()["detail"]


def test_close_lists_its_playoffs_and_the_season_says_what_it_waits_for(league):
    event, organizer, (ada, ben, cyd, dov), season = league
    arranged.record_arranged_battle(season, ada, cyd, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(season, ben, dov, kind="victory", winner=ben, condition="crush", actor=organizer)
    closed = as_user(organizer).post(f"/api/v1/seasons/{season.pk}/close/")
    assert closed.status_code == 200, closed.content
    body = closed.json()
    assert body["state"] == "playoff" and len(body["playoffs"]) == 1
    assert {body["playoffs"][0]["general_a"]["name"], body["playoffs"][0]["general_b"]["name"]} == {"Ada", "Ben"}
    assert "Ada and Ben are tied at the top" in body["waiting_for"]
    listed = as_user().get("/api/v1/events/pier/seasons/").json()
    assert listed[0]["waiting_for"] == body["waiting_for"]


def test_a_decided_playoff_reported_again_is_409_with_the_rule(league):
    event, organizer, (ada, ben, cyd, dov), season = league
    arranged.record_arranged_battle(season, ada, cyd, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(season, ben, dov, kind="victory", winner=ben, condition="crush", actor=organizer)
    playoff = seasons.close_season(season, actor=organizer).playoffs[0]
    recording.record_result(playoff, kind="stalemate", actor=organizer)
    refused = as_user(ada.user).post(f"/api/v1/battles/{playoff.pk}/reports/",
                                     {"kind": "victory", "winner": ada.pk, "condition": "crush"}, format="json")
    assert refused.status_code == 409
    assert "If the Playoff Battle outcome is Stalemate or Resolve" in refused.json()["detail"]


def test_a_report_on_a_closed_seasons_battle_is_409_at_submit(league):
    event, organizer, (ada, ben, *_rest), season = league
    battle = arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush",
                                             actor=organizer).battle
    seasons.close_season(season, actor=organizer)
    refused = as_user(ben.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                     {"kind": "victory", "winner": ben.pk, "condition": "crush"}, format="json")
    assert refused.status_code == 409 and "Autumn is closed" in refused.json()["detail"]
    assert not Report.objects.exists()
    closed_again = as_user(organizer).post(f"/api/v1/seasons/{season.pk}/close/")
    assert closed_again.status_code == 409


def test_a_season_reopens_with_a_reason(league):
    event, organizer, (ada, ben, *_rest), season = league
    seasons.close_season(season, actor=organizer)
    no_reason = as_user(organizer).post(f"/api/v1/seasons/{season.pk}/reopen/", {"reason": ""}, format="json")
    assert no_reason.status_code == 400
    assert as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/reopen/", {"reason": "x"},
                                  format="json").status_code == 403
    reopened = as_user(organizer).post(f"/api/v1/seasons/{season.pk}/reopen/",
                                       {"reason": "Closed by mistake."}, format="json")
    assert reopened.status_code == 200 and reopened.json()["state"] == "open"


def test_a_leagues_state_follows_its_seasons(league):
    event, organizer, members, season = league
    assert as_user().get("/api/v1/events/pier/").json()["state"] == "in_season"
    seasons.close_season(season, actor=organizer)
    body = as_user().get("/api/v1/events/pier/").json()
    assert body["state"] == "off_season" and body["status"] == "Autumn: Closed"
    assert body["pair_battles_per_season"] == 1
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED
