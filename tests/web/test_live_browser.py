"""Live pages in real headless Chromium: one browser context (an organizer) records a result, others
(a spectator, a player half-way through a report, the venue screen) see the change without a reload.
Screenshots go to test-artifacts/."""
import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import ARTIFACTS, grouped_event, sign_in
from tournaments.results import recording

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WAIT_MS = 15_000  # generous: how fast is the benchmark's business (bench/live.py)


@pytest.fixture
def event(organizer):
    return grouped_event(organizer, name="Harbour Open", slug="harbour-open", seed=11)


def test_a_result_recorded_by_the_organizer_reaches_other_pages_without_a_reload(live_server, browser, event):
    base = live_server.url
    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()
    winner, loser = battle.general_a, battle.general_b

    spectator = browser.new_context().new_page()
    spectator.goto(f"{base}/events/harbour-open/")
    row = spectator.locator("table.standings tr", has_text=winner.name).first
    assert row.locator("td strong").inner_text() == "0"
    spectator.evaluate("window.notReloaded = true")
    row.locator("a").focus()  # a keyboard reader on the standings

    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{base}/events/harbour-open/screen/")
    assert screen.locator(".venue-results").get_by_text("No results yet.").is_visible()

    # The loser starts a report and leaves it half-way: the update must not throw it away.
    player = browser.new_context().new_page()
    sign_in(player, base, loser.user.username)
    player.goto(f"{base}/battles/{battle.pk}/")
    player.locator("form[action$='/report/#form-errors'] select[name=kind]").select_option("stalemate")
    player.locator("form[action$='/report/#form-errors'] textarea[name=replay_text]").fill("my notes")

    organizer = browser.new_context().new_page()
    sign_in(organizer, base, "olga")
    organizer.goto(f"{base}/battles/{battle.pk}/")
    result_form = organizer.locator("form[action*='/result/']")
    result_form.locator("select[name=kind]").select_option("victory")
    result_form.locator("select[name=winner]").select_option(str(winner.pk))
    result_form.locator("select[name=condition]").select_option("shackle")
    result_form.locator("button:has-text('Record')").click()
    organizer.get_by_text("The result is recorded.").wait_for()

    # The spectator's standings change in place.
    row.locator("td strong", has_text="5").wait_for(timeout=WAIT_MS)
    assert spectator.evaluate("window.notReloaded") is True
    assert "Updated at" in spectator.locator("[role=status][aria-live=polite]").inner_text()
    # Focus stays at the same place in the new standings, not thrown back to the top of the page.
    assert spectator.evaluate("document.activeElement.closest('table.standings') !== null")

    # The venue screen shows the result; its first group is the one the battle is in.
    screen.locator(".venue-results li", has_text="wins by Shackle").wait_for(timeout=WAIT_MS)
    assert screen.locator(".venue-qr svg").is_visible()
    assert screen.locator(".venue-table:visible h2").inner_text().startswith(battle.group.name)
    ARTIFACTS.mkdir(exist_ok=True)
    screen.screenshot(path=str(ARTIFACTS / "venue-screen.png"))

    # The player's page shows the decided result, and the report they were writing is kept.
    player.locator(".result", has_text="wins by Shackle").wait_for(timeout=WAIT_MS)
    assert player.locator("form[action$='/report/#form-errors'] textarea[name=replay_text]").input_value() == "my notes"


def test_a_busy_venue_screen_keeps_to_the_screen(live_server, browser, event):
    organizer = get_user_model().objects.get(username="olga")
    battles = list(event.battles.select_related("general_a", "general_b").order_by("round", "group__index", "number"))
    for battle in battles[:7]:
        recording.record_result(battle, kind="victory", winner=battle.general_b, condition="crush", actor=organizer)
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/events/harbour-open/screen/")
    last = battles[6]
    recording.record_result(battles[7], kind="stalemate", actor=organizer)
    screen.locator(".venue-results li", has_text=f"{battles[7].general_a.name} v {battles[7].general_b.name}: "
                   "Stalemate").wait_for(timeout=WAIT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    screen.screenshot(path=str(ARTIFACTS / "venue-screen-busy.png"))
    assert screen.locator(".venue-results li", has_text=last.general_b.name).count() >= 1
    for part in (".venue-results", ".venue-tables", ".venue-qr", ".venue-head"):
        box = screen.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 1080, f"{part} runs off the screen"
    last_item = screen.locator(".venue-results > *").last.bounding_box()
    assert last_item["y"] + last_item["height"] <= 1080, "the results column runs off the screen"
