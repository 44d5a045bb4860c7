"""A league run from its pages: seasons, scheduled and arranged battles, closing a season."""
import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Battle, General, Report, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    User = get_user_model()
    organizer = User.objects.create_user("olga")
    event = services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    members = []
    for name in ("Ada", "Ben", "Cyd"):
        general = General.objects.create(name=name, user=User.objects.create_user(name.lower()))
        services.register(event, general)
        members.append(general)
    return event, organizer, members


def test_the_organizer_opens_schedules_and_closes_a_season(client, league):
    event, organizer, (ada, ben, cyd) = league
    client.force_login(organizer)
    client.post("/events/pier/manage/", {"action": "open_season", "name": "Autumn"})
    season = Season.objects.get(event=event)
    refused = client.post("/events/pier/manage/", {"action": "schedule_battle", "general_a": ada.pk,
                                                    "general_b": ada.pk})
    assert "two different generals" in refused.content.decode()
    client.post("/events/pier/manage/", {"action": "schedule_battle", "general_a": ada.pk, "general_b": ben.pk})
    battle = season.battles.get()
    services.record_result(battle, kind="victory", winner=ada, condition="crush")
    client.post("/events/pier/manage/", {"action": "close_season"})
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == ada


def test_a_member_reports_an_arranged_battle_and_the_opponent_confirms(client, league):
    event, organizer, (ada, ben, cyd) = league
    services.open_season(event, "Autumn")
    client.force_login(ada.user)
    incomplete = client.post("/events/pier/report/", {"opponent": ben.pk, "kind": "victory", "won": "me"})
    assert "By which victory condition?" in incomplete.content.decode()
    assert not Battle.objects.exists()
    response = client.post("/events/pier/report/", {"opponent": ben.pk, "kind": "victory", "won": "me",
                                                    "condition": "shackle"})
    battle = Battle.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/battles/{battle.pk}/"
    report = Report.objects.get()
    assert report.status == Report.Status.AWAITING_OPPONENT and report.winner == ada
    client.force_login(ben.user)
    client.post(f"/reports/{report.pk}/answer/", {"answer": "confirm"})
    battle.refresh_from_db()
    assert battle.winner == ada and battle.condition == "shackle"


def test_a_broken_replay_leaves_no_battle_behind(client, league):
    from django.core.files.uploadedfile import SimpleUploadedFile

    event, organizer, (ada, ben, cyd) = league
    services.open_season(event, "Autumn")
    client.force_login(ada.user)
    response = client.post("/events/pier/report/", {"opponent": ben.pk, "kind": "stalemate",
                                                    "replay_file": SimpleUploadedFile("r.json", b"[]")})
    assert "one JSON object" in response.content.decode()
    assert not Battle.objects.exists() and not Report.objects.exists()


def test_non_members_are_told_they_cannot_report(client, league):
    event, organizer, members = league
    services.open_season(event, "Autumn")
    client.force_login(get_user_model().objects.create_user("sam"))
    page = client.get("/events/pier/report/").content.decode()
    assert "Only members of Pier League report league battles." in page
