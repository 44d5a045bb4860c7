"""The standings widget in another site's page, in real headless Chromium (docs/embeds.md): a club's page
served from another origin (127.0.0.1 on a port of its own; the site is the live server on localhost)
frames the widget and sees it update when a result is recorded; its script reads the public scoreboard
and cannot write; with no sites listed the browser refuses to frame the widget. axe-core finds nothing
serious on the widget. Screenshots go to test-artifacts/."""
import functools
import http.server
import threading

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import ARTIFACTS, grouped_event
from tournaments.models import Event, Registration
from tournaments.results import recording

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WAIT_MS = 15_000  # as the live pages' browser tests: generous on a busy machine

CLUB_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour Club</title></head>
<body><h1>Harbour Club</h1>
<iframe src="{widget}" title="Harbour Open: standings and results" width="100%" height="600"></iframe>
</body></html>"""


@pytest.fixture
def event(organizer):
    return grouped_event(organizer, name="Harbour Open", slug="harbour-open", seed=11)


@pytest.fixture
def club_site(tmp_path, live_server):
    """The club's own site: a static page framing the widget, on another origin than the live server."""
    (tmp_path / "index.html").write_text(CLUB_PAGE.format(widget=f"{live_server.url}/embed/events/harbour-open/"))
    handler = functools.partial(QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_a_club_page_frames_the_widget_sees_it_update_and_reads_but_never_writes(live_server, browser, event,
                                                                                  club_site):
    assert not live_server.url.startswith(club_site)  # two origins: localhost and 127.0.0.1
    Event.objects.filter(pk=event.pk).update(embed_origins=club_site)
    battle = event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()
    winner = battle.general_a

    page = browser.new_page(viewport={"width": 800, "height": 900})
    page.goto(f"{club_site}/index.html")
    frame = page.frame_locator("iframe")
    row = frame.locator("tbody tr", has_text=winner.name).first
    row.wait_for(timeout=WAIT_MS)
    assert row.locator("td.opp").inner_text() == "0"
    assert frame.get_by_text("No results yet.").is_visible()
    page.evaluate("document.querySelector('iframe').dataset.loadedOnce = 'yes'")

    organizer = get_user_model().objects.get(username="olga")
    recording.record_result(battle, kind="victory", winner=winner, condition="shackle", actor=organizer)

    # The frame updates itself in place: the winner's OPP and the result, without a reload.
    row.locator("td.opp", has_text="5").wait_for(timeout=WAIT_MS)
    frame.locator("#embed-results li", has_text=f"{winner.name} wins by Shackle").wait_for(timeout=WAIT_MS)
    assert page.evaluate("document.querySelector('iframe').dataset.loadedOnce") == "yes"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "embed-on-another-site.png"), full_page=True)

    # The club's own script reads the public scoreboard across origins...
    scoreboard = page.evaluate("""async (url) => {
        const response = await fetch(url);
        return {status: response.status, etag: response.headers.get('ETag'), body: await response.json()};
    }""", f"{live_server.url}/api/v1/events/harbour-open/scoreboard/")
    assert scoreboard["status"] == 200 and scoreboard["etag"]
    assert scoreboard["body"]["event"]["name"] == "Harbour Open"
    assert any(line["result"].startswith(f"{winner.name} wins by Shackle")
               for line in scoreboard["body"]["latest_results"])

    # ... but a write is refused by the browser, whatever the endpoint: a simple POST (no preflight) gets
    # no CORS answer, a JSON PATCH fails its preflight.
    refused = page.evaluate("""async ([join, detail]) => {
        const outcomes = [];
        for (const [url, init] of [[join, {method: 'POST', credentials: 'include'}],
                                   [detail, {method: 'PATCH', headers: {'Content-Type': 'application/json'},
                                             body: JSON.stringify({name: 'Taken over'})}]]) {
            try { await fetch(url, init); outcomes.push('read'); } catch (error) { outcomes.push(error.name); }
        }
        return outcomes;
    }""", [f"{live_server.url}/api/v1/events/harbour-open/join/", f"{live_server.url}/api/v1/events/harbour-open/"])
    assert refused == ["TypeError", "TypeError"]
    assert Event.objects.get(pk=event.pk).name == "Harbour Open"
    assert Registration.objects.filter(event=event).count() == 8


def test_with_no_sites_listed_the_browser_refuses_to_frame_the_widget(live_server, browser, event, club_site):
    page = browser.new_page()
    refusals = []
    page.on("console", lambda message: refusals.append(message.text) if "frame-ancestors" in message.text else None)
    page.goto(f"{club_site}/index.html")
    page.wait_for_timeout(1000)
    framed = [frame for frame in page.frames if frame != page.main_frame]
    assert len(framed) == 1
    assert not framed[0].url.startswith(live_server.url)  # Chromium's error page, not the widget
    assert page.frame_locator("iframe").locator("table").count() == 0
    assert refusals and "frame-ancestors 'self'" in refusals[0]
    # The same widget on the site itself (a framing page of this site would be allowed) loads as a page.
    page.goto(f"{live_server.url}/embed/events/harbour-open/")
    assert page.locator("#embed-standings table").first.is_visible()


def test_the_widget_has_no_serious_axe_finding(live_server, browser, event):
    from axe_playwright_python.sync_playwright import Axe

    organizer = get_user_model().objects.get(username="olga")
    battle = event.battles.select_related("general_a").order_by("group__index", "number").first()
    recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle", actor=organizer)
    axe = Axe()
    page = browser.new_page()
    for width in (320, 800):
        page.set_viewport_size({"width": width, "height": 700})
        page.goto(f"{live_server.url}/embed/events/harbour-open/")
        violations = axe.run(page).response["violations"]
        found = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations
                 if v["impact"] in ("serious", "critical")]
        assert found == [], (width, found)
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # tables scroll inside
