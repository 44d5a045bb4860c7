"""A league run from its pages: seasons, scheduled and arranged battles, closing a season."""
import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import make_league
from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.models import Battle, Report, Season
from tournaments.results import arranged, recording

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(("Ada", "Ben", "Cyd"))


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
    recording.record_result(battle, kind="victory", winner=ada, condition="crush")
    unconfirmed = client.post("/events/pier/manage/", {"action": "close_season"})
    assert "This field is required" in unconfirmed.content.decode()
    season.refresh_from_db()
    assert season.state == Season.State.OPEN
    client.post("/events/pier/manage/", {"action": "close_season", "confirm": "on"})
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == ada


def test_a_member_reports_an_arranged_battle_and_the_opponent_confirms(client, league):
    event, organizer, (ada, ben, cyd) = league
    seasons.open_season(event, "Autumn")
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
    seasons.open_season(event, "Autumn")
    client.force_login(ada.user)
    response = client.post("/events/pier/report/", {"opponent": ben.pk, "kind": "stalemate",
                                                    "replay_file": SimpleUploadedFile("r.json", b"[]")})
    assert "one JSON object" in response.content.decode()
    assert not Battle.objects.exists() and not Report.objects.exists()


def test_non_members_are_told_they_cannot_report(client, league):
    event, organizer, members = league
    seasons.open_season(event, "Autumn")
    client.force_login(get_user_model().objects.create_user("sam"))
    page = client.get("/events/pier/report/").content.decode()
    assert "Only members of Pier League report league battles." in page


# --- the league's pages say league things (findings 7 and 11) ----------------------------------------

def test_a_league_page_has_no_tournament_wording_and_a_meaningful_state(client, league):
    event, organizer, members = league  # three members: odd, which a league does not mind
    page = client.get("/events/pier/").content.decode()
    assert "odd number" not in page and "eliminated" not in page
    seasons.open_season(event, "Autumn", actor=organizer)
    event.refresh_from_db()
    assert event.state == "in_season"
    client.force_login(organizer)
    dashboard = client.get("/events/pier/manage/").content.decode()
    assert "odd number" not in dashboard and "seeded groups" not in dashboard and 'name="seed"' not in dashboard


def test_the_champion_comes_first_without_a_shared_place(client, league):
    event, organizer, (ada, ben, cyd) = league
    season = seasons.open_season(event, "Autumn", actor=organizer)
    arranged.record_arranged_battle(season, ada, cyd, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(season, ben, cyd, kind="victory", winner=ben, condition="crush", actor=organizer)
    seasons.close_season(season, actor=organizer)
    playoff = season.battles.get(playoff=True)
    page = client.get("/events/pier/").content.decode()
    assert "Ada and Ben are tied at the top" in page and "Ada v Ben decides next" in page
    recording.record_result(playoff, kind="victory", winner=ben, condition="overpower", actor=organizer)
    page = client.get("/events/pier/").content.decode()
    table = page[page.index('<table class="standings">'):page.index("</table>")]
    assert table.index("Ben") < table.index("Ada") < table.index("Cyd")
    assert "1=" not in table and '<td class="num">1</td>' in table and '<td class="num">2</td>' in table
    assert "Round 1" not in page and "Results" in page and "Playoff" in page


def test_a_playoff_of_three_explains_the_bye(client, league):
    event, organizer, (ada, ben, cyd) = league
    season = seasons.open_season(event, "Autumn", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="stalemate", actor=organizer)
    arranged.record_arranged_battle(season, ben, cyd, kind="stalemate", actor=organizer)
    arranged.record_arranged_battle(season, cyd, ada, kind="stalemate", actor=organizer)
    seasons.close_season(season, actor=organizer)
    page = client.get("/events/pier/").content.decode()
    assert "Ada has a bye to the next round" in page and "Ben v Cyd decides next" in page


def test_the_schedule_form_offers_two_different_members_and_no_disqualified_one(client, league):
    event, organizer, (ada, ben, cyd) = league
    seasons.open_season(event, "Autumn", actor=organizer)
    services.disqualify(event, cyd, reason="conduct", details="Abuse.", actor=organizer)
    client.force_login(organizer)
    page = client.get("/events/pier/manage/").content.decode()
    form = page[page.index('value="schedule_battle"'):]
    form = form[:form.index("</form>")]
    assert f'<option value="{ben.pk}" selected>' in form.split('name="general_b"')[1]
    assert "Cyd" not in form
    assert 'class="card danger-zone"' in page  # "Close season" stands on its own, with a confirmation


def test_a_closed_seasons_battle_page_offers_no_correction(client, league):
    event, organizer, (ada, ben, cyd) = league
    season = seasons.open_season(event, "Autumn", actor=organizer)
    battle = arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush",
                                             actor=organizer).battle
    seasons.close_season(season, actor=organizer)
    client.force_login(organizer)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "correct the result" not in page and "Autumn is closed" in page


def test_a_disqualified_member_sees_no_report_form_and_is_marked(client, league):
    event, organizer, (ada, ben, cyd) = league
    season = seasons.open_season(event, "Autumn", actor=organizer)
    battle = seasons.schedule_battle(season, ada, ben, actor=organizer)
    other = seasons.schedule_battle(season, ada, cyd, actor=organizer)
    services.disqualify(event, cyd, reason="conduct", details="Abuse.", actor=organizer)
    client.force_login(cyd.user)
    page = client.get(f"/battles/{other.pk}/").content.decode()
    assert "Send the report" not in page and "You are disqualified" in page
    assert "is disqualified from Pier League" in client.get("/events/pier/report/").content.decode()
    members = client.get("/events/pier/").content.decode()
    assert "Cyd <span class=\"badge dq\"" in members
    assert "Report a league battle you played" not in members
    assert battle.pk  # Ada v Ben still to play


def test_a_member_reports_a_forfeit_with_player_1_on_the_page(client, league):
    event, organizer, (ada, ben, cyd) = league
    seasons.open_season(event, "Autumn", actor=organizer)
    client.force_login(ada.user)
    response = client.post("/events/pier/report/", {"opponent": ben.pk, "kind": "forfeit", "forfeited": "opponent",
                                                    "player_1": "me"})
    assert response.status_code == 302, response.content.decode()[:2000]
    report = Report.objects.get()
    assert report.kind == "forfeit" and report.forfeited_by == ben and report.player_1 == ada
