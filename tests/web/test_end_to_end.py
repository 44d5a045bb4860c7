"""End to end in real headless Chromium (Playwright driving /usr/bin/chromium): an organizer creates an
event, registers 8 generals and forms 2 groups; a player reports a battle with its replay; the verdict
confirms it and the standings page shows the new OPP. Screenshots go to test-artifacts/."""
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import missing_service
from tests.reporting.conftest import replay_between
from tournaments.models import Event, General, Report

CHROMIUM = os.environ.get("OPP_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"]
pytestmark = pytest.mark.browser


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        missing_service(f"Chromium is not installed at {CHROMIUM} (Debian package chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()


def sign_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")


def test_an_event_from_creation_to_a_confirmed_report(live_server, browser, tmp_path):
    User = get_user_model()
    User.objects.create_user("olga", password="pw")
    for name in NAMES:  # the players have accounts already; the organizer registers them by name
        General.objects.create(name=name, user=User.objects.create_user(name.lower(), password="pw"))
    base = live_server.url
    ARTIFACTS.mkdir(exist_ok=True)

    organizer = browser.new_page()
    sign_in(organizer, base, "olga")
    organizer.goto(f"{base}/events/new/")
    organizer.fill("input[name=name]", "Harbour Open")
    organizer.fill("input[name=slug]", "harbour-open")
    organizer.click("text=Create the event")
    assert organizer.url.endswith("/events/harbour-open/manage/")
    for name in NAMES:
        organizer.fill("input[name=name]", name)
        organizer.click("button:has-text('Register')")
        assert organizer.locator(f"ol li:has-text('{name}')").count() == 1
    organizer.select_option("select[name=group_count]", "2")
    organizer.click("button:has-text('Preview')")
    assert organizer.locator(".preview").is_visible()
    organizer.click("button:has-text('Form these groups and start')")
    assert organizer.url.endswith("/events/harbour-open/")
    event = Event.objects.get(slug="harbour-open")
    assert event.state == Event.State.QUALIFYING

    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()
    a, b = battle.general_a, battle.general_b
    replay_file = tmp_path / "battle.json"
    replay_file.write_text(json.dumps(replay_between("victory-shackle", a, b)))

    player = browser.new_page()
    sign_in(player, base, a.user.username)
    player.goto(f"{base}/battles/{battle.pk}/")
    player.select_option("select[name=kind]", "victory")
    player.select_option("select[name=winner]", str(a.pk))
    player.select_option("select[name=condition]", "shackle")
    player.set_input_files("input[name=replay_file]", str(replay_file))
    player.click("button:has-text('Send the report')")
    assert player.locator(".badge.status-confirmed").first.is_visible()
    assert Report.objects.get(battle=battle).status == Report.Status.CONFIRMED

    player.goto(f"{base}/events/harbour-open/")
    row = player.locator("table.standings tr", has_text=a.name).first
    assert row.locator("td strong").inner_text() == "5"
    player.screenshot(path=str(ARTIFACTS / "standings.png"), full_page=True)

    player.goto(f"{base}/battles/{battle.pk}/replay/")
    player.locator("#battlefield .battalion").first.wait_for()
    assert player.locator("#turn-label").inner_text() == "After Battle Formation"
    player.keyboard.press("End")
    assert player.locator("#turn-label").inner_text() == "After turn 12"
    player.screenshot(path=str(ARTIFACTS / "replay-viewer.png"), full_page=True)
