"""Event day screens in real headless Chromium, at the width where each finding of issue 24 was seen:
a refused result form on a phone (390 px) opens at its error summary, with and without JavaScript
(item 2); the venue screen on a 1920x1080 hall display pages through its results, none cut off, with a
QR code and labels sized to the display (item 6); a slip's URL wraps between its parts on paper (item 7);
a long name without spaces keeps the event page within a phone's width (item 10); the API docs pages
have no serious axe-core finding at 390 and 1280 px (item 13). Screenshots go to test-artifacts/."""
import time

import pytest

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tests.web.conftest import ARTIFACTS, sign_in
from tournaments.events import services
from tournaments.models import General

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
HALL = {"width": 1920, "height": 1080}
LONG_NAME = "Maximilianfriedrichwilhelmvonhohenzollernsigmaringen"
# The text that reaches past the screen's right edge, outside a scroll region (for the failure message).
WIDER_TEXT = """width => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(n);
    if (range.getBoundingClientRect().right > width + 1 && !n.parentElement.closest('.table-scroll'))
      out.push(n.parentElement.tagName + ': ' + n.data.trim().slice(0, 30));
  }
  return out.slice(0, 8);
}"""


def scrolled_down_within(page, seconds):
    """Whether the page is scrolled down from its top within `seconds`. Asked from the test's side, one
    evaluation at a time: Playwright's wait_for_function evaluates a string with eval() inside the page,
    which the site's Content Security Policy (script-src 'self') rightly refuses."""
    deadline = time.monotonic() + seconds
    while page.evaluate("window.scrollY") <= 0:
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)
    return True


@pytest.fixture
def event(organizer):
    """Twelve generals in two groups of six (three battles a round), one with a long name without spaces,
    and seven results of Group A."""
    event, generals = make_tournament(12, slug="quay-open", organizer=organizer)
    event.organizers.add(organizer)
    General.objects.filter(pk=generals[0].pk).update(name=LONG_NAME)
    services.form_groups(event, 2, "random", seed=3)
    for battle in open_battles(event.groups.get(index=0))[:7]:
        victory(battle, battle.general_a)
    return event


def test_a_refused_correction_on_a_phone_opens_at_its_error_summary(live_server, browser, event):
    battle = event.battles.exclude(kind="").order_by("round", "number").first()
    for script in (True, False):
        context = browser.new_context(viewport=PHONE, java_script_enabled=script)
        page = context.new_page()
        sign_in(page, live_server.url, "olga")
        page.goto(f"{live_server.url}/battles/{battle.pk}/")
        page.select_option("#organizer-result select[name=winner]", str(battle.general_b_id))
        page.click("#organizer-result button:has-text('Record the result')")  # a correction needs a reason
        summary = page.locator("#form-errors")
        assert "Reason:" in summary.inner_text()
        box = summary.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (script, box)  # in view
        # The jump to #form-errors may land a moment after the load on a busy machine: wait for it (at most 5 s).
        assert scrolled_down_within(page, 5.0), "the page opened at its top, not at the form's errors"
        if script:  # focused, so a screen reader reads it; its link moves the focus to the field
            assert page.evaluate("document.activeElement.id") == "form-errors"
            summary.locator("a[href='#id_reason']").click()
            assert page.evaluate("document.activeElement.id") == "id_reason"
        page.screenshot(path=str(ARTIFACTS / f"refused-form-phone{'' if script else '-no-js'}.png"))
        context.close()


def test_the_venue_screen_on_a_hall_display_pages_its_results_in_type_sized_to_the_display(
        live_server, browser, event):
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport=HALL)
    page.clock.install()  # the pages turn every 10 seconds: the test moves the clock instead of waiting
    page.goto(f"{live_server.url}/events/quay-open/screen/")
    qr = page.locator(".venue-qr svg.qr").bounding_box()
    assert qr["width"] >= 260 and qr["height"] >= 260  # 180 px before: read from a few steps away
    label = page.locator(".venue-where").first
    assert float(label.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24  # 19 px before
    column = page.locator(".venue-results")
    bottom = column.bounding_box()["y"] + column.bounding_box()["height"]
    pages = page.locator("#venue-results-pages > .venue-page")
    assert pages.count() == 3  # seven results, three to a page
    seen = []
    for turn in range(3):
        shown = page.locator("#venue-results-pages > .venue-page:not([hidden])")
        assert shown.count() == 1
        for line in shown.locator("li").all():  # every line of the page shown whole, none clipped
            box = line.bounding_box()
            assert box["y"] + box["height"] <= bottom, (turn, line.inner_text(), box, bottom)
            seen.append(line.inner_text())
        if turn == 0:
            page.screenshot(path=str(ARTIFACTS / "venue-screen-1920.png"))
        page.clock.fast_forward(10_500)
    assert len(seen) == 7 and len(set(seen)) == 7
    assert page.evaluate("document.documentElement.scrollWidth") <= HALL["width"]


def test_a_slips_url_wraps_between_its_parts_on_paper(live_server, browser, event):
    page = browser.new_page(viewport={"width": 900, "height": 1200})
    page.goto(f"{live_server.url}/events/quay-open/print/slips/")
    page.emulate_media(media="print")
    # The text before each line break of the URL under the first slip's QR code.
    breaks = page.locator(".slip-url").first.evaluate("""e => {
      const text = e.textContent, node = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      const tops = [], chars = [];
      for (let n = node.nextNode(); n; n = node.nextNode()) {
        for (let i = 0; i < n.length; i++) {
          const range = document.createRange(); range.setStart(n, i); range.setEnd(n, i + 1);
          const rect = range.getClientRects()[0]; if (rect) { tops.push(rect.top); chars.push(n.data[i]); }
        }
      }
      const before = [];
      for (let i = 1; i < tops.length; i++) {
        if (tops[i] > tops[i - 1] + 1) before.push(chars.slice(0, i).join(''));
      }
      return {text, before};
    }""")
    assert breaks["before"], breaks  # the caption is narrower than the URL
    for head in breaks["before"]:  # after a slash, or before a dot: never inside a word
        rest = breaks["text"][len(head):]
        assert head.endswith("/") or rest.startswith("."), breaks


def test_a_long_name_without_spaces_keeps_the_event_page_on_a_phones_screen(live_server, browser, event):
    page = browser.new_page(viewport=PHONE)
    for url in ("/events/quay-open/", "/events/quay-open/screen/", "/events/quay-open/print/slips/"):
        page.goto(live_server.url + url)
        assert page.locator(f"text={LONG_NAME}").first.count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate(WIDER_TEXT, PHONE["width"])
        assert width <= PHONE["width"], (url, width, wide)
    page.goto(f"{live_server.url}/events/quay-open/")
    page.screenshot(path=str(ARTIFACTS / "long-name-phone.png"), full_page=True)


def test_the_api_docs_have_no_serious_axe_finding(live_server, browser):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page = browser.new_page()
    for url, ready in (("/api/docs/", ".swagger-ui .opblock-summary-method"),
                       ("/api/redoc/", "text=WARLINE Organized Play API")):
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(live_server.url + url)
            page.locator(ready).first.wait_for()
            violations = axe.run(page).response["violations"]
            found = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations
                     if v["impact"] in ("serious", "critical")]
            assert found == [], (url, width, found)
