"""A league season: members' battles, standings by OPP and tie-breakers, a champion, a new season."""
import pytest

from tournaments.domain import Conflict, DomainError
from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.models import Battle, Event, General, Season
from tournaments.results import arranged, recording
from tournaments.standings import tables

from .helpers import victory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    event = services.create_event(name="Harbour League", slug="harbour", kind=Event.Kind.LEAGUE)
    members = [General.objects.create(name=n) for n in ("Ada", "Ben", "Cyd", "Dov")]
    for member in members:
        services.register(event, member)
    return event, members


def test_a_season_crowns_its_champion_by_opp(league):
    event, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring")
    arranged.record_arranged_battle(season, ada, ben, kind=Battle.Kind.VICTORY, winner=ada, condition="crush")
    arranged.record_arranged_battle(season, cyd, dov, kind=Battle.Kind.VICTORY, winner=cyd, condition="shackle")
    scheduled = seasons.schedule_battle(season, ada, cyd)
    assert seasons.close_season(season).champion is None  # waits for the scheduled battle
    season.refresh_from_db()
    assert season.state == Season.State.CLOSING
    victory(scheduled, cyd, "blunt")  # the season moves on by itself
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == cyd
    table = tables.season_standings(season)
    assert [g.name for _, g in table.entries()] == ["Cyd", "Ada", "Ben", "Dov"]  # Ben and Dov: 0, tied
    assert table.rows[2].shared and table.rows[2].place == table.rows[3].place == 3


def test_each_season_has_its_own_standings(league):
    event, (ada, ben, cyd, dov) = league
    first = seasons.open_season(event, "Spring")
    arranged.record_arranged_battle(first, ada, ben, kind=Battle.Kind.VICTORY, winner=ada, condition="shackle")
    with pytest.raises(Conflict):
        seasons.open_season(event, "Summer")
    seasons.close_season(first)
    second = seasons.open_season(event, "Summer")
    arranged.record_arranged_battle(second, ben, ada, kind=Battle.Kind.VICTORY, winner=ben, condition="blunt")
    assert tables.season_standings(first).rows[0].general == ada.key
    assert tables.season_standings(second).rows[0].general == ben.key
    assert second.number == 2


def test_a_tied_season_goes_to_a_playoff(league):
    event, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring")
    arranged.record_arranged_battle(season, ada, cyd, kind=Battle.Kind.VICTORY, winner=ada, condition="crush")
    arranged.record_arranged_battle(season, ben, dov, kind=Battle.Kind.VICTORY, winner=ben, condition="crush")
    assert seasons.close_season(season).champion is None
    season.refresh_from_db()
    assert season.state == Season.State.PLAYOFF
    playoff = season.battles.get(playoff=True)
    recording.record_result(playoff, kind=Battle.Kind.VICTORY, winner=ben, condition="overpower")
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == ben


def test_only_members_play_league_battles(league):
    event, (ada, *_rest) = league
    season = seasons.open_season(event, "Spring")
    stranger = General.objects.create(name="Stranger")
    with pytest.raises(DomainError, match="not a member"):
        seasons.schedule_battle(season, ada, stranger)
    assert not season.battles.exists()
