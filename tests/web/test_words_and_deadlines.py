"""Issue 24 items 5, 8, 11 and 12 through Django's test client: a battle page tells the engine's
verdict in the generals' names and the conditions' words, a deadline more than today away names its
day, "My battles" reads a battle waiting for the player's confirmation as reported (by the general,
not the account), and the report form says that sending it again replaces the pending report."""
import re
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.reporting.conftest import replay_between
from tests.web.test_round_page import build_event
from tournaments import timezones
from tournaments.models import Event, Report
from tournaments.results import reporting

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


@pytest.fixture
def event(db):
    """Harbour Open in Berlin: 8 generals whose players' usernames are their names in lower case
    ("ada" plays Ada), 2 groups of 4 (the round page's event)."""
    event, organizer = build_event()
    Event.objects.filter(pk=event.pk).update(time_zone="Europe/Berlin")
    return Event.objects.get(pk=event.pk), organizer


def first_battle(event):
    return event.battles.filter(round=1).select_related("general_a", "general_b", "event").order_by(
        "group__index", "number").first()


def text_of(html):
    """The page's text as read: tags dropped, spaces folded."""
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    return re.sub(r"\( ", "(", re.sub(r" ([).,:;])", r"\1", text))


def row_of(html, battle):
    """The table row of a battle, as read."""
    rows = html.split("<table")[1].split("<tr")
    return text_of(next(row for row in rows if f'href="/battles/{battle.pk}/"' in row))


def shackle_with_replay(battle, callbacks, condition="shackle"):
    """Ada (the battle's first general) reports a victory with the Shackle example replay; the engine
    gives its verdict at once, as a worker would."""
    a, b = battle.general_a, battle.general_b
    with callbacks(execute=True):
        created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition=condition,
                                          replay=replay_between("victory-shackle", a, b))
    created.refresh_from_db()
    return created


# --- item 5: the engine's verdict in names and words -----------------------------------------------

def test_the_engines_verdict_names_the_winner_and_the_condition_in_words_for_everyone(
        client, event, django_capture_on_commit_callbacks):
    event, _organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    created = shackle_with_replay(battle, django_capture_on_commit_callbacks)
    assert created.adjudication.verdict["winner"] == "p1"  # the example's Player-1 won by Shackle
    turns = created.adjudication.verdict["turns"]
    reporting.confirm_report(created, user=b.user)

    public = text_of(client.get(f"/battles/{battle.pk}/").content.decode())  # nobody signed in
    assert f"{a.name} wins by Shackle after {turns} turns" in public
    assert "p1" not in public and "by shackle" not in public and "victory —" not in public
    client.force_login(b.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert f"{a.name} wins by Shackle after {turns} turns" in page and "p1 by" not in page


def test_a_verdict_that_differs_from_the_report_is_told_in_words_too(
        client, event, django_capture_on_commit_callbacks):
    event, _organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    shackle_with_replay(battle, django_capture_on_commit_callbacks, condition="crush")  # the replay says Shackle
    client.force_login(b.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert f"{a.name} wins by Crush" in page  # the report
    assert "Rules engine" in page and f"{a.name} wins by Shackle after" in page  # the verdict
    assert "by shackle" not in page


# --- item 8: deadlines with their day ----------------------------------------------------------------

def test_a_deadline_after_today_names_its_day_in_the_events_zone():
    event = Event(time_zone="Europe/Berlin")
    now = datetime(2026, 11, 24, 14, 0, tzinfo=UTC)  # 15:00 in Berlin
    assert timezones.format_deadline(now + timedelta(minutes=5), event, now=now) == "at 15:05 CET"
    later = datetime(2026, 12, 22, 14, 5, tzinfo=UTC)
    assert timezones.format_deadline(later, event, now=now) == "on Tue 22 Dec at 15:05 CET"
    # Past midnight in Berlin is another day, though less than a day away.
    assert timezones.format_deadline(datetime(2026, 11, 24, 23, 30, tzinfo=UTC), event,
                                     now=now) == "on Wed 25 Nov at 00:30 CET"
    assert timezones.format_deadline(datetime(2027, 1, 5, 8, 0, tzinfo=UTC), event,
                                     now=now) == "on Tue 5 Jan 2027 at 09:00 CET"


def reported_with_a_deadline_weeks_away(battle):
    """A's report on the battle, counting by itself in 4 weeks and a day; (the deadline, how a page in
    Berlin writes it: "(on Tue 22 Dec at 15:05 CET)", with the year when it is another year)."""
    a = battle.general_a
    created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt")
    deadline = timezone.now() + timedelta(weeks=4, days=1, hours=1)
    Report.objects.filter(pk=created.pk).update(confirm_by=deadline)
    local = deadline.astimezone(BERLIN)
    day = f"on {local.strftime('%a')} {local.day} {local.strftime('%b')}"
    if local.year != timezone.now().astimezone(BERLIN).year:
        day += f" {local.year}"
    return deadline, f"({day} at {local.strftime('%H:%M')} {local.strftime('%Z')})"


def test_pages_show_the_day_of_a_deadline_weeks_away(client, event):
    event, organizer = event
    battle = first_battle(event)
    deadline, expected = reported_with_a_deadline_weeks_away(battle)

    client.force_login(organizer)
    desk = text_of(client.get("/events/harbour-open/round/").content.decode())
    confirmations = desk.split("Confirmations waiting")[1]
    assert f"counts by itself in 4 weeks, 1 day {expected}" in confirmations
    assert f"Counts by itself in 4 weeks, 1 day {expected}" in desk  # the battle's line on its sheet
    # The other pages write the deadline with its date as every time of the event ("24 Dec 2026, 15:05 CET").
    dated = f"(at {timezones.format_event_time(deadline, event)})"
    assert dated in text_of(client.get("/events/harbour-open/manage/").content.decode())
    client.force_login(battle.general_b.user)
    assert f"unless disputed {dated}" in text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert dated in text_of(client.get("/my/battles/").content.decode())


# --- item 11: "My battles" in words and names ------------------------------------------------------

def test_my_battles_reads_a_battle_waiting_for_my_confirmation_as_reported_by_the_general(client, event):
    event, _organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt")
    client.force_login(b.user)
    page = client.get("/my/battles/").content.decode()
    row = row_of(page, battle)
    assert "Not played yet" not in row
    assert f"{a.name} wins by Blunt" in row and "not counted yet" in row
    assert "Waiting for your confirmation" in row and "Confirm or dispute" in row
    words = text_of(page)
    assert f"reported by {a.name}" in words and f"reported by {a.user.username}" not in words
    # A battle nobody reported still reads "Not played yet".
    other = event.battles.filter(round=2).filter(general_a=b).first() or event.battles.filter(
        round=2, general_b=b).first()
    assert "Not played yet" in row_of(page, other)


def test_the_battle_page_names_the_reporting_general_not_the_account(client, event):
    event, organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    reporting.submit_report(battle, user=a.user, kind="stalemate")
    client.force_login(b.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert f"reported by {a.name}" in page and f"reported by {a.user.username} " not in page
    client.force_login(organizer)
    dashboard = text_of(client.get("/events/harbour-open/manage/").content.decode())
    assert f"by {a.name}" in dashboard and f"by {a.user.username} " not in dashboard


# --- item 12: sending the report form again replaces the report ------------------------------------

def test_after_reporting_the_form_says_sending_it_again_replaces_the_report(
        client, event, django_capture_on_commit_callbacks):
    event, _organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    shackle_with_replay(battle, django_capture_on_commit_callbacks)
    client.force_login(a.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert "Replace your report" in page and "Report the result" not in page
    assert f"Your report, {a.name} wins by Shackle" in page
    assert "replaces that report" in page and "rules engine's check of its replay" in page
    assert f"waits for {b.name}'s confirmation from the start" in page
    assert "Replace my report" in page and "Send the report" not in page
    # The opponent's form is not theirs to replace: it reads as a report of the result.
    client.force_login(b.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert "Replace your report" not in page and "Report the result" in page


def test_while_the_engine_checks_the_report_no_form_offers_a_report_it_would_refuse(
        client, event, django_capture_on_commit_callbacks):
    event, _organizer = event
    battle = first_battle(event)
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=False):  # the job waits in the queue
        reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle",
                                replay=replay_between("victory-shackle", a, b))
    client.force_login(a.user)
    page = text_of(client.get(f"/battles/{battle.pk}/").content.decode())
    assert "Send the report" not in page and "Replace my report" not in page
    assert "the rules engine is checking its replay" in page
