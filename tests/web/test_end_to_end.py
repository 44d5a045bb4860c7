"""End to end in real headless Chromium (Playwright driving /usr/bin/chromium): an organizer creates an
event, registers 8 generals and forms 2 groups; two players, each in their own browser context, claim
their generals with the organizer's links; one reports a battle with its replay, the engine checks
it, the other sees it waiting for them and confirms; the standings page shows the new OPP.
Screenshots go to test-artifacts/."""
import json

import pytest
from django.contrib.auth import get_user_model

from tests.reporting.conftest import replay_between
from tests.web.conftest import ARTIFACTS, sign_in
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, Report

NAMES = ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"]
pytestmark = pytest.mark.browser


def test_an_event_from_creation_to_a_report_both_generals_stand_behind(live_server, browser, tmp_path):
    User = get_user_model()
    grant_organizer_role(User.objects.create_user("olga", password="pw"))
    base = live_server.url
    ARTIFACTS.mkdir(exist_ok=True)

    organizer = browser.new_context().new_page()
    sign_in(organizer, base, "olga")
    organizer.goto(f"{base}/events/new/")
    organizer.fill("input[name=name]", "Harbour Open")
    organizer.fill("input[name=slug]", "harbour-open")
    organizer.click("text=Create the event")
    assert organizer.url.endswith("/events/harbour-open/manage/")
    for name in NAMES:  # players without an account yet: the organizer registers them at the venue
        organizer.fill("input[name=name]", name)
        organizer.click("button:has-text('Register')")
        assert organizer.locator(f"ol li:has-text('{name}')").count() == 1
    organizer.select_option("select[name=group_count]", "2")
    organizer.click("button:has-text('Preview')")
    assert organizer.locator(".preview").is_visible()
    organizer.click("button:has-text('Form these groups and start')")
    # The organizer page's forms post to their error summary (#form-errors); a success redirects to the
    # event page, where the browser keeps that fragment and, finding no such place, shows the top.
    assert organizer.url.split("#")[0].endswith("/events/harbour-open/")
    event = Event.objects.get(slug="harbour-open")
    assert event.state == Event.State.QUALIFYING

    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()
    a, b = battle.general_a, battle.general_b
    replay_file = tmp_path / "battle.json"
    replay_file.write_text(json.dumps(replay_between("victory-shackle", a, b)))

    # Each player in their own browser context claims the general with the organizer's one-use link.
    players = {}
    for general in (a, b):
        User.objects.create_user(general.name.lower(), password="pw")
        page = browser.new_context().new_page()
        sign_in(page, base, general.name.lower())
        page.goto(f"{base}/claim/{general.claim_code}/")
        page.click("button:has-text('Claim')")
        assert page.url.endswith("/my/battles/")
        players[general.pk] = page
    reporter, opponent = players[a.pk], players[b.pk]

    reporter.goto(f"{base}/battles/{battle.pk}/")
    reporter.select_option("select[name=kind]", "victory")
    reporter.select_option("select[name=winner]", str(a.pk))
    reporter.select_option("select[name=condition]", "shackle")
    reporter.set_input_files("input[name=replay_file]", str(replay_file))
    reporter.click("button:has-text('Send the report')")
    assert reporter.locator(".badge.status-checked").first.is_visible()  # the engine agrees; b decides
    assert reporter.locator(".countdown").first.is_visible()
    assert Report.objects.get(battle=battle).status == Report.Status.CHECKED
    reporter.goto(f"{base}/events/harbour-open/")
    row = reporter.locator("table.standings tr", has_text=a.name).first
    assert row.locator("td strong").inner_text() == "0"  # not counted yet

    opponent.goto(f"{base}/my/battles/")
    waiting = opponent.locator("section:has-text('Waiting for your confirmation')")
    assert a.name in waiting.inner_text() and "checked by the engine" in waiting.inner_text()
    waiting.locator("a").first.click()
    opponent.screenshot(path=str(ARTIFACTS / "waiting-for-confirmation.png"), full_page=True)
    opponent.click("button:has-text('Confirm this result')")
    assert opponent.locator(".badge.status-confirmed").first.is_visible()
    assert Report.objects.get(battle=battle).status == Report.Status.CONFIRMED

    reporter.goto(f"{base}/events/harbour-open/")
    row = reporter.locator("table.standings tr", has_text=a.name).first
    assert row.locator("td strong").inner_text() == "5"
    reporter.screenshot(path=str(ARTIFACTS / "standings.png"), full_page=True)

    reporter.goto(f"{base}/battles/{battle.pk}/replay/")
    reporter.locator("#battlefield .battalion").first.wait_for()
    assert reporter.locator("#turn-label").inner_text() == "After Battle Formation"
    reporter.keyboard.press("End")
    assert reporter.locator("#turn-label").inner_text() == "After turn 12"
    reporter.screenshot(path=str(ARTIFACTS / "replay-viewer.png"), full_page=True)
