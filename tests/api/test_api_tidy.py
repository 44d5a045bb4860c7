"""The API's lists as a client asks for them: pages of a chosen size (with a maximum), ordering, search,
filters only where they apply, a query parameter an operation does not take refused in words, and the
schema saying all of it, with a tag per resource (docs/api.md)."""
import datetime

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.api.query import MAX_PAGE_SIZE
from tournaments.api.unknown_parameters import documented_operations, refusal
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event

from .conftest import as_user

pytestmark = pytest.mark.django_db

EVENTS = [  # name, starts_on, venue
    ("Harbour Open", datetime.date(2026, 5, 2), "Old Harbour Hall"),
    ("autumn Cup", datetime.date(2026, 9, 12), "Mill Lane Club"),
    ("Beacon Classic", None, ""),
    ("Quay League", datetime.date(2026, 3, 1), "Harbour Library"),
    ("Zephyr Masters", datetime.date(2026, 7, 20), "Hilltop Barn"),
]


@pytest.fixture
def events():
    organizer = grant_organizer_role(get_user_model().objects.create_user("olga"))
    for name, starts_on, venue in EVENTS:
        event = services.create_event(name=name, slug=name.lower().replace(" ", "-"), actor=organizer)
        Event.objects.filter(pk=event.pk).update(starts_on=starts_on, venue=venue)
    return organizer


def names(response):
    assert response.status_code == 200, response.content
    return [item["name"] for item in response.json()["results"]]



def query_parameters(operation):
    return {parameter["name"] for parameter in operation.get("parameters", []) if parameter["in"] == "query"}


# --- paging ------------------------------------------------------------------------------------------------

def test_page_size_chooses_the_page_and_the_next_link_keeps_it(events):
    first = as_user().get("/api/v1/events/?page_size=2&ordering=name").json()
    assert first["count"] == 5 and [e["name"] for e in first["results"]] == ["autumn Cup", "Beacon Classic"]
    assert "page_size=2" in first["next"] and "page=2" in first["next"]
    last = as_user().get("/api/v1/events/?page_size=2&ordering=name&page=3").json()
    assert [e["name"] for e in last["results"]] == ["Zephyr Masters"] and last["next"] is None


def test_a_page_size_beyond_the_maximum_is_refused_not_cut_down(events):
    assert len(names(as_user().get(f"/api/v1/events/?page_size={MAX_PAGE_SIZE}"))) == 5
    refused = as_user().get(f"/api/v1/events/?page_size={MAX_PAGE_SIZE + 1}")
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "invalid" and "page_size" in body["fields"]
    assert body["detail"] == f"page_size: A whole number from 1 to {MAX_PAGE_SIZE}, not '{MAX_PAGE_SIZE + 1}'."
    for wrong in ("0", "-3", "many"):
        assert as_user().get(f"/api/v1/events/?page_size={wrong}").status_code == 400


def test_a_page_past_the_end_is_404_with_how_many_pages_there_are(events):
    missing = as_user().get("/api/v1/events/?page_size=2&page=4")
    assert missing.status_code == 404
    assert missing.json()["detail"] == ("There is no page 4: the list has 3 pages of 2 (`page` from 1 to 3, "
                                        "or `last`).")
    assert as_user().get("/api/v1/events/?page=zero").status_code == 400
    assert names(as_user().get("/api/v1/events/?page_size=2&page=last&ordering=name")) == ["Zephyr Masters"]


# --- ordering and search -----------------------------------------------------------------------------------

def test_events_are_ordered_by_name_ignoring_case_or_by_date_with_undated_ones_last(events):
    by_name = ["autumn Cup", "Beacon Classic", "Harbour Open", "Quay League", "Zephyr Masters"]
    assert names(as_user().get("/api/v1/events/?ordering=name")) == by_name
    assert names(as_user().get("/api/v1/events/?ordering=-name")) == by_name[::-1]
    assert names(as_user().get("/api/v1/events/?ordering=starts_on")) == [
        "Quay League", "Harbour Open", "Zephyr Masters", "autumn Cup", "Beacon Classic"]
    assert names(as_user().get("/api/v1/events/?ordering=-starts_on")) == [
        "autumn Cup", "Zephyr Masters", "Harbour Open", "Quay League", "Beacon Classic"]
    # Without `ordering`: newest first, as before.
    assert names(as_user().get("/api/v1/events/")) == [name for name, _day, _venue in EVENTS][::-1]


def test_ordering_by_a_field_not_offered_is_refused_with_the_fields_offered(events):
    refused = as_user().get("/api/v1/events/?ordering=name,-organizers")
    assert refused.status_code == 400
    assert refused.json()["detail"] == ("ordering: Cannot order by '-organizers': order by name, starts_on, "
                                        "created_at (comma-separated, `-` before a name for descending).")


def test_search_finds_events_by_name_or_venue_ignoring_case(events):
    assert sorted(names(as_user().get("/api/v1/events/?search=HARBOUR"))) == ["Harbour Open", "Quay League"]
    assert names(as_user().get("/api/v1/events/?search=harbour+hall")) == ["Harbour Open"]
    assert names(as_user().get("/api/v1/events/?search=nowhere")) == []
    too_long = as_user().get("/api/v1/events/?search=" + "x" * 101)
    assert too_long.status_code == 400 and "search" in too_long.json()["fields"]


def test_search_and_ordering_and_a_filter_combine(events):
    Event.objects.filter(slug="quay-league").update(kind=Event.Kind.LEAGUE)
    assert names(as_user().get("/api/v1/events/?search=harbour&kind=tournament")) == ["Harbour Open"]
    assert names(as_user().get("/api/v1/events/?search=a&ordering=-name&page_size=2")) == [
        "Zephyr Masters", "Quay League"]


def test_generals_are_ordered_by_name_and_searched_ignoring_spaces(events):
    from tournaments.models import General

    for name in ("dana", "Cyd", "Ada Moss", "Ben"):
        General.objects.create(name=name)
    assert names(as_user().get("/api/v1/generals/?ordering=name")) == ["Ada Moss", "Ben", "Cyd", "dana"]
    assert names(as_user().get("/api/v1/generals/?ordering=-name")) == ["dana", "Cyd", "Ben", "Ada Moss"]
    assert names(as_user().get("/api/v1/generals/?search=adamoss")) == ["Ada Moss"]
    # Nobody is rated yet: equal on every asked field, they come in id order (the order they were added).
    assert names(as_user().get("/api/v1/generals/?ordering=-rating")) == ["dana", "Cyd", "Ada Moss", "Ben"]


def test_battles_are_searched_by_either_generals_name_and_ordered(event_day):
    event, _organizer, _battle = event_day
    battles = as_user().get(f"/api/v1/battles/?event={event.slug}").json()["results"]
    assert len(battles) >= 2
    one = battles[0]["general_b"]["name"]
    found = as_user().get(f"/api/v1/battles/?search={one.lower()}").json()["results"]
    assert found and all(one in (b["general_a"]["name"], b["general_b"]["name"]) for b in found)
    assert len(found) < len(battles)
    ids = [b["id"] for b in as_user().get("/api/v1/battles/?ordering=-id").json()["results"]]
    assert ids == sorted(ids, reverse=True)


# --- filters only where they apply, unknown parameters refused -------------------------------------------

def test_an_event_filter_on_a_sub_resource_is_refused_naming_it(events):
    groups = as_user().get("/api/v1/events/harbour-open/groups/?kind=league")
    assert groups.status_code == 400  # it answered 404 when the list's filter also filtered the event
    body = groups.json()
    assert body["code"] == "invalid" and list(body["fields"]) == ["kind"]
    assert body["detail"] == "Unknown query parameter `kind`: GET /api/v1/events/{slug}/groups/ takes none."
    assert as_user().get("/api/v1/events/harbour-open/groups/").status_code == 200
    assert as_user().get("/api/v1/events/harbour-open/?kind=league").status_code == 400


def test_an_unknown_parameter_is_refused_with_the_ones_the_operation_takes(events):
    refused = as_user().get("/api/v1/events/?colour=red&kind=tournament&sort=name")
    assert refused.status_code == 400
    body = refused.json()
    assert set(body["fields"]) == {"colour", "sort"}
    assert body["detail"] == ("Unknown query parameters `colour`, `sort`: GET /api/v1/events/ takes `game`, "
                              "`kind`, `ordering`, `page`, `page_size`, `search`, `state`.")
    # DRF's own format switch is taken everywhere.
    assert as_user().get("/api/v1/events/?format=json").status_code == 200


def test_a_write_with_a_query_parameter_it_does_not_take_changes_nothing(events):
    olga = events
    refused = as_user(olga).post("/api/v1/events/?dry_run=1", {"name": "Tide Cup", "slug": "tide-cup"},
                                 format="json")
    assert refused.status_code == 400 and "dry_run" in refused.json()["fields"]
    assert not Event.objects.filter(slug="tide-cup").exists()


def test_the_scoreboards_fast_path_refuses_unknown_parameters_too(event_day):
    event, _organizer, _battle = event_day
    url = f"/api/v1/events/{event.slug}/scoreboard/"
    assert as_user().get(url).status_code == 200  # the head is now cached: the next poll is the fast path's
    refused = APIClient().get(url + "?refresh=1")
    assert refused.status_code == 400 and "refresh" in refused.json()["fields"]
    assert APIClient().get(url).status_code == 200


def test_every_parameter_the_schema_documents_is_taken_and_nothing_else(schema):
    operations = documented_operations(schema)
    checked = 0
    for template, item in schema["paths"].items():
        path = template.replace("{slug}", "x").replace("{id}", "1").replace("{general_id}", "2") \
            .replace("{other_id}", "3").replace("{username}", "u").replace("{report_pk}", "4") \
            .replace("{delivery_pk}", "5")
        for method, operation in item.items():
            taken = query_parameters(operation)
            assert refusal(path, method.upper(), sorted(taken)) is None, (template, method)
            assert refusal(path, method.upper(), ["surely_not_a_parameter"]) is not None, (template, method)
            checked += 1
    assert checked == sum(len(methods) for _regex, _template, _count, methods in operations)


# --- the schema ------------------------------------------------------------------------------------------

def test_the_schema_lists_each_filter_only_on_its_list_operation(schema):
    where = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for name in query_parameters(operation):
                where.setdefault(name, set()).add(f"{method.upper()} {path}")
    for name in ("state", "game"):
        assert where[name] == {"GET /api/v1/events/"}, (name, where[name])
    assert where["kind"] == {"GET /api/v1/events/", "GET /api/v1/battles/"}  # an event's kind, a result's kind
    for name in ("event", "group", "season", "round", "playoff", "decided", "general"):
        assert where[name] == {"GET /api/v1/battles/"}, (name, where[name])
    assert where["ordering"] == {"GET /api/v1/events/", "GET /api/v1/battles/", "GET /api/v1/generals/"}
    assert where["page_size"] >= {"GET /api/v1/events/", "GET /api/v1/battles/", "GET /api/v1/generals/",
                                  "GET /api/v1/ratings/"}
    assert "GET /api/v1/events/{slug}/groups/" not in set().union(*where.values())
    page_size = next(p for p in schema["paths"]["/api/v1/events/"]["get"]["parameters"] if p["name"] == "page_size")
    assert page_size["schema"]["maximum"] == MAX_PAGE_SIZE


def test_each_operation_is_tagged_by_its_resource(schema):
    tags = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert len(operation["tags"]) == 1, (path, method)
            tags[(method, path)] = operation["tags"][0]
    assert len(set(tags.values())) > 10
    assert "v1" not in tags.values()
    expected = {
        ("get", "/api/v1/events/"): "events", ("get", "/api/v1/events/{slug}/standings/"): "events",
        ("post", "/api/v1/events/{slug}/lists/"): "lists", ("put", "/api/v1/events/{slug}/list-pool/"): "lists",
        ("post", "/api/v1/events/{slug}/swiss/pair/"): "swiss", ("get", "/api/v1/battles/"): "battles",
        ("post", "/api/v1/reports/{id}/confirm/"): "reports", ("get", "/api/v1/generals/{id}/profile/"): "generals",
        ("post", "/api/v1/games/{slug}/check/"): "games", ("post", "/api/v1/tables/{id}/report/"): "tables",
        ("post", "/api/v1/invitations/{id}/accept/"): "invitations",
        ("post", "/api/v1/organizer-invitations/{id}/accept/"): "invitations", ("get", "/api/v1/me/"): "me",
        ("post", "/api/v1/seasons/{id}/close/"): "seasons", ("post", "/api/v1/auth/token/"): "auth",
        ("get", "/api/v1/ratings/"): "ratings",
    }
    assert {key: tags[key] for key in expected} == expected
    described = {tag["name"]: tag.get("description") for tag in schema["tags"]}
    assert set(tags.values()) <= set(described) and all(described[tag] for tag in set(tags.values()))
    unknown = schema["paths"]["/api/v1/events/{slug}/groups/"]["get"]["responses"]["400"]
    assert "query parameter" in unknown["description"]


def test_an_event_names_where_others_follow_it(events):
    client, event = APIClient(), Event.objects.get(slug="harbour-open")
    links = client.get(f"/api/v1/events/{event.slug}/").json()["links"]
    assert links == {"page": f"http://testserver/events/{event.slug}/",
                     "calendar": f"http://testserver/events/{event.slug}/calendar.ics",
                     "embed": f"http://testserver/embed/events/{event.slug}/",
                     "scoreboard": f"http://testserver/api/v1/events/{event.slug}/scoreboard/"}
    for name in ("page", "calendar", "embed", "scoreboard"):  # each one answers an anonymous reader
        assert client.get(links[name].removeprefix("http://testserver")).status_code == 200, name
