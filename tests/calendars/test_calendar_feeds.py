"""Calendar feeds: an event's schedule and a player's own battles and deadlines, read back with the
`icalendar` library as a calendar app would import them: every time in the event's zone, entries that keep
their UIDs from one fetch to the next, a player's feed behind a secret address that a new one ends."""
import datetime as dt
import re
from types import SimpleNamespace
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from icalendar import Calendar

from tournaments import timezones
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import Event, General, NotificationSettings
from tournaments.results import reporting
from tournaments.swiss import rounds

pytestmark = pytest.mark.django_db
BERLIN = ZoneInfo("Europe/Berlin")
NAME = "Harbour Open, Night; Edition"


@pytest.fixture
def organizer():
    return grant_organizer_role(get_user_model().objects.create_user("olga", password="pw"))


@pytest.fixture
def cup(organizer):
    """A Warlord CCG Swiss event in Berlin on 26-27 Nov 2036, lists locking at 10:00 Berlin time; four
    players with their own accounts, registration still open."""
    event = services.create_event(
        name=NAME, slug="harbour-open", actor=organizer, game="warlord-ccg-4e", time_zone="Europe/Berlin",
        starts_on=dt.date(2036, 11, 26), ends_on=dt.date(2036, 11, 27), venue="Pier 3; Hall B",
        description="Doors at 9,\nfirst round at 10; bring sleeves",
        list_deadline=dt.datetime(2036, 11, 26, 9, 0, tzinfo=dt.UTC))  # 10:00 CET
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    return Event.objects.get(pk=event.pk)


def parsed(response):
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def entries(calendar):
    return {str(entry["UID"]): entry for entry in calendar.walk("VEVENT")}


def paired(event, organizer):
    services.close_registration(event, actor=organizer)
    return rounds.pair_next_round(Event.objects.get(pk=event.pk), actor=organizer)


# --- an event's feed -------------------------------------------------------------------------------------

def test_the_event_feed_parses_back_with_its_days_and_the_list_deadline_in_the_events_zone(cup, client):
    response = client.get("/events/harbour-open/calendar.ics")
    calendar = parsed(response)
    assert 'filename="harbour-open.ics"' in response["Content-Disposition"]
    assert "max-age=300" in response["Cache-Control"] and "public" in response["Cache-Control"]
    assert str(calendar["VERSION"]) == "2.0" and "WARLINE" in str(calendar["PRODID"])
    assert calendar.calendar_name == NAME and str(calendar["X-WR-TIMEZONE"]) == "Europe/Berlin"
    assert [zone.tz_name for zone in calendar.timezones] == ["Europe/Berlin"]

    deadline, days = sorted(calendar.walk("VEVENT"), key=lambda entry: isinstance(entry.start, dt.datetime),
                            reverse=True)
    assert (days.start, days.end) == (dt.date(2036, 11, 26), dt.date(2036, 11, 28))  # DTEND: the day after
    assert str(days["SUMMARY"]) == NAME and str(days["LOCATION"]) == "Pier 3; Hall B"
    assert str(days["DESCRIPTION"]) == "Doors at 9,\nfirst round at 10; bring sleeves"
    assert deadline["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert deadline.start == dt.datetime(2036, 11, 26, 10, 0, tzinfo=BERLIN)
    assert (deadline.start.hour, deadline.start.utcoffset()) == (10, dt.timedelta(hours=1))  # stays 10:00 Berlin
    assert "DTEND" not in deadline and str(deadline["SUMMARY"]) == f"{NAME}: lists lock"
    assert b"REFRESH-INTERVAL;VALUE=DURATION:PT1H" in response.content or b"REFRESH-INTERVAL:PT1H" in response.content
    assert b"X-PUBLISHED-TTL:PT1H" in response.content


@pytest.mark.parametrize("zone, local", [("UTC", dt.datetime(2026, 7, 1, 10, 0)),
                                         ("America/New_York", dt.datetime(2026, 7, 1, 10, 0)),  # summer time
                                         ("Asia/Tokyo", dt.datetime(2026, 7, 1, 10, 0))])
def test_a_deadline_keeps_its_local_time_in_any_zone(cup, client, zone, local):
    moment = local.replace(tzinfo=ZoneInfo(zone))
    Event.objects.filter(pk=cup.pk).update(time_zone=zone, list_deadline=moment)
    calendar = parsed(client.get("/events/harbour-open/calendar.ics"))
    deadline = next(entry for entry in calendar.walk("VEVENT") if isinstance(entry.start, dt.datetime))
    assert deadline.start == moment and deadline.start.astimezone(ZoneInfo(zone)).hour == 10
    assert deadline.start.utcoffset() == moment.utcoffset()
    if zone == "UTC":  # written as UTC (...Z), no VTIMEZONE needed
        assert calendar.timezones == [] and "TZID" not in deadline["DTSTART"].params
    else:
        assert [tz.tz_name for tz in calendar.timezones] == [zone] and deadline["DTSTART"].params["TZID"] == zone


def test_odd_names_are_escaped_in_the_text_and_read_back_whole(cup, client):
    Event.objects.filter(pk=cup.pk).update(name="Cup, with; odd\nname \\ here")
    body = client.get("/events/harbour-open/calendar.ics").content.decode()
    assert "SUMMARY:Cup\\, with\\; odd name \\\\ here" in body  # RFC 5545 TEXT: \, \; \\ (the title one line)
    assert "DESCRIPTION:Doors at 9\\,\\nfirst round at 10\\; bring sleeves" in body
    calendar = Calendar.from_ical(body)
    assert {str(entry["SUMMARY"]) for entry in calendar.walk("VEVENT")} == {
        "Cup, with; odd name \\ here", "Cup, with; odd name \\ here: lists lock"}


def test_the_uids_stay_the_same_from_one_fetch_to_the_next(cup, client):
    first = entries(parsed(client.get("/events/harbour-open/calendar.ics")))
    Event.objects.filter(pk=cup.pk).update(list_deadline=dt.datetime(2036, 11, 26, 11, 0, tzinfo=dt.UTC))
    second = entries(parsed(client.get("/events/harbour-open/calendar.ics")))
    host = urlsplit(settings.OPP_SITE_URL).hostname
    assert set(first) == set(second) == {f"event-{cup.pk}@{host}", f"event-{cup.pk}-list-deadline@{host}"}
    moved = second[f"event-{cup.pk}-list-deadline@{host}"]  # the same entry, moved: not a second one
    assert moved.start == dt.datetime(2036, 11, 26, 12, 0, tzinfo=BERLIN)


def test_the_feed_shows_what_the_event_page_shows(cup, client):
    """Imported into a calendar: each entry's day and time, read in the event's zone as a calendar app
    shows it, are the words the event page uses."""
    page = client.get("/events/harbour-open/").content.decode()
    assert 'href="/events/harbour-open/calendar.ics"' in page  # "Add to calendar"
    for entry in parsed(client.get("/events/harbour-open/calendar.ics")).walk("VEVENT"):
        if isinstance(entry.start, dt.datetime):
            assert entry.start.tzinfo is not None
            shown = timezones.format_event_time(entry.start, cup)
            assert shown == "26 Nov 2036, 10:00 CET" and f"Lists lock at {shown}." in page
        else:
            days = SimpleNamespace(starts_on=entry.start, ends_on=entry.end - dt.timedelta(days=1))
            assert timezones.format_dates(days) == timezones.format_dates(cup) == "26–27 Nov 2036"
            assert timezones.format_dates(days) in page


def test_an_unpublished_events_feed_is_404_for_strangers_and_private_for_its_organizers(cup, client, organizer):
    Event.objects.filter(pk=cup.pk).update(published=False)
    assert client.get("/events/harbour-open/calendar.ics").status_code == 404
    client.force_login(get_user_model().objects.get(username="ada"))
    assert client.get("/events/harbour-open/calendar.ics").status_code == 404
    client.force_login(organizer)
    response = client.get("/events/harbour-open/calendar.ics")
    assert response.status_code == 200 and "private" in response["Cache-Control"]
    assert client.get("/events/no-such-event/calendar.ics").status_code == 404


# --- a player's own feed ---------------------------------------------------------------------------------

def feed_path(client, username):
    """The player's feed address, made on their My calendar page (signed in), as a path."""
    client.force_login(get_user_model().objects.get(username=username))
    assert client.post("/my/calendar/", {"action": "new"}).status_code == 302
    page = client.get("/my/calendar/").content.decode()
    url = re.search(r'id="calendar-url"[^>]*value="([^"]+)"', page).group(1)
    assert re.search(r'href="webcal://[^"]+/calendar/[^"]+\.ics"', page)
    client.logout()  # a calendar app sends no cookies
    return urlsplit(url).path


def test_a_players_feed_has_their_battles_and_deadlines_in_the_events_zone_and_nobody_elses(cup, client,
                                                                                            organizer):
    first_round = paired(cup, organizer)
    ada = General.objects.get(name="Ada")
    mine = first_round.battles.get(Q(general_a=ada) | Q(general_b=ada))
    others = first_round.battles.exclude(pk=mine.pk).get()
    opponent = mine.opponent_of(ada)
    General.objects.filter(pk=opponent.pk).update(name="Smith, John;\nThe Hammer")
    opponent.refresh_from_db()
    report = reporting.submit_report(mine, user=opponent.user, kind="victory", winner=opponent,
                                     facts={"status": "finished"})
    assert report.confirm_by is not None

    response = client.get(feed_path(client, "ada"))
    calendar = parsed(response)
    assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]
    assert calendar.calendar_name == "WARLINE: Ada"
    host = urlsplit(settings.OPP_SITE_URL).hostname
    found = entries(calendar)
    assert set(found) == {f"event-{cup.pk}@{host}", f"event-{cup.pk}-list-deadline@{host}",
                          f"battle-{mine.pk}@{host}", f"report-{report.pk}-confirm-by@{host}"}
    assert f"battle-{others.pk}@{host}" not in found  # another pair's battle is never in Ada's feed

    battle = found[f"battle-{mine.pk}@{host}"]
    assert str(battle["SUMMARY"]) == f"{NAME}: Swiss round 1, table {mine.number}: Ada v Smith, John; The Hammer"
    assert battle["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert battle.start == first_round.paired_at.astimezone(BERLIN).replace(microsecond=0)
    assert str(battle["URL"]).endswith(f"/battles/{mine.pk}/")

    answer = found[f"report-{report.pk}-confirm-by@{host}"]
    pair = " v ".join(" ".join(general.name.split()) for general in (mine.general_a, mine.general_b))
    assert str(answer["SUMMARY"]) == f"{NAME}: confirm or dispute the report of {pair}"
    assert answer.start == report.confirm_by.astimezone(BERLIN).replace(microsecond=0)
    assert answer["DTSTART"].params["TZID"] == "Europe/Berlin"

    reporter_feed = entries(parsed(client.get(feed_path(client, opponent.user.username))))
    assert "your report of" in str(reporter_feed[f"report-{report.pk}-confirm-by@{host}"]["SUMMARY"])
    assert f"battle-{others.pk}@{host}" not in reporter_feed


def test_a_wrong_or_replaced_address_is_404_and_a_removed_one_too(cup, client):
    old = feed_path(client, "ada")
    assert client.get(old).status_code == 200
    new = feed_path(client, "ada")  # "Make a new address"
    assert new != old and client.get(old).status_code == 404 and client.get(new).status_code == 200
    assert client.get(new.replace(new[-8:-4], "AAAA")).status_code == 404
    assert client.get("/calendar/.ics").status_code == 404 and client.get("/calendar/short.ics").status_code == 404
    client.force_login(get_user_model().objects.get(username="ada"))
    client.post("/my/calendar/", {"action": "remove"})
    assert NotificationSettings.objects.get(user__username="ada").calendar_token == ""
    assert client.get(new).status_code == 404
    assert client.post("/my/calendar/", {"action": "explode"}).status_code == 400


def test_an_inactive_account_has_no_feed_and_the_page_needs_signing_in(cup, client):
    path = feed_path(client, "ben")
    get_user_model().objects.filter(username="ben").update(is_active=False)
    assert client.get(path).status_code == 404
    assert client.get("/my/calendar/").status_code == 302  # to the sign-in page


def test_my_notifications_links_to_my_calendar(cup, client):
    client.force_login(get_user_model().objects.get(username="ada"))
    assert 'href="/my/calendar/"' in client.get("/my/notifications/").content.decode()


def test_a_players_feed_has_their_multiplayer_table_and_its_report_to_confirm(client):
    """Warlord CCG tables of three: the table Ana sits at (its players in seat order) and, once a player
    reported it, until when Ana confirms or disputes it; never the other table."""
    from tournaments.swiss import tables

    olga = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Storm Tables", slug="storm-tables", actor=olga, game="warlord-ccg-4e",
                                  table_size=3, swiss_rounds=2, placement_points=[3, 1, 0],
                                  time_zone="America/New_York")
    for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Fa"):
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=olga)
    first_round = rounds.pair_next_round(Event.objects.get(pk=event.pk), actor=olga)
    ana = General.objects.get(name="Ana")
    mine = first_round.tables.get(seats__general=ana)
    other = first_round.tables.exclude(pk=mine.pk).get()
    seated = [General.objects.get(pk=pk) for pk in tables.seated_ids(mine)]
    reporter = next(general for general in seated if general != ana)
    report = tables.report_table(mine, user=reporter.user,
                                 eliminations=[general.pk for general in seated if general != reporter])

    found = entries(parsed(client.get(feed_path(client, "ana"))))
    host = urlsplit(settings.OPP_SITE_URL).hostname
    assert set(found) == {f"table-{mine.pk}@{host}", f"table-report-{report.pk}-confirm-by@{host}"}
    table = found[f"table-{mine.pk}@{host}"]
    assert str(table["DESCRIPTION"]) == "Players in seat order: " + ", ".join(general.name for general in seated)
    assert table["DTSTART"].params["TZID"] == "America/New_York"
    answer = found[f"table-report-{report.pk}-confirm-by@{host}"]
    assert str(answer["SUMMARY"]) == f"Storm Tables: confirm or dispute the report of table {mine.number} (Swiss round 1)"
    assert answer.start == report.confirm_by.astimezone(ZoneInfo("America/New_York")).replace(microsecond=0)
    assert f"table-{other.pk}@{host}" not in found


def test_a_groups_battles_are_on_the_events_days_and_a_leagues_without_days_have_no_entry(client, organizer):
    """Battles of a group or a season have no time of their own: they are on the event's days, or nowhere."""
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer, time_zone="Europe/Berlin",
                                  starts_on=dt.date(2026, 12, 5), ends_on=dt.date(2026, 12, 6))
    league = services.create_event(name="Pier League", slug="pier", kind=Event.Kind.LEAGUE, actor=organizer)
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
        services.register(league, general, actor=general.user)
    services.form_groups(event, 2, "random", seed=9, actor=organizer)
    ada = General.objects.get(name="Ada")
    hers = list(event.battles.filter(Q(general_a=ada) | Q(general_b=ada)))
    season = seasons.open_season(league, "Spring", actor=organizer)
    in_the_league = seasons.schedule_battle(season, ada, General.objects.get(name="Ben"), actor=organizer)
    assert hers and in_the_league.pk

    found = entries(parsed(client.get(feed_path(client, "ada"))))
    host = urlsplit(settings.OPP_SITE_URL).hostname
    assert set(found) == {f"event-{event.pk}@{host}"} | {f"battle-{battle.pk}@{host}" for battle in hers}
    for battle in hers:
        entry = found[f"battle-{battle.pk}@{host}"]
        assert (entry.start, entry.end) == (dt.date(2026, 12, 5), dt.date(2026, 12, 7))
        assert str(entry["SUMMARY"]).startswith("Quay Cup: Ada v ") and f"({battle.group.name})" in str(entry["SUMMARY"])
