"""The profile, head to head and directory search in the API: the same figures and the same visibility as
the pages (tests/tournaments/worked_profiles.py has the worked events)."""
import pytest
import yaml
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.tournaments.worked_profiles import battle_of, build
from tournaments.models import Battle, General, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def worked():
    return build()


@pytest.fixture
def api():
    return APIClient()


def get(api, path, status=200):
    response = api.get(path)
    assert response.status_code == status, (path, response.status_code, response.content[:300])
    return response.json()


def test_the_profile_gives_the_record_places_and_recent_battles(api, worked):
    alice = worked.generals["Alice"]
    profile = get(api, f"/api/v1/generals/{alice.pk}/profile/")
    assert profile["general"] == {"id": alice.pk, "name": "Alice"}
    totals = profile["record"]["totals"]
    assert (totals["battles"], totals["victories"], totals["stalemates"], totals["resolves"], totals["defeats"]) == (
        3, 1, 1, 0, 1)
    assert (totals["forfeits_given"], totals["forfeits_received"]) == (0, 1)
    assert totals["victories_by_condition"]["shackle"] == 1 and totals["victories_by_condition"]["paralyze"] == 0
    [spring] = profile["record"]["events"]
    assert spring["event"]["slug"] == "spring-open" and spring["opp"] == 5
    assert spring["place"] == {"label": "2", "table": "Final Group", "final": True, "disqualified": False,
                               "victor": False}
    latest = profile["recent_battles"][0]
    assert latest["opponent"]["name"] == "Emil" and latest["result"] == "Emil wins by Blunt"
    assert latest["where"] == "Final Group" and latest["replay"] is None


def test_the_unpublished_event_is_in_the_profile_for_its_organizer_only(api, worked):
    alice = worked.generals["Alice"]
    stranger = get(api, f"/api/v1/generals/{alice.pk}/profile/")
    assert "secret-cup" not in str(stranger) and "Secret Cup" not in str(stranger)
    api.force_authenticate(worked.olga)
    organizer = get(api, f"/api/v1/generals/{alice.pk}/profile/")
    secret = organizer["record"]["events"][0]
    assert secret["event"]["slug"] == "secret-cup" and secret["opp"] == 3 and secret["place"]["final"] is False
    assert organizer["record"]["totals"]["victories"] == 2


def test_the_replay_address_goes_to_the_battles_generals_only(api, worked):
    g = worked.generals
    battle = battle_of(worked.spring, g["Alice"], g["Bruno"])
    Report.objects.create(battle=battle, kind=Battle.Kind.VICTORY, winner=g["Alice"], condition="shackle",
                          replay="(a replay log)", status=Report.Status.CONFIRMED)

    def replay(user):
        api.force_authenticate(user)
        items = get(api, f"/api/v1/generals/{g['Alice'].pk}/profile/")["recent_battles"]
        return next(item["replay"] for item in items if item["id"] == battle.pk)

    assert replay(None) is None
    assert replay(get_user_model().objects.create_user("sam")) is None
    assert replay(worked.alice_user) == f"/battles/{battle.pk}/replay/"


def test_versus_counts_both_sides_and_lists_their_battles(api, worked):
    g = worked.generals
    body = get(api, f"/api/v1/generals/{g['Alice'].pk}/versus/{g['Dana'].pk}/")
    assert body["general"]["name"] == "Alice" and body["other"]["name"] == "Dana"
    assert body["general_figures"]["forfeits_received"] == 1 and body["other_figures"]["forfeits_given"] == 1
    assert [battle["result"] for battle in body["battles"]] == ["Dana forfeits"]
    body = get(api, f"/api/v1/generals/{g['Alice'].pk}/versus/{g['Bruno'].pk}/")
    assert (body["general_figures"]["victories"], body["other_figures"]["victories"], len(body["battles"])) == (1, 0, 1)
    api.force_authenticate(worked.olga)
    body = get(api, f"/api/v1/generals/{g['Alice'].pk}/versus/{g['Bruno'].pk}/")
    assert body["general_figures"]["victories"] == 2 and len(body["battles"]) == 2


def test_versus_refuses_the_same_general_and_unknown_ones(api, worked):
    alice = worked.generals["Alice"]
    body = get(api, f"/api/v1/generals/{alice.pk}/versus/{alice.pk}/", status=400)
    assert "themselves" in body["detail"]
    get(api, f"/api/v1/generals/{alice.pk}/versus/999999/", status=404)
    get(api, f"/api/v1/generals/999999/versus/{alice.pk}/", status=404)
    get(api, "/api/v1/generals/999999/profile/", status=404)
    assert api.get(f"/api/v1/generals/{alice.pk}/versus/abc/").status_code == 404


def test_generals_search_ignores_case_and_spaces(api, worked):
    General.objects.create(name="Dana  Marie")
    names = [g["name"] for g in get(api, "/api/v1/generals/?search=DANA")["results"]]
    assert names == ["Dana", "Dana  Marie"]
    assert [g["name"] for g in get(api, "/api/v1/generals/?search=%20dana%20m")["results"]] == ["Dana  Marie"]
    assert get(api, "/api/v1/generals/?search=nobody")["count"] == 0
    assert get(api, "/api/v1/generals/")["count"] == 9


def test_the_schema_names_the_profile_figures(api):
    schema = yaml.safe_load(api.get("/api/schema/").content)
    paths = schema["paths"]
    assert "/api/v1/generals/{id}/profile/" in paths and "/api/v1/generals/{id}/versus/{other_id}/" in paths
    assert any(p["name"] == "search" for p in paths["/api/v1/generals/"]["get"]["parameters"])
    components = schema["components"]["schemas"]
    figures = components["Figures"]["properties"]
    assert {"battles", "victories", "stalemates", "resolves", "forfeits_given", "forfeits_received"} <= set(figures)
    assert set(components["VictoriesByCondition"]["properties"]) >= {"shackle", "crush", "paralyze", "blunt"}
    assert "place" in components["EventLine"]["properties"]
