"""The pairings and the result slips as Chromium prints them: no site navigation on paper, a page
per group, readable black on white. Screenshots and PDFs go to test-artifacts/."""
import csv
import io
import re
from pathlib import Path

import pytest

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tests.web.conftest import ARTIFACTS
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pdf_pages(path):
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


@pytest.fixture
def event():
    event, _ = make_tournament(8, slug="quay-open")
    services.form_groups(event, 2, "random", seed=3)
    first = open_battles(event.groups.get(index=0))[0]
    victory(first, first.general_a)
    return event


def test_the_pairings_print_without_navigation_and_a_group_per_page(live_server, browser, event):
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 900, "height": 1200})
    page.goto(f"{live_server.url}/events/quay-open/print/pairings/")
    assert page.locator(".site-header nav").is_visible()  # on screen the site is as usual
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator(".print-controls").is_visible()
    assert page.locator(".print-sheet").count() == 2
    second = page.locator(".print-sheet").nth(1)
    assert second.evaluate("e => getComputedStyle(e).breakBefore") == "page"
    assert page.locator("body").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    assert page.locator("table.pairings td.result-box").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / "print-pairings.png"), full_page=True)
    page.pdf(path=str(ARTIFACTS / "print-pairings.pdf"), format="A4")
    assert pdf_pages(ARTIFACTS / "print-pairings.pdf") == 2  # a page per group


def test_the_result_slips_print_with_their_qr_codes(live_server, browser, event):
    page = browser.new_page(viewport={"width": 900, "height": 1200})
    page.goto(f"{live_server.url}/events/quay-open/print/slips/")
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    slips = page.locator("article.slip")
    assert slips.count() == 4
    drawing = slips.first.locator("svg.qr path").bounding_box()  # the code itself, not just its frame
    assert drawing and drawing["width"] >= 80 and drawing["height"] >= 80  # large enough for a phone to read
    page.screenshot(path=str(ARTIFACTS / "print-slips.png"), full_page=True)
    page.pdf(path=str(ARTIFACTS / "print-slips.pdf"), format="A4")
    assert pdf_pages(ARTIFACTS / "print-slips.pdf") == 2  # two slips to an A4 page, none split


def test_the_event_page_prints_standings_and_crosstables_a_group_per_page(live_server, browser, event):
    page = browser.new_page(viewport={"width": 900, "height": 1200})
    page.goto(f"{live_server.url}/events/quay-open/")
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator("text=Print pairings").is_visible()
    panels = page.locator("section.print-page")
    assert panels.count() == 2 and panels.nth(1).evaluate("e => getComputedStyle(e).breakBefore") == "page"
    assert page.locator("table.standings").first.is_visible() and page.locator("table.crosstable").first.is_visible()
    assert page.locator("table.standings td").first.evaluate("e => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    page.screenshot(path=str(ARTIFACTS / "print-event.png"), full_page=True)
    page.pdf(path=str(ARTIFACTS / "print-event.pdf"), format="A4")


def test_an_organizer_exports_the_results_and_moves_the_event_to_another_site(live_server, browser, event):
    """The export page's CSV and the archive download, then the import page creating the event anew
    (the second site is this one under another address: the archive carries no ids of this site)."""
    from django.contrib.auth import get_user_model

    from tests.web.conftest import sign_in
    from tournaments.events.membership import grant_organizer_role
    from tournaments.models import Event

    organizer = grant_organizer_role(get_user_model().objects.create_user("orla", password="pw"))
    event.organizers.add(organizer)
    page = browser.new_page(viewport={"width": 900, "height": 1200})
    sign_in(page, live_server.url, "orla")
    page.goto(f"{live_server.url}/events/quay-open/export/")
    with page.expect_download() as results:
        page.click("text=results.csv")
    csv_text = Path(results.value.path()).read_text(encoding="utf-8")
    header, *rows = csv.reader(io.StringIO(csv_text))
    assert header[:9] == ["Stage", "Group or season", "Round", "Battle", "General A", "General B", "Result",
                          "Condition", "Winner"]
    assert len(rows) == 1  # the one counted result
    counted = dict(zip(header, rows[0], strict=True))
    assert (counted["Result"].lower(), counted["Condition"].lower()) == ("victory", "shackle")
    with page.expect_download() as archived:
        page.click("text=Download the archive")
    archive_path = archived.value.path()

    page.goto(f"{live_server.url}/events/import/")
    page.set_input_files("input[name=archive]", archive_path)
    page.fill("input[name=slug]", "quay-open-again")
    page.click("text=Import the event")
    page.wait_for_url("**/events/quay-open-again/manage/")
    assert "is imported" in page.content()
    copy = Event.objects.get(slug="quay-open-again")
    assert list(copy.organizers.values_list("username", flat=True)) == ["orla"]
    assert copy.battles.exclude(kind="").count() == event.battles.exclude(kind="").count() == 1
    page.goto(f"{live_server.url}/events/quay-open-again/")
    assert page.locator(".standings").first.is_visible() or "Standings" in page.content()
