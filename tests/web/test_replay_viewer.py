"""The replay viewer on a Battlefield Terrain battle with battle arts: the data the page draws (terrain
that Devastate changes, stacks in order, the moves in words) and the page itself in Chromium at phone
size (390 x 844) and at 1280 px: the legend with the generals' names, the move list following the
step shown, one step per key press even with the slider focused, the turn announced, and axe-core.

The battle (tests/web/replays/terrain-devastate.json, from the engine's generator, seed 2, with the
terrain and battle_arts variants): a chasm on b1 and five other terrains; A5, A2, A6 stacked on d1;
turn 2 B4's Devastate turns a4, b3, b4, b5 and c4 to crag; turn 12 B5's Devastate turns b3 and b4
from crag to chasm (slaughtering B4 and B5 there) and a3, b2 to crag."""
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.reporting.conftest import REPLAYS
from tests.web.conftest import ARTIFACTS
from tournaments.eventday.replay_steps import viewer_document
from tournaments.events import membership, services
from tournaments.events.membership import grant_organizer_role
from tournaments.results import reporting

TERRAIN_BATTLE = Path(__file__).parent / "replays" / "terrain-devastate.json"


def terrain_battle(p1="Ada", p2="Ben"):
    document = json.loads(TERRAIN_BATTLE.read_text())
    document["generals"]["p1"]["name"], document["generals"]["p2"]["name"] = p1, p2
    return document


# ---- viewer_document ----------------------------------------------------------------------------------

def test_terrain_is_in_every_frame_and_changes_where_devastate_changes_it():
    frames = viewer_document(json.dumps(terrain_battle()))["frames"]
    assert [frame["turn"] for frame in frames] == list(range(13))
    assert frames[0]["terrain"] == {"b1": "chasm", "c3": "valley", "d3": "mountain", "e3": "valley", "f3": "crag",
                                    "c6": "marsh"}
    assert frames[1]["terrain"] == frames[0]["terrain"]  # a plain move changes no terrain
    devastated = {"a4", "b3", "b4", "b5", "c4"}
    assert {zone for zone, kind in frames[2]["terrain"].items() if kind == "crag"} == devastated | {"f3"}
    assert devastated <= set(frames[2]["changed"])
    assert "a4, b3, b4, b5 and c4: flatland → crag" in frames[2]["changes"]
    assert frames[2]["words"] == ["B4 moves 1 zone and uses Devastate."]
    assert frames[11]["terrain"]["b3"] == "crag"
    assert frames[12]["terrain"]["b3"] == frames[12]["terrain"]["b4"] == "chasm"
    assert "b3 and b4: crag → chasm" in frames[12]["changes"]
    assert {"B4 is slaughtered", "B5 is slaughtered"} <= set(frames[12]["changes"])
    assert not any("rampart" in change for frame in frames for change in frame["changes"])  # none built


def test_ramparts_routs_and_facings_are_told_as_they_change():
    frames = viewer_document((REPLAYS / "victory-crush.json").read_text())["frames"]
    assert frames[4]["words"] == ["S1_4 moves 3 zones, turns to face east and routs S2_6 off the battlefield."]
    assert frames[4]["changes"] == ["S1_4 d1 → d4, facing east", "S2_6 is taken prisoner"]
    assert frames[5]["changes"] == ["S2_6 returns to b4"]
    assert frames[10]["changes"] == ["S1_6 now faces south"]  # out and back: only the facing changed
    assert frames[22]["changes"] == ["S1_5 now faces north", "rampart built on f1"]
    assert frames[22]["changed"] == ["f1", "g1"]


def test_a_sacrifice_burns_the_forest_and_control_is_on_the_board():
    """tests/web/replays/terrain-fire.json (generator seed 5): B1 and A3 are marked for Sacrifice on
    turns 7 and 8; A3's Sacrifice completes on turn 10 on the forest of c1, d1 and d2, which burns (R55)."""
    document = viewer_document((Path(__file__).parent / "replays" / "terrain-fire.json").read_text())
    frames = document["frames"]
    assert document["board"]["control"] == {"d3": "p2"}
    assert frames[7]["words"] == ["marks B1 for Sacrifice."] and frames[7]["changes"] == ["B1 takes the Sacrifice token"]
    assert all(frames[9]["terrain"][zone] == "forest" for zone in ("c1", "d1", "d2"))
    assert not {"c1", "d1", "d2"} & set(frames[10]["terrain"])
    assert "c1, d1 and d2: forest → flatland" in frames[10]["changes"] and "A3 is slaughtered" in frames[10]["changes"]


def test_stacks_are_listed_bottom_first_and_each_step_says_who_did_what():
    document = viewer_document(json.dumps(terrain_battle()), names={"p1": "Ada Lovelace", "p2": "Ben Nevis"})
    frames = document["frames"]
    assert frames[0]["zones"]["d1"]["stack"] == ["A5", "A2", "A6"]  # deployed in that order
    assert frames[5]["zones"]["d1"]["stack"] == ["A5", "A2"] and "A6 d1 → d2" in frames[5]["changes"]
    assert document["generals"]["p1"]["name"] == "Ada Lovelace" and document["generals"]["p2"]["kingdom"] == "blak"
    assert frames[0]["words"][0].startswith("Ada Lovelace deploys A4 on d2, A5 on d1")
    assert frames[0]["changes"] == ["Ada Lovelace takes the first turn."]
    assert [frame["by"] for frame in frames[1:4]] == ["p1", "p2", "p1"]
    assert frames[1]["words"] == ["A4 turns to face west and moves 1 zone."]
    assert set(frames[1]["changed"]) == {"d2", "c2"}
    assert set(frames[4]["changes"]) == {"B1 now faces south", "B4 Arms 4 → 3"}  # B1's Farshot
    assert document["ending"] == "Ada Lovelace declares Blunt."


def test_an_illegal_step_is_located_in_words_that_read_well():
    document = viewer_document((REPLAYS / "invalid-not-enough-ma.json").read_text())
    assert document["error"]["where"] == "at turn 2, order 1, action 2"
    assert document["error"]["by"] in ("p1", "p2") and len(document["frames"]) == 2
    unreadable = viewer_document("{oops")
    assert unreadable["frames"] == [] and unreadable["error"]["where"] == "in its header or Battle Formation"


# ---- The page -----------------------------------------------------------------------------------------

def illegal_at_turn_5(document):
    """A6 (Arms 6, facing north from d1) moves to d2, then tries to destroy a rampart d3 does not hold."""
    document["turns"][4]["orders"][0]["actions"] = [{"act": "move"}, {"act": "destroy", "zone": "d3"}]
    return document


def terrain_event_battles():
    """Crag Cup (terrain and battle arts elected), 4 generals in 2 groups: its battles, none reported."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    event = services.create_event(name="Crag Cup", slug="crag-cup", variants=["terrain", "battle_arts"],
                                  actor=organizer)
    for name in ("Ada", "Ben", "Cyd", "Dov"):  # each player enters their own general (R78)
        membership.join(event, User.objects.create_user(name.lower(), password="pw"), name=name)
    services.form_groups(event, 2, "random", seed=9, actor=organizer)
    return list(event.battles.select_related("general_a", "general_b").order_by("pk"))


def report_terrain_battle(battle, change=None):
    a, b = battle.general_a, battle.general_b
    replay = terrain_battle(a.name.upper(), b.name)  # the battle's generals, written as a player might
    if change:
        replay = change(replay)
    reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt",
                            replay=json.dumps(replay))
    return battle


def build_terrain_event(change=None):
    return report_terrain_battle(terrain_event_battles()[0], change)


def viewer_data(page):
    return json.loads(page.split('id="replay-data" type="application/json">')[1].split("</script>")[0])


@pytest.mark.django_db
def test_the_page_names_the_battles_generals_and_links_its_own_stylesheet(client):
    battle = build_terrain_event()
    assert client.get(f"/battles/{battle.pk}/replay/").status_code == 404  # the replay is the generals' own
    client.force_login(battle.general_b.user)
    page = client.get(f"/battles/{battle.pk}/replay/").content.decode()
    document = viewer_data(page)
    assert document["generals"]["p1"]["name"] == battle.general_a.name  # not the replay's upper-case spelling
    assert document["generals"]["p2"]["name"] == battle.general_b.name
    assert "css/replay-viewer.css" in page
    for name in ("First turn", "Previous turn", "Next turn", "Last turn"):
        assert f"{name}" in page
    assert 'aria-live="polite"' in page


@pytest.mark.django_db
def test_an_illegal_step_is_told_once_above_and_last_in_the_move_list(client):
    battle = build_terrain_event(illegal_at_turn_5)
    client.force_login(battle.general_a.user)
    page = client.get(f"/battles/{battle.pk}/replay/").content.decode()
    assert ("The log is not a legal battle at turn 5, order 1, action 2: There is no rampart at d3." in page)
    assert " at at " not in page
    document = viewer_data(page)
    assert [frame["turn"] for frame in document["frames"]] == [0, 1, 2, 3, 4]
    assert document["error"]["by"] == "p1" and document["ending"] == ""


def serious_axe_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [(violation["id"], violation["impact"], [node["target"] for node in violation["nodes"]])
            for violation in results.response["violations"] if violation["impact"] in ("serious", "critical")]


def signed_in_page(browser, live_server, user, **context_options):
    """A page in its own browser context, signed in as `user` (replays are shown to the battle's generals)."""
    page = browser.new_context(**context_options).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


@pytest.mark.browser
def test_the_viewer_reads_on_a_phone_and_steps_once_per_key(live_server, browser):
    battles = terrain_event_battles()
    battle, illegal = report_terrain_battle(battles[0]), report_terrain_battle(battles[1], illegal_at_turn_5)
    a, b = battle.general_a, battle.general_b
    ARTIFACTS.mkdir(exist_ok=True)
    page = signed_in_page(browser, live_server, a.user, viewport={"width": 390, "height": 844},
                          device_scale_factor=2)
    page.goto(f"{live_server.url}/battles/{battle.pk}/replay/")
    page.locator("#battlefield .battalion").first.wait_for()

    board = page.locator("#battlefield").bounding_box()
    assert 340 <= board["width"] <= 390  # the board takes the phone's width, no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#battlefield .zone.terrain-chasm").count() == 1  # b1
    legend = page.locator("#legend-generals").inner_text()
    assert a.name in legend and b.name in legend and "p1" not in legend
    assert "Chm chasm" in page.locator("#legend-terrain").inner_text()
    stacks = page.locator("#stacks").inner_text()
    assert "Stack on d1, bottom to top: A5" in stacks
    assert page.locator("#move-list").bounding_box()["y"] > board["y"] + board["height"]  # below the board

    status = page.locator("#turn-status")
    assert status.get_attribute("aria-live") == "polite"
    assert page.locator("#turn-label").inner_text() == "After Battle Formation"
    assert page.locator("#move-list li.current").inner_text().startswith("Battle Formation")

    page.get_by_role("button", name="Next turn").click()
    assert page.locator("#turn-label").inner_text() == "After turn 1"
    assert f"{a.name}: A4 turns to face west and moves 1 zone." in status.inner_text()
    current = page.locator("#move-list li.current")
    assert current.count() == 1 and current.inner_text().startswith(f"Turn 1 · {a.name}")
    assert page.locator("#battlefield .changed").count() == 2  # d2 and c2

    page.locator("#turn-slider").focus()
    page.keyboard.press("ArrowRight")
    assert page.locator("#turn-label").inner_text() == "After turn 2"  # one step, not two
    assert page.locator("#turn-slider").input_value() == "2"
    assert page.locator("#move-list li.current").inner_text().startswith(f"Turn 2 · {b.name}")
    assert page.locator("#battlefield .zone.terrain-crag").count() == 6  # Devastate: five zones, and f3
    assert page.locator("#battlefield .changed").count() >= 5
    page.keyboard.press("ArrowLeft")
    assert page.locator("#turn-label").inner_text() == "After turn 1"
    page.keyboard.press("ArrowRight")
    page.screenshot(path=str(ARTIFACTS / "replay-viewer-phone.png"), full_page=True)
    page.screenshot(path=str(ARTIFACTS / "replay-viewer-phone-screen.png"))

    page.get_by_role("button", name="Last turn").click()
    assert page.locator("#turn-label").inner_text() == "After turn 12"
    assert page.locator("#battlefield .zone.terrain-chasm").count() == 3  # b1, and b3 and b4 obliterated
    next_turn = page.get_by_role("button", name="Next turn")
    assert next_turn.get_attribute("aria-disabled") == "true"
    next_turn.focus()
    page.keyboard.press("Enter")  # stays on the last turn, and the focus stays on the button
    assert page.locator("#turn-label").inner_text() == "After turn 12"
    assert page.evaluate("document.activeElement.id") == "next"
    page.locator("#move-list li").nth(3).get_by_role("button").click()
    assert page.locator("#turn-label").inner_text() == "After turn 3"

    assert serious_axe_violations(page) == []

    # A replay is shown to its battle's generals only: the illegal one is another pair's battle.
    page = signed_in_page(browser, live_server, illegal.general_a.user, viewport={"width": 390, "height": 844},
                          device_scale_factor=2)
    page.goto(f"{live_server.url}/battles/{illegal.pk}/replay/")
    page.locator("#battlefield .battalion").first.wait_for()
    assert page.locator("#turn-label").inner_text() == "After turn 4"  # the picture before the bad step
    assert page.locator("#illegal-step.current").is_visible()
    assert page.locator("#move-list li.illegal").inner_text().startswith(f"Turn 5 · {illegal.general_a.name}: not legal")
    page.screenshot(path=str(ARTIFACTS / "replay-viewer-phone-illegal.png"))

    wide = signed_in_page(browser, live_server, a.user, viewport={"width": 1280, "height": 900})
    wide.goto(f"{live_server.url}/battles/{battle.pk}/replay/")
    wide.locator("#battlefield .battalion").first.wait_for()
    wide.keyboard.press("End")
    move_list, board = wide.locator("#move-list").bounding_box(), wide.locator("#battlefield").bounding_box()
    assert move_list["x"] > board["x"] + board["width"]  # beside the board
    wide.screenshot(path=str(ARTIFACTS / "replay-viewer-1280.png"), full_page=True)
    assert serious_axe_violations(wide) == []
