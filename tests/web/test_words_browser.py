"""Issue 24 item 11 in real headless Chromium at a phone's width (390 px): a live page's screen-reader
announcement tells the time of the update in the event's zone, as the page writes its times, not in
the zone of the reader's browser."""
import re
import zoneinfo
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General
from tournaments.results import recording

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WAIT_MS = 15_000


def berlin_event():
    """Olga's Harbour Open in Berlin, eight generals in two groups; nobody signs in."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga"))
    event = services.create_event(name="Harbour Open", slug="harbour-open", actor=organizer)
    Event.objects.filter(pk=event.pk).update(time_zone="Europe/Berlin")
    for name in ("Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"):
        general = General.objects.create(name=name, user=User.objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=organizer)
    services.form_groups(event, 2, seed=11, actor=organizer)
    return Event.objects.get(pk=event.pk), organizer


def test_the_update_announcement_reads_the_events_time_not_the_browsers(live_server, browser):
    event, organizer = berlin_event()
    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()

    # A reader in Los Angeles follows a Berlin event on a phone.
    context = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="America/Los_Angeles",
                                  locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server.url}/events/harbour-open/")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/Los_Angeles"

    before = timezone.now()
    recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle", actor=organizer)
    status = page.locator("[role=status][aria-live=polite]")
    status.filter(has_text="Updated at").wait_for(state="attached", timeout=WAIT_MS)
    after = timezone.now()

    announced = status.text_content()
    match = re.fullmatch(r"Updated at (\d\d):(\d\d) (CET)\.", announced)
    assert match, announced  # "Updated at 15:17 CET.", never "Updated at 6:17:03 AM."
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    clocks = {(moment.astimezone(berlin).hour, moment.astimezone(berlin).minute)
              for moment in (before, after, after + timedelta(seconds=1))}
    assert (int(match[1]), int(match[2])) in clocks
    context.close()
