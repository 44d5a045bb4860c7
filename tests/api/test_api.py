"""The REST API as scoreboards, organizers and players use it, with every permission rule."""
import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.demo import load_demo
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, Event, General

from .conftest import as_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    return grant_organizer_role(get_user_model().objects.create_user("olga", password="pw"))


@pytest.fixture
def stranger():
    return get_user_model().objects.create_user("sam", password="pw")


@pytest.fixture
def open_event(organizer):
    event = services.create_event(name="Harbour Open", slug="harbour-open", actor=organizer)
    for name in ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"]:
        services.register(event, General.objects.create(name=name), actor=organizer)
    return event


def assert_error(response, status, code, *, field=None, says=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"]
    if field:
        assert field in body["fields"]
    if says:
        assert says in body["detail"]


def test_anyone_reads_published_events_and_their_standings():
    event = load_demo()
    anonymous = as_user()
    listing = anonymous.get("/api/v1/events/").json()
    assert event.slug in [e["slug"] for e in listing["results"]]
    standings = anonymous.get(f"/api/v1/events/{event.slug}/standings/").json()
    first_group = standings["tables"][0]
    row = first_group["rows"][0]
    for key in ("opp", "victories", "shackle_victories", "crush_victories", "paralyze_victories",
                "blunt_victories", "stalemate_defeats", "resolve_defeats", "place", "shared", "disqualified"):
        assert key in row
    assert [t["key"] for t in standings["tiebreakers"]][0] == "opp"


def test_unpublished_events_are_hidden_from_everyone_but_organizers(open_event, organizer, stranger):
    open_event.published = False
    open_event.save()
    assert as_user(stranger).get(f"/api/v1/events/{open_event.slug}/").status_code == 404
    assert as_user(organizer).get(f"/api/v1/events/{open_event.slug}/").status_code == 200


def test_creating_an_event_needs_the_granted_organizer_role(stranger):  # R77
    anonymous = as_user().post("/api/v1/events/", {"name": "X", "slug": "x"}, format="json")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert anonymous["WWW-Authenticate"] == "Token"
    body = {"name": "Spring Open", "slug": "spring-open", "variants": ["double_time"]}
    refused = as_user(stranger).post("/api/v1/events/", body, format="json")
    assert_error(refused, 403, "permission_denied", says="site staff grant")
    assert not Event.objects.filter(slug="spring-open").exists()
    created = as_user(grant_organizer_role(stranger)).post("/api/v1/events/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["organizers"] == ["sam"] and created.json()["variants"] == ["double_time"]


def test_bad_input_gets_a_400_that_names_the_field(organizer):
    response = as_user(organizer).post("/api/v1/events/", {"name": "Y", "slug": "y",
                                                           "variants": ["army_recruiting"],
                                                           "battalion_count": 3}, format="json")
    assert_error(response, 400, "invalid", field="battalion_count", says="at least 6")
    assert not Event.objects.filter(slug="y").exists()
    response = as_user(organizer).post("/api/v1/events/", {"name": "Z", "slug": "z", "variants": ["laser"]},
                                         format="json")
    assert_error(response, 400, "invalid", field="variants[0]")


def test_only_organizers_change_an_event(open_event, stranger, organizer):
    response = as_user(stranger).patch(f"/api/v1/events/{open_event.slug}/", {"venue": "Pier 9"},
                                       format="json")
    assert_error(response, 403, "permission_denied")
    response = as_user(organizer).patch(f"/api/v1/events/{open_event.slug}/", {"venue": "Pier 9"},
                                        format="json")
    assert response.status_code == 200 and response.json()["venue"] == "Pier 9"


def test_variants_are_fixed_once_the_event_started(open_event, organizer):
    organizer_client = as_user(organizer)
    organizer_client.post(f"/api/v1/events/{open_event.slug}/form-groups/", {"group_count": 2, "seed": 1},
                          format="json")
    response = organizer_client.patch(f"/api/v1/events/{open_event.slug}/", {"variants": ["terrain"]},
                                      format="json")
    assert_error(response, 409, "conflict", says="cannot change")


def test_forming_groups_previews_then_saves_and_refuses_impossible_counts(open_event, organizer, stranger):
    url = f"/api/v1/events/{open_event.slug}/form-groups/"
    assert_error(as_user(stranger).post(url, {"group_count": 2}, format="json"), 403, "permission_denied")
    organizer_client = as_user(organizer)
    assert_error(organizer_client.post(url, {"group_count": 3}, format="json"), 400, "invalid",
                 field="group_count", says="2 groups of 4 or 4 groups of 2")
    preview = organizer_client.post(url, {"group_count": 2, "seed": 42, "preview": True}, format="json").json()
    assert preview["saved"] is False and not open_event.groups.exists()
    saved = organizer_client.post(url, {"group_count": 2, "seed": 42}, format="json").json()
    assert saved["groups"] == preview["groups"] and saved["seed"] == 42
    groups = as_user().get(f"/api/v1/events/{open_event.slug}/groups/").json()
    assert [len(g["members"]) for g in groups] == [4, 4]


def test_registering_generals_by_id_or_new_name(open_event, organizer):
    event = services.create_event(name="Small", slug="small", actor=organizer)
    existing = General.objects.create(name="Ivy")
    c = as_user(organizer)
    assert c.post("/api/v1/events/small/registrations/", {"general": existing.pk}, format="json").status_code == 201
    created = c.post("/api/v1/events/small/registrations/", {"name": "Jon"}, format="json")
    assert created.status_code == 201 and created.json()["general"]["name"] == "Jon"
    assert_error(c.post("/api/v1/events/small/registrations/", {"general": existing.pk}, format="json"), 400,
                 "invalid", says="already registered")
    assert_error(c.post("/api/v1/events/small/registrations/", {}, format="json"), 400, "invalid",
                 field="general")
    assert [r["general"]["name"] for r in c.get("/api/v1/events/small/registrations/").json()] == ["Ivy", "Jon"]
    assert event.registrations.count() == 2


def test_recording_a_result_updates_standings_and_the_scoreboard(open_event, organizer, stranger):
    services.form_groups(open_event, 2, "random", seed=3)
    battle = open_event.battles.first()
    scoreboard_url = f"/api/v1/events/{open_event.slug}/scoreboard/"
    screen = as_user()
    first = screen.get(scoreboard_url)
    etag = first.headers["ETag"]
    assert first.headers["Last-Modified"]
    assert screen.get(scoreboard_url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    url = f"/api/v1/battles/{battle.pk}/result/"
    body = {"kind": "victory", "winner": battle.general_a_id, "condition": "shackle"}
    assert_error(as_user(stranger).post(url, body, format="json"), 403, "permission_denied")
    response = as_user(organizer).post(url, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["result"]["opp"][str(battle.general_a_id)] == 5

    changed = screen.get(scoreboard_url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    rows = [row for table in changed.json()["tables"] for row in table["rows"]]
    assert {"general": {"id": battle.general_a_id, "name": battle.general_a.name}}.items() <= \
        next(r for r in rows if r["general"]["id"] == battle.general_a_id).items()
    assert next(r for r in rows if r["general"]["id"] == battle.general_a_id)["opp"] == 5
    assert changed.json()["latest_results"][0]["id"] == battle.pk


def test_result_errors_name_the_field_and_save_nothing(open_event, organizer):
    services.form_groups(open_event, 2, "random", seed=3)
    battle = open_event.battles.first()
    c = as_user(organizer)
    url = f"/api/v1/battles/{battle.pk}/result/"
    assert_error(c.post(url, {"kind": "victory", "winner": battle.general_a_id}, format="json"), 400, "invalid",
                 field="condition")
    assert_error(c.post(url, {"kind": "victory", "winner": 999999, "condition": "crush"}, format="json"), 400,
                 "invalid", field="winner")
    assert_error(c.post(url, {"kind": "draw"}, format="json"), 400, "invalid", field="kind")
    battle.refresh_from_db()
    assert not battle.kind
    c.post(url, {"kind": "stalemate"}, format="json")
    assert_error(c.post(url, {"kind": "resolve"}, format="json"), 400, "invalid", field="reason")


def test_forfeit_reaching_the_limit_offers_disqualification_then_disqualify(open_event, organizer):
    services.form_groups(open_event, 2, "random", seed=3)
    group = open_event.groups.get(index=0)
    absent = group.members.first().general
    c = as_user(organizer)
    bodies = []
    for battle in group.battles.filter(general_a=absent) | group.battles.filter(general_b=absent):
        bodies.append(c.post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "forfeit",
                                                                        "forfeited_by": absent.pk},
                             format="json").json())
        if bodies[-1]["offer_disqualification"]:
            break
    assert bodies[-1]["offer_disqualification"]["id"] == absent.pk and len(bodies) == 2
    response = c.post(f"/api/v1/events/{open_event.slug}/disqualifications/",
                      {"general": absent.pk, "reason": "forfeits"}, format="json")
    assert response.status_code == 201
    assert Battle.objects.filter(event=open_event, kind="unplayed_dq").count() == 1
    assert_error(c.post(f"/api/v1/events/{open_event.slug}/disqualifications/",
                        {"general": absent.pk, "reason": "forfeits"}, format="json"), 409, "conflict")


def test_audit_trail_is_for_organizers_only(open_event, organizer, stranger):
    assert_error(as_user(stranger).get(f"/api/v1/events/{open_event.slug}/audit/"), 403, "permission_denied")
    entries = as_user(organizer).get(f"/api/v1/events/{open_event.slug}/audit/").json()["results"]
    assert {"registered", "event created"} <= {e["action"] for e in entries}


def test_token_authentication(open_event, organizer):
    token = Token.objects.create(user=organizer)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = c.post(f"/api/v1/events/{open_event.slug}/close-registration/")
    assert response.status_code == 200 and response.json()["partitions"] == [[2, 4], [4, 2]]


def test_a_screen_polling_with_a_token_is_authenticated_like_any_client(open_event, organizer):
    url = f"/api/v1/events/{open_event.slug}/scoreboard/"
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    # The same refusal as on every other endpoint: 401, saying which scheme to use.
    assert_error(forged.get("/api/v1/events/"), 401, "authentication_failed")
    refused = forged.get(url)
    assert_error(refused, 401, "authentication_failed")
    assert refused["WWW-Authenticate"] == "Token"
    screen = APIClient()
    screen.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organizer).key}")
    assert screen.get(url).status_code == 200


def test_obtaining_a_token_with_username_and_password(organizer):
    response = APIClient().post("/api/v1/auth/token/", {"username": "olga", "password": "pw"}, format="json")
    assert response.status_code == 200 and response.json()["token"]
    wrong = APIClient().post("/api/v1/auth/token/", {"username": "olga", "password": "no"}, format="json")
    assert_error(wrong, 400, "invalid")


def test_battles_filter_by_event_general_and_decided():
    event = load_demo()
    c = as_user()
    open_battles = c.get(f"/api/v1/battles/?event={event.slug}&decided=false").json()
    assert open_battles["count"] == event.battles.filter(kind="").count()
    general = event.groups.first().members.first().general
    mine = c.get(f"/api/v1/battles/?event={event.slug}&general={general.pk}").json()["results"]
    assert mine and all(general.pk in (b["general_a"]["id"], b["general_b"]["id"]) for b in mine)


def test_crosstables_and_unknown_things_are_404_with_the_error_body():
    event = load_demo()
    grids = as_user().get(f"/api/v1/events/{event.slug}/crosstables/").json()["groups"]
    assert len(grids[0]["cells"]) == 4 and grids[0]["cells"][0][0]["text"] == "—"
    assert_error(as_user().get("/api/v1/events/nope/"), 404, "not_found")


def test_league_battles_reported_through_the_api(organizer):
    league = services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    ada, ben = General.objects.create(name="Ada"), General.objects.create(name="Ben")
    for g in (ada, ben):
        services.register(league, g)
    c = as_user(organizer)
    season = c.post("/api/v1/events/pier/seasons/", {"name": "Autumn"}, format="json").json()
    reported = c.post(f"/api/v1/seasons/{season['id']}/battles/",
                      {"general_a": ada.pk, "general_b": ben.pk,
                       "result": {"kind": "victory", "winner": ada.pk, "condition": "crush"}}, format="json")
    assert reported.status_code == 201, reported.content
    closed = c.post(f"/api/v1/seasons/{season['id']}/close/").json()
    assert closed["state"] == "closed" and closed["champion"]["id"] == ada.pk


def test_schema_and_docs_are_served():
    c = as_user()
    schema = c.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/events/{slug}/standings/" in schema.content
    assert c.get("/api/docs/").status_code == 200


def test_anonymous_clients_are_throttled_with_the_error_body(monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "2/min", "user": "600/min"})
    cache.clear()
    anonymous = as_user()
    assert [anonymous.get("/api/v1/events/").status_code for _ in range(2)] == [200, 200]
    assert_error(anonymous.get("/api/v1/events/"), 429, "throttled")
    cache.clear()


def test_scoreboard_answers_if_modified_since_and_follows_publishing(open_event, organizer):
    services.form_groups(open_event, 2, "random", seed=3)
    url = f"/api/v1/events/{open_event.slug}/scoreboard/"
    screen = as_user()
    first = screen.get(url)
    assert first.status_code == 200
    assert screen.get(url, HTTP_IF_MODIFIED_SINCE=first.headers["Last-Modified"]).status_code == 304
    open_event.published = False
    open_event.save()
    assert_error(screen.get(url), 404, "not_found")
    assert as_user(organizer).get(url).status_code == 200


def test_numbers_beyond_the_database_are_bad_input_not_server_errors(open_event, organizer):
    services.form_groups(open_event, 2, "random", seed=3)
    battle = open_event.battles.first()
    huge = 2**70
    response = as_user(organizer).post(f"/api/v1/battles/{battle.pk}/reports/",
                                       {"kind": "victory", "winner": huge, "condition": "crush"}, format="json")
    assert_error(response, 400, "invalid")
    assert_error(as_user().get(f"/api/v1/battles/?general={huge}"), 400, "invalid")


def test_a_screen_polling_too_often_is_throttled(open_event, settings, monkeypatch):
    import time
    from types import SimpleNamespace

    from tournaments.api import scoreboard

    # One fixed moment, so the per-minute window cannot turn over between the polls.
    monkeypatch.setattr(scoreboard, "time", SimpleNamespace(time=lambda: 1_800_000_030.0, monotonic=time.monotonic))
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "scoreboard": "3/min"}}
    screen = as_user()
    url = f"/api/v1/events/{open_event.slug}/scoreboard/"
    assert [screen.get(url).status_code for _ in range(3)] == [200, 200, 200]
    throttled = screen.get(url)
    assert_error(throttled, 429, "throttled")
    assert throttled["Retry-After"] == "30"  # the rest of the minute


def test_the_scoreboard_throttle_reads_its_rate_and_client_as_the_other_throttles_do(open_event, settings,
                                                                                    monkeypatch):
    import time
    from types import SimpleNamespace

    from tournaments.api import scoreboard

    monkeypatch.setattr(scoreboard, "time", SimpleNamespace(time=lambda: 1_800_000_030.0, monotonic=time.monotonic))
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 2, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "scoreboard": "2/hour"}}
    url = f"/api/v1/events/{open_event.slug}/scoreboard/"
    screen = as_user()
    # Behind two proxies the client is the second address from the right, whatever the first proxy adds.
    first = {"HTTP_X_FORWARDED_FOR": "10.0.0.1, 192.0.2.1, 192.0.2.9"}
    assert [screen.get(url, **first).status_code for _ in range(2)] == [200, 200]
    throttled = screen.get(url, HTTP_X_FORWARDED_FOR="10.9.9.9, 192.0.2.1, 192.0.2.7")
    assert_error(throttled, 429, "throttled")
    assert throttled["Retry-After"] == "3570"  # the rest of the hour
    assert screen.get(url, HTTP_X_FORWARDED_FOR="10.0.0.1, 192.0.2.2, 192.0.2.9").status_code == 200
