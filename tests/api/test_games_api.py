"""The API of game systems and of an event's deck and army lists: the games and their result kinds,
facts and tie-breakers, the anonymous list check (each game spec's worked examples), and a Warlord
CCG event's lists: submit, replace, withdraw, accept, who sees them, the pool and the list rules."""
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from tests.game_systems.examples.warlord_ccg import POOL_CSV, example
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Event, General, ListVersion

from .conftest import as_user

pytestmark = pytest.mark.django_db

WARLORD = "warlord-ccg-4e"
REAPER_EXAMPLES = json.loads((Path(__file__).parents[1] / "game_systems" / "examples" / "reaper_warlord"
                              / "examples.json").read_text(encoding="utf-8"))
REAPER_POOL_CSV = (Path(__file__).parents[1] / "game_systems" / "examples" / "reaper_warlord"
                   / "pool.csv").read_text(encoding="utf-8")


def reaper_example(example_id):
    return next(item for item in REAPER_EXAMPLES if item["id"] == example_id)


def assert_error(response, status, code, *, field=None, says=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"], body
    if field:
        assert field in body.get("fields", {}), body
    if says:
        assert says in body["detail"], body["detail"]
    return body


# --- what the tests of lists and Swiss rounds share -------------------------------------------------------

def organizer_account(username="olga"):
    return grant_organizer_role(get_user_model().objects.create_user(username))


def player(name):
    """A player's account with their own general."""
    user = get_user_model().objects.create_user(name.lower())
    return General.objects.create(name=name, user=user)


def create_event(organizer, slug="storm-cup", **settings):
    body = {"name": slug.replace("-", " ").title(), "slug": slug, "game": WARLORD, **settings}
    created = as_user(organizer).post("/api/v1/events/", body, format="json")
    assert created.status_code == 201, created.content
    return Event.objects.get(slug=slug)


def join(event, *generals):
    for general in generals:
        joined = as_user(general.user).post(f"/api/v1/events/{event.slug}/join/", {}, format="json")
        assert joined.status_code == 201, joined.content


def deck(example_id="C01"):
    return example(example_id)["list"]


@pytest.fixture
def storm_cup():
    """Olga's Warlord CCG event with the spec's test pool, Ada and Ben registered."""
    olga = organizer_account()
    event = create_event(olga)
    put = as_user(olga).put(f"/api/v1/events/{event.slug}/list-pool/", {"csv": POOL_CSV}, format="json")
    assert put.status_code == 200, put.content
    ada, ben = player("Ada"), player("Ben")
    join(event, ada, ben)
    return event, olga, ada, ben


def submit(user, event, cards, general=None):
    body = {"list": cards} if general is None else {"list": cards, "general": general.pk}
    return as_user(user).post(f"/api/v1/events/{event.slug}/lists/", body, format="json")


# --- the games ----------------------------------------------------------------------------------------------

def test_anyone_reads_the_games_with_their_result_kinds_facts_and_tie_breakers():
    games = as_user().get("/api/v1/games/")
    assert games.status_code == 200
    by_slug = {game["slug"]: game for game in games.json()}
    assert set(by_slug) == {"warline", WARLORD, "reaper-warlord"}
    warlord = by_slug[WARLORD]
    assert [kind["key"] for kind in warlord["result_kinds"]] == ["victory", "draw", "forfeit"]
    assert {fact["key"]: fact["choices"] for fact in warlord["result_facts"]}["status"] == ["finished", "unfinished"]
    assert warlord["formats"] == ["swiss"] and warlord["has_lists"] and warlord["pool_label"] == "card pool"
    assert warlord["pool_header"].startswith("name,type,level")
    assert warlord["default_scoring"] == {"win": 3, "draw": 1, "loss": 0, "bye": 3}
    assert warlord["default_tie_breakers"] == ["omw", "sos", "h2h"] and 4 in warlord["table_sizes"]
    reaper = by_slug["reaper-warlord"]
    destroyed = next(fact for fact in reaper["result_facts"] if fact["key"] == "points_destroyed")
    assert destroyed["per_side"] and not destroyed["choices"]
    assert "points_destroyed" in [t["key"] for t in reaper["tie_breakers"]]
    assert all(t["label"] and t["explanation"] for t in reaper["tie_breakers"])
    warline = by_slug["warline"]
    assert not warline["has_lists"] and warline["pool_label"] is None and warline["adjudicated"]
    assert "stalemate" in [kind["key"] for kind in warline["result_kinds"]]
    one = as_user().get(f"/api/v1/games/{WARLORD}/")
    assert one.status_code == 200 and one.json() == warlord
    assert_error(as_user().get("/api/v1/games/chess/"), 404, "not_found", says="chess")


# --- the anonymous check: each spec's worked examples ----------------------------------------------------

@pytest.mark.parametrize(("game", "item", "pool"), [
    (WARLORD, example("C01"), POOL_CSV),
    (WARLORD, example("C04"), POOL_CSV),
    (WARLORD, example("C05"), POOL_CSV),
    ("reaper-warlord", reaper_example("RT01"), REAPER_POOL_CSV),
    ("reaper-warlord", reaper_example("RT03"), REAPER_POOL_CSV),
    ("reaper-warlord", reaper_example("RT04"), REAPER_POOL_CSV),
], ids=["C01", "C04", "C05", "RT01", "RT03", "RT04"])
def test_anyone_checks_a_list_and_gets_the_specs_expected_codes(game, item, pool):
    body = {"list": item["list"], "pool": pool, "options": item["event"]}
    checked = as_user().post(f"/api/v1/games/{game}/check/", body, format="json")
    assert checked.status_code == 200, checked.content
    answer = checked.json()
    expected = sorted(e["code"] for e in item["expected"])
    assert sorted(v["code"] for v in answer["violations"]) == expected
    assert answer["valid"] is (not expected)
    assert all(v["message"] for v in answer["violations"])


def test_a_list_that_cannot_be_checked_is_400_with_the_sentence():
    not_a_deck = as_user().post(f"/api/v1/games/{WARLORD}/check/", {"list": {"models": []}}, format="json")
    assert_error(not_a_deck, 400, "invalid", field="list")
    bad_pool = as_user().post(f"/api/v1/games/{WARLORD}/check/",
                              {"list": deck(), "pool": "name,type\nX,character\n"}, format="json")
    assert_error(bad_pool, 400, "invalid", says="card pool cannot be used")
    bad_options = as_user().post("/api/v1/games/reaper-warlord/check/",
                                 {"list": reaper_example("RT01")["list"], "options": {"points_limit": "lots"}},
                                 format="json")
    assert_error(bad_options, 400, "invalid")
    warline = as_user().post("/api/v1/games/warline/check/", {"list": {}}, format="json")
    assert_error(warline, 400, "invalid", says="has no lists")
    not_an_object = as_user().post(f"/api/v1/games/{WARLORD}/check/", {"list": [1, 2]}, format="json")
    assert_error(not_an_object, 400, "invalid", field="list")


# --- events: game and format ----------------------------------------------------------------------------

def test_an_event_names_its_game_and_swiss_settings_at_creation_and_keeps_them():
    olga = organizer_account()
    created = as_user(olga).post("/api/v1/events/", {
        "name": "Storm Cup", "slug": "storm-cup", "game": WARLORD, "top_cut": 4, "swiss_rounds": 3,
        "scoring": {"draw": 1.5}, "tie_breakers": ["sos", "omw"]}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["game"], body["format"], body["top_cut"], body["swiss_rounds"]) == (WARLORD, "swiss", 4, 3)
    assert body["scoring"] == {"win": 3, "draw": 1.5, "loss": 0, "bye": 3}  # the game's default where left out
    assert body["tie_breakers"] == ["sos", "omw"] and body["list_visibility"] == "closed"
    changed = as_user(olga).patch("/api/v1/events/storm-cup/", {"format": "groups", "game": "warline",
                                                                "name": "Storm Cup II"}, format="json")
    assert changed.status_code == 200, changed.content
    assert (changed.json()["game"], changed.json()["format"], changed.json()["name"]) == (WARLORD, "swiss",
                                                                                          "Storm Cup II")
    warline = as_user(olga).get("/api/v1/events/", {"kind": "tournament"}).json()["results"]
    assert [e["slug"] for e in warline] == ["storm-cup"]


@pytest.mark.parametrize(("settings", "field", "says"), [
    ({"format": "groups"}, "format", "Swiss"),
    ({"tie_breakers": ["points_destroyed"]}, "tie_breakers", "omw"),
    ({"top_cut": 6}, "top_cut", "4, 8 or 16"),
    ({"game": "chess"}, "game", None),
])
def test_settings_a_game_does_not_allow_are_refused_with_the_field(settings, field, says):
    olga = organizer_account()
    refused = as_user(olga).post("/api/v1/events/", {"name": "X", "slug": "x", "game": WARLORD, **settings},
                                 format="json")
    assert_error(refused, 400, "invalid", field=field, says=says)
    assert not Event.objects.filter(slug="x").exists()


# --- lists: submit, replace, withdraw, accept -------------------------------------------------------------

def test_a_player_submits_replaces_and_withdraws_their_list_version_by_version(storm_cup):
    event, olga, ada, ben = storm_cup
    first = submit(ada.user, event, deck("C01"))
    assert first.status_code == 201, first.content
    assert (first.json()["version"], first.json()["status"], first.json()["violations"]) == (1, "valid", [])
    assert first.json()["general"] == {"id": ada.pk, "name": "Ada"} and first.json()["summary"]
    replaced = submit(ada.user, event, deck("C04"))
    assert replaced.status_code == 201
    assert (replaced.json()["version"], replaced.json()["status"]) == (2, "violations")
    assert [v["code"] for v in replaced.json()["violations"]] == ["WCCG-D01"]
    versions = as_user(ada.user).get(f"/api/v1/events/{event.slug}/lists/{ada.pk}/versions/")
    assert versions.status_code == 200
    assert [(v["version"], v["status"]) for v in versions.json()] == [(2, "violations"), (1, "valid")]
    assert all(v["submitted_at"] and v["submitted_by"] == "ada" for v in versions.json())
    withdrawn = as_user(ada.user).post(f"/api/v1/events/{event.slug}/lists/withdraw/", {}, format="json")
    assert withdrawn.status_code == 200, withdrawn.content
    assert (withdrawn.json()["version"], withdrawn.json()["status"], withdrawn.json()["list"]) == (3, "withdrawn",
                                                                                                   None)
    again = as_user(ada.user).post(f"/api/v1/events/{event.slug}/lists/withdraw/", {}, format="json")
    assert_error(again, 409, "conflict", says="no list to withdraw")


def test_nobody_but_the_player_and_the_organizers_submits_a_generals_list(storm_cup):
    event, olga, ada, ben = storm_cup
    stranger = get_user_model().objects.create_user("sam")
    assert_error(submit(stranger, event, deck(), general=ada), 403, "permission_denied")
    assert_error(submit(ben.user, event, deck(), general=ada), 403, "permission_denied")
    assert as_user().post(f"/api/v1/events/{event.slug}/lists/", {"list": deck()}, format="json").status_code == 401
    assert not ListVersion.objects.exists()
    by_organizer = submit(olga, event, deck(), general=ada)  # a list handed in on paper
    assert by_organizer.status_code == 201 and by_organizer.json()["submitted_by"] == "olga"
    no_general = submit(olga, event, deck())
    assert_error(no_general, 400, "invalid", field="general")


def test_an_organizer_accepts_a_list_despite_its_violations_with_a_reason(storm_cup):
    event, olga, ada, ben = storm_cup
    submit(ada.user, event, deck("C04"))
    url = f"/api/v1/events/{event.slug}/lists/accept/"
    body = {"general": ada.pk, "version": 1, "reason": "The card's own text lifts the copy limit."}
    assert_error(as_user(ada.user).post(url, body, format="json"), 403, "permission_denied")
    stale = as_user(olga).post(url, {**body, "version": 2}, format="json")
    assert_error(stale, 409, "conflict", says="read the list again")
    no_reason = as_user(olga).post(url, {**body, "reason": " "}, format="json")
    assert_error(no_reason, 400, "invalid", field="reason")
    accepted = as_user(olga).post(url, body, format="json")
    assert accepted.status_code == 200, accepted.content
    answer = accepted.json()
    assert (answer["status"], answer["accepted_by"], answer["accepted_reason"]) == ("accepted", "olga",
                                                                                    body["reason"])
    assert [v["code"] for v in answer["violations"]] == ["WCCG-D01"]  # still shown, accepted
    assert AuditEntry.objects.filter(event=event, action="list accepted").exists()


def test_lists_lock_when_registration_closes_except_for_the_organizers(storm_cup):
    event, olga, ada, ben = storm_cup
    submit(ada.user, event, deck())
    closed = as_user(olga).post(f"/api/v1/events/{event.slug}/close-registration/", {}, format="json")
    assert closed.status_code == 200, closed.content
    late = submit(ada.user, event, deck("C02"))
    assert_error(late, 409, "conflict", says="registration has closed")
    withdraw = as_user(ada.user).post(f"/api/v1/events/{event.slug}/lists/withdraw/", {}, format="json")
    assert_error(withdraw, 409, "conflict", says="locked")
    assert submit(olga, event, deck("C02"), general=ada).status_code == 201
    listing = as_user(olga).get(f"/api/v1/events/{event.slug}/lists/").json()
    assert listing["locked"] and "registration has closed" in listing["locked"]


def test_a_deadline_locks_the_lists(storm_cup):
    event, olga, ada, ben = storm_cup
    rules = as_user(olga).patch(f"/api/v1/events/{event.slug}/list-rules/",
                                {"list_deadline": (timezone.now() - timedelta(minutes=1)).isoformat()}, format="json")
    assert rules.status_code == 200, rules.content
    assert "deadline has passed" in rules.json()["locked"]
    assert_error(submit(ben.user, event, deck()), 409, "conflict", says="deadline has passed")


# --- lists: who sees them -------------------------------------------------------------------------------------

def test_closed_lists_are_for_the_organizers_and_each_player_sees_their_own(storm_cup):
    event, olga, ada, ben = storm_cup
    submit(ada.user, event, deck("C04"))
    url = f"/api/v1/events/{event.slug}/lists/"
    organizer_view = as_user(olga).get(url).json()
    assert organizer_view["list_visibility"] == "closed" and not organizer_view["public"]
    rows = {row["general"]["name"]: row["list"] for row in organizer_view["lists"]}
    assert rows["Ben"] is None  # not submitted yet: the organizers see who is missing
    assert rows["Ada"]["status"] == "violations" and rows["Ada"]["violations"][0]["code"] == "WCCG-D01"
    bens_view = as_user(ben.user).get(url).json()
    assert [row["general"]["name"] for row in bens_view["lists"]] == ["Ben"]
    assert as_user().get(url).json()["lists"] == []
    refused = as_user(ben.user).get(f"/api/v1/events/{event.slug}/lists/{ada.pk}/versions/")
    assert_error(refused, 403, "permission_denied", says="Ada's list")
    own = as_user(ada.user).get(url).json()["lists"]
    assert own[0]["list"]["list"]["cards"] == deck("C04")["cards"]


def test_open_lists_are_public_from_their_date(storm_cup):
    event, olga, ada, ben = storm_cup
    submit(ada.user, event, deck())
    rules_url = f"/api/v1/events/{event.slug}/list-rules/"
    soon = timezone.now() + timedelta(hours=2)
    opened = as_user(olga).patch(rules_url, {"list_visibility": "open", "lists_public_from": soon.isoformat()},
                                 format="json")
    assert opened.status_code == 200, opened.content
    assert opened.json()["list_visibility"] == "open" and opened.json()["lists_public_from"]
    url = f"/api/v1/events/{event.slug}/lists/"
    assert as_user().get(url).json()["lists"] == []  # open, but not before the date
    assert as_user(olga).patch(rules_url, {"lists_public_from": (timezone.now() - timedelta(minutes=1)).isoformat()},
                               format="json").status_code == 200
    public = as_user().get(url).json()
    assert public["public"] and {row["general"]["name"] for row in public["lists"]} == {"Ada", "Ben"}
    versions = as_user(ben.user).get(f"/api/v1/events/{event.slug}/lists/{ada.pk}/versions/")
    assert versions.status_code == 200 and versions.json()[0]["status"] == "valid"
    assert event.list_deadline is None  # the earlier PATCH left the deadline as it was
    assert Event.objects.get(pk=event.pk).list_visibility == "open"


def test_list_rules_are_the_organizers_and_bad_options_are_refused(storm_cup):
    event, olga, ada, ben = storm_cup
    url = f"/api/v1/events/{event.slug}/list-rules/"
    assert_error(as_user(ada.user).patch(url, {"list_visibility": "open"}, format="json"), 403, "permission_denied")
    bad = as_user(olga).patch(url, {"list_options": {"deck_size": "many"}}, format="json")
    assert_error(bad, 400, "invalid", field="list_options")
    assert Event.objects.get(pk=event.pk).list_options == {}


def test_a_warline_event_has_no_lists():
    olga = organizer_account()
    services.create_event(name="Harbour Open", slug="harbour", actor=olga)
    assert_error(as_user().get("/api/v1/events/harbour/lists/"), 409, "conflict", says="no deck or army lists")


# --- the pool ---------------------------------------------------------------------------------------------------

def test_a_pool_with_row_errors_is_refused_whole_with_every_row_and_nothing_is_kept(storm_cup):
    event, olga, ada, ben = storm_cup
    url = f"/api/v1/events/{event.slug}/list-pool/"
    before = as_user().get(url).json()
    assert before["label"] == "card pool" and before["entries"] == len(POOL_CSV.strip().splitlines()) - 1
    broken = POOL_CSV.strip() + "\nBroken Card,spaceship,,Dwarves,,good,fighter,\nOther Card,character,x,,,good,,\n"
    refused = as_user(olga).put(url, {"csv": broken}, format="json")
    body = assert_error(refused, 400, "invalid", field="pool", says="was not saved")
    rows = body["rows"]
    assert {row["row"] for row in rows} >= {before["entries"] + 2, before["entries"] + 3}
    assert all(row["column"] and row["message"] for row in rows)
    after = as_user().get(url).json()
    assert after == before  # nothing of the refused file is kept
    assert_error(as_user(ada.user).put(url, {"csv": POOL_CSV}, format="json"), 403, "permission_denied")


def test_the_pool_is_uploaded_as_a_multipart_file_too_and_lists_are_checked_again(storm_cup):
    event, olga, ada, ben = storm_cup
    submit(ada.user, event, deck("C01"))
    url = f"/api/v1/events/{event.slug}/list-pool/"
    smaller = "\n".join(line for line in POOL_CSV.splitlines() if not line.startswith("Test Warlord A,")) + "\n"
    upload = SimpleUploadedFile("pool.csv", smaller.encode(), content_type="text/csv")
    answer = as_user(olga).post(url, {"csv": upload}, format="multipart")
    assert answer.status_code == 200, answer.content
    assert answer.json()["entries"] == len(smaller.strip().splitlines()) - 1
    current = as_user(olga).get(f"/api/v1/events/{event.slug}/lists/").json()["lists"]
    ada_list = next(row["list"] for row in current if row["general"]["name"] == "Ada")
    assert ada_list["status"] == "violations"  # Test Warlord A is no longer in the pool
