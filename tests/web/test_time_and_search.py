"""Each event's time zone (times shown in it with the zone named) and the landing page's list and
search."""
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments import timezones
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Battle, Event, General, Report
from tournaments.results import reporting

pytestmark = pytest.mark.django_db

WINTER_DEADLINE = datetime(2027, 1, 15, 20, 0, tzinfo=UTC)  # 15:00 in New York (EST, UTC-5)


@pytest.fixture
def organizer():
    return grant_organizer_role(get_user_model().objects.create_user("olga", password="pw"))


def new_york_day(organizer):
    """A started tournament in America/New_York with a report waiting, its deadline fixed in winter."""
    User = get_user_model()
    event = services.create_event(name="Hudson Open", slug="hudson", actor=organizer, time_zone="America/New_York")
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password="pw")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    services.form_groups(event, 2, "random", seed=1, actor=organizer)
    battle = event.battles.select_related("general_a__user", "general_b__user").order_by("pk").first()
    report = reporting.submit_report(battle, user=battle.general_a.user, kind=Battle.Kind.STALEMATE)
    Report.objects.filter(pk=report.pk).update(confirm_by=WINTER_DEADLINE)
    return event, battle


def test_times_are_shown_in_the_events_zone_with_the_zone_named(client, organizer):
    event, battle = new_york_day(organizer)
    client.force_login(battle.general_b.user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "15 Jan 2027, 15:00 EST" in page and 'title="America/New_York"' in page
    assert ", 20:00" not in page  # the UTC time is only in machine-readable attributes
    assert "15 Jan 2027, 15:00 EST" in client.get("/my/battles/").content.decode()
    assert "America/New_York" in client.get("/events/hudson/").content.decode()
    client.force_login(organizer)
    assert "15 Jan 2027, 15:00 EST" in client.get("/events/hudson/manage/").content.decode()
    AuditEntry.objects.filter(event=event).update(at=WINTER_DEADLINE)
    audit = client.get("/events/hudson/audit/").content.decode()
    assert "15 Jan 2027, 15:00 EST" in audit and "Times in America/New_York" in audit


def test_summer_time_and_zones_without_an_abbreviation():
    berlin, dubai = Event(time_zone="Europe/Berlin"), Event(time_zone="Asia/Dubai")
    summer = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    assert timezones.format_event_time(summer, berlin) == "1 Jul 2026, 14:00 CEST"
    assert timezones.format_event_time(summer, dubai) == "1 Jul 2026, 16:00 Asia/Dubai"
    assert timezones.format_event_time(summer, Event(time_zone="UTC")) == "1 Jul 2026, 12:00 UTC"


def test_the_days_of_an_event_read_naturally():
    def days(start, end=None):
        return timezones.format_dates(Event(starts_on=start, ends_on=end))

    assert days(date(2026, 11, 24)) == "24 Nov 2026"
    assert days(date(2026, 11, 24), date(2026, 11, 26)) == "24–26 Nov 2026"
    assert days(date(2026, 11, 30), date(2026, 12, 2)) == "30 Nov – 2 Dec 2026"
    assert days(date(2026, 12, 30), date(2027, 1, 2)) == "30 Dec 2026 – 2 Jan 2027"
    assert days(None) == ""


def test_an_unknown_zone_is_a_form_error_and_a_known_one_is_kept(client, organizer):
    client.force_login(organizer)
    fields = {"name": "Moon Cup", "slug": "moon", "kind": "tournament", "forfeit_award_opp": 1,
              "forfeits_to_disqualify": 2}
    page = client.get("/events/new/").content.decode()
    assert 'name="time_zone"' in page and '<option value="Europe/Berlin">' in page
    refused = client.post("/events/new/", {**fields, "time_zone": "Moon/Tranquility"})
    assert refused.status_code == 200 and "is not a time zone" in refused.content.decode()
    assert not Event.objects.exists()
    dates = client.post("/events/new/", {**fields, "time_zone": "UTC", "starts_on": "2026-12-05",
                                         "ends_on": "2026-12-04"})
    assert "The last day cannot be before the first." in dates.content.decode()
    created = client.post("/events/new/", {**fields, "time_zone": "Europe/Berlin", "starts_on": "2026-12-05",
                                           "ends_on": "2026-12-06", "description": "Two days by the sea."})
    assert created.status_code == 302
    assert client.post("/events/new/", {**fields, "slug": "sun", "time_zone": ""}).status_code == 302
    assert Event.objects.get(slug="sun").time_zone == "UTC"  # empty: the site's zone
    event = Event.objects.get(slug="moon")
    assert (event.time_zone, event.ends_on, event.description) == ("Europe/Berlin", date(2026, 12, 6),
                                                                   "Two days by the sea.")


def test_an_organizer_changes_the_details_and_the_audit_keeps_it(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    assert event.time_zone == "UTC"  # settings.TIME_ZONE
    client.force_login(organizer)
    assert "/events/quay/details/" in client.get("/events/quay/manage/").content.decode()
    refused = client.post("/events/quay/details/", {"name": "Quay Open", "time_zone": "Europe/Nowhere"})
    assert "is not a time zone" in refused.content.decode()
    response = client.post("/events/quay/details/", {"name": "Quay Open", "time_zone": "Asia/Tokyo",
                                                      "venue": "Pier 4", "starts_on": "2026-12-05"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.time_zone, event.venue) == ("Asia/Tokyo", "Pier 4")
    entry = event.audit_entries.get(action="details changed")
    assert entry.before["time_zone"] == "UTC" and entry.after["time_zone"] == "Asia/Tokyo"
    stranger = get_user_model().objects.create_user("sam")
    client.force_login(stranger)
    assert client.get("/events/quay/details/").status_code == 403


def test_the_api_takes_a_zone_and_refuses_an_unknown_one_with_a_400(organizer):
    api = APIClient()
    api.force_authenticate(organizer)
    refused = api.post("/api/v1/events/", {"name": "Moon Cup", "slug": "moon", "time_zone": "Mars/Olympus"},
                       format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert "time_zone" in body["fields"] and "is not a time zone" in body["fields"]["time_zone"][0]
    created = api.post("/api/v1/events/", {"name": "Moon Cup", "slug": "moon", "time_zone": "America/New_York",
                                           "starts_on": "2026-12-05", "description": "By the lake."},
                       format="json")
    assert created.status_code == 201, created.content
    assert created.json()["time_zone"] == "America/New_York" and created.json()["description"] == "By the lake."
    assert api.post("/api/v1/events/", {"name": "Sun Cup", "slug": "sun"}, format="json").json()["time_zone"] == "UTC"
    changed = api.patch("/api/v1/events/moon/", {"time_zone": "Europe/Berlin", "ends_on": "2026-12-06"},
                        format="json")
    assert changed.status_code == 200 and changed.json()["time_zone"] == "Europe/Berlin"
    assert api.patch("/api/v1/events/moon/", {"time_zone": "Europe/Nowhere"}, format="json").status_code == 400
    backwards = api.patch("/api/v1/events/moon/", {"ends_on": "2026-12-01"}, format="json")
    assert backwards.status_code == 400 and "ends_on" in backwards.json()["fields"]
    assert Event.objects.get(slug="moon").time_zone == "Europe/Berlin"


def test_the_landing_page_lists_ongoing_and_upcoming_events_before_past_ones(client, organizer):
    today = datetime.now(UTC).date()
    services.create_event(name="Old Harbour Cup", slug="old", actor=organizer, starts_on=today - timedelta(days=60),
                          venue="Old Harbour", description="Last season's cup.")
    services.create_event(name="Spring Open", slug="spring", actor=organizer, starts_on=today + timedelta(days=30),
                          ends_on=today + timedelta(days=31), venue="The Keep, Hall 2",
                          description="Two days of qualifiers.", time_zone="Europe/Berlin")
    running = services.create_event(name="Autumn League", slug="autumn", kind=Event.Kind.LEAGUE, actor=organizer)
    seasons.open_season(running, "Autumn", actor=organizer)
    services.create_event(name="Secret Draft", slug="secret", actor=organizer, published=False)
    page = client.get("/").content.decode()
    assert page.index("Happening now") < page.index("Autumn League") < page.index("Coming up") \
        < page.index("Spring Open") < page.index("Past events") < page.index("Old Harbour Cup")
    assert "Two days of qualifiers." in page and "The Keep, Hall 2" in page and "Europe/Berlin" in page
    assert timezones.format_dates(Event.objects.get(slug="spring")) in page
    assert "Secret Draft" not in page
    assert '<label for="event-search">' in page and 'type="search"' in page


def test_the_search_finds_by_name_venue_and_description_and_says_when_nothing_matches(client, organizer):
    services.create_event(name="Spring Open", slug="spring", actor=organizer, venue="The Keep, Hall 2")
    services.create_event(name="Quay Cup", slug="quay", actor=organizer, description="By the old pier.")
    services.create_event(name="Hidden Cup", slug="hidden", actor=organizer, published=False, venue="The Keep")
    by_name = client.get("/", {"q": "spring"}).content.decode()
    assert "Spring Open" in by_name and "Quay Cup" not in by_name and "1 event matches" in by_name
    by_venue = client.get("/", {"q": "keep"}).content.decode()
    assert "Spring Open" in by_venue and "Hidden Cup" not in by_venue
    assert "Quay Cup" in client.get("/", {"q": "PIER"}).content.decode()
    nothing = client.get("/", {"q": "volcano <b>"}).content.decode()
    assert "No event matches “volcano &lt;b&gt;”." in nothing and 'value="volcano &lt;b&gt;"' in nothing
