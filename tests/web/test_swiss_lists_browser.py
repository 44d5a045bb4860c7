"""A Warlord CCG Swiss event in headless Chromium, at a phone's width and a desktop's: a player types a
deck that breaks a construction rule, reads the sentence, fixes it and sees it valid; the organizer
pairs two Swiss rounds on the event page; a result is reported by one player and confirmed by the
other on the battle page; the standings show every tie-breaker with its figure. axe-core finds nothing
serious on the lists page, the event page and the battle page."""
from pathlib import Path

import pytest

from tests.web.conftest import ARTIFACTS, sign_in
from tests.web.test_accessibility import AXE_SCRIPT
from tests.web.test_stranger_journey_browser import serious_axe_violations
from tournaments.events import services
from tournaments.lists import rows
from tournaments.lists import services as lists
from tournaments.models import Battle, Event, General, SwissRound
from tournaments.results import recording

pytestmark = pytest.mark.browser
WIDTHS = [390, 1280]
DATA = Path(__file__).resolve().parents[2] / "tournaments" / "demo_data"
PLAYERS = ("Ada", "Ben", "Cyd", "Dov")


def deck_rows(drop_one=False):
    """The demo's legal Dwarf deck as rows (50 cards); without one Dwarf Miner it has 49 (WCCG-D01)."""
    import json

    deck = json.loads((DATA / "lists.json").read_text())["dwarves"]
    if drop_one:
        next(card for card in deck["cards"] if card["name"] == "Dwarf Miner")["count"] = 2
    return rows.list_to_rows("warlord-ccg-4e", deck)


def new_page(browser, width):
    context = browser.new_context(viewport={"width": width, "height": 844})
    context.add_init_script(path=str(AXE_SCRIPT))
    return context.new_page()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_fixes_their_deck_the_organizer_pairs_two_rounds_and_standings_show_tie_breakers(
        live_server, browser, organizer, width, django_user_model):
    base = live_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    event = services.create_event(name="Storm Open", slug="storm-open", actor=organizer, game="warlord-ccg-4e",
                                  swiss_rounds=2)
    lists.set_pool(event, user=organizer, csv_text=(DATA / "warlord_ccg_pool.csv").read_text())
    generals = {}
    for name in PLAYERS:
        user = django_user_model.objects.create_user(name.lower(), password="pw")
        generals[name] = General.objects.create(name=name, user=user)
        services.register(event, generals[name], actor=user)
    import json

    for name in PLAYERS[1:]:
        lists.submit(event, generals[name], user=generals[name].user,
                     text=json.dumps(json.loads((DATA / "lists.json").read_text())["elves"]))
    problems = []

    # Ada types her deck as rows, one card short.
    ada = new_page(browser, width)
    sign_in(ada, base, "ada")
    ada.goto(f"{base}/events/storm-open/lists/")
    ada.fill("textarea[name=rows]", deck_rows(drop_one=True))
    ada.click("main button:has-text('Check and save the list')")
    mine = ada.locator("#my-list").inner_text()
    assert "The deck has 49 cards; a deck must have at least 50 cards, starting characters included." in mine
    assert "WCCG-D01" in mine and "Has violations" in mine
    problems += [("lists", v) for v in serious_axe_violations(ada)]
    ada.screenshot(path=str(ARTIFACTS / f"swiss-list-violations-{width}.png"), full_page=True)
    # The form keeps her rows to edit: she adds the missing card.
    assert "2 Dwarf Miner" in ada.input_value("textarea[name=rows]")
    ada.fill("textarea[name=rows]", deck_rows())
    ada.click("main button:has-text('Check and save the list')")
    assert "Your list follows every construction rule." in ada.locator("#my-list").inner_text()
    assert [v.version for v in event.registrations.get(general=generals["Ada"]).list_versions.all()] == [2, 1]
    assert ada.evaluate("document.documentElement.scrollWidth") <= width + 1, "the lists page scrolls sideways"

    services.close_registration(event, actor=organizer)
    olga = new_page(browser, width)
    sign_in(olga, base, "olga")
    olga.goto(f"{base}/events/storm-open/")
    olga.click("main button:has-text('Pair Swiss round 1')")
    assert "Swiss round 1 is paired" in olga.locator("body").inner_text()
    first = list(Battle.objects.filter(event=event, round=1).order_by("number"))
    assert len(first) == 2 and SwissRound.objects.get(event=event, number=1).bye is None

    # Table 1: its first player reports a win on the battle page, the opponent confirms it there.
    battle = first[0]
    reporter, confirmer = battle.general_a, battle.general_b
    page = new_page(browser, width)
    sign_in(page, base, reporter.user.username)
    page.goto(f"{base}/battles/{battle.pk}/")
    page.select_option("select[name=kind]", "victory")
    page.select_option("select[name=winner]", str(reporter.pk))
    page.select_option("select[name=fact_status]", "finished")
    page.click("main button:has-text('Send the report')")
    assert "waiting for the opponent" in page.locator("main").inner_text().lower()
    other = new_page(browser, width)
    sign_in(other, base, confirmer.user.username)
    other.goto(f"{base}/battles/{battle.pk}/")
    problems += [("battle", v) for v in serious_axe_violations(other)]
    other.click("main button:has-text('Confirm this result')")
    assert Battle.objects.get(pk=battle.pk).winner_id == reporter.pk
    assert Battle.objects.get(pk=battle.pk).facts == {"status": "finished"}
    recording.record_result(first[1], kind="draw", facts={"status": "unfinished"})

    olga.goto(f"{base}/events/storm-open/")
    olga.click("main button:has-text('Pair Swiss round 2')")
    second = list(Battle.objects.filter(event=event, round=2))
    met = {frozenset((b.general_a_id, b.general_b_id)) for b in first}
    assert len(second) == 2 and not met & {frozenset((b.general_a_id, b.general_b_id)) for b in second}
    for game in second:
        recording.record_result(game, kind="victory", winner=game.general_b)

    olga.goto(f"{base}/events/storm-open/")
    standings = olga.locator("#swiss").inner_text()
    for heading in ("Opponents' win rate", "Strength of schedule", "Head to head"):
        assert heading in standings
    assert olga.locator("#swiss td.tie-break").count() == 3 * len(PLAYERS)
    assert "%" in olga.locator("#swiss td.tie-break[data-key=omw]").first.inner_text()
    assert Event.objects.get(pk=event.pk).state == Event.State.COMPLETE
    assert "winner" in standings
    problems += [("event", v) for v in serious_axe_violations(olga)]
    olga.screenshot(path=str(ARTIFACTS / f"swiss-standings-{width}.png"), full_page=True)
    assert olga.evaluate("document.documentElement.scrollWidth") <= width + 1, "the event page scrolls sideways"
    assert problems == []
