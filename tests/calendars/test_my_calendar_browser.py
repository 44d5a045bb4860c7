"""A player makes their calendar address in the browser, a calendar app (no cookies) reads the feed from
it, and a new address ends the old one."""
import datetime as dt
import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from icalendar import Calendar

from tests.web.conftest import sign_in
from tournaments.events import services
from tournaments.models import General

pytestmark = pytest.mark.django_db(transaction=True)


def fetched(url):
    """What a calendar app gets from the address: a status and the body."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (the test's own live server)
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], b""


def test_a_player_subscribes_to_their_calendar_and_a_new_address_ends_the_old_one(live_server, browser, organizer):
    ada = get_user_model().objects.create_user("ada", password="pw")
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer, time_zone="Europe/Berlin",
                                  starts_on=dt.date(2026, 12, 5))
    services.register(event, General.objects.create(name="Ada", user=ada), actor=ada)
    base = live_server.url
    console = []
    page = browser.new_context().new_page()
    page.on("console", lambda message: console.append(message.text))
    sign_in(page, base, "ada")

    page.goto(f"{base}/my/notifications/")
    page.click("#my-calendar-link a")
    assert page.locator("h1").inner_text() == "My calendar"
    page.click("button:has-text('Make my calendar address')")
    first = page.input_value("#calendar-url")
    assert first.startswith(f"{base}/calendar/") and first.endswith(".ics")
    assert page.get_attribute("#calendar-subscribe", "href") == "webcal://" + first.split("://", 1)[1]

    status, content_type, body = fetched(first)
    assert (status, content_type) == (200, "text/calendar; charset=utf-8")
    days = Calendar.from_ical(body).walk("VEVENT")
    assert [(str(entry["SUMMARY"]), entry.start) for entry in days] == [("Quay Cup", dt.date(2026, 12, 5))]

    page.click("button:has-text('Make a new address')")
    second = page.input_value("#calendar-url")
    assert second != first
    assert fetched(first)[0] == 404 and fetched(second)[0] == 200
    assert not [text for text in console if "Content Security Policy" in text or "Refused" in text]
