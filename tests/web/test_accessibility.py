"""Every page on a phone (390 x 844) and at 1280 px, in real headless Chromium, on the demo (a tournament
half played with a disputed report and one waiting for confirmation, and a league): axe-core finds no
serious or critical violation; nothing is wider than the screen except inside a table's scroll region,
which takes the keyboard focus and is named; the columns that matter stay on a phone's screen (Result
and Report in "My battles", Result on a general's page, Status and Why in the organizer's queue, OPP in
the standings, every crosstable column); the tie-break abbreviations are explained on the page, not in
hover titles; no page asks for anything missing (the favicon).

One browser; one context per visitor (anonymous, a player, a player without a general, the organizer),
the visitors side by side, each page visited at both widths. Set OPP_A11Y_SCREENSHOTS=<directory> to
keep a full-page screenshot of each."""
import asyncio
import os
from pathlib import Path

import axe_playwright_python
import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, require_chromium
from tournaments.demo import DEMO_CCG_SLUG, DEMO_LEAGUE_SLUG, DEMO_PASSWORD, DEMO_REAPER_SLUG, load_demo
from tournaments.models import Battle, Report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = (390, 1280)
SCREENSHOTS = os.environ.get("OPP_A11Y_SCREENSHOTS")
AXE_SCRIPT = Path(axe_playwright_python.__file__).with_name("axe.min.js")  # axe-core as the package ships it
# What one page shows, in the page: a list of problems in words. `columns` are [table selector, column
# header] pairs whose cells must all be on the screen ("*": the last column); empty at 1280 px.
CHECKS = """([columns, width]) => {
  const problems = [];
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > width) problems.push('the page is ' + pageWidth + ' px wide');
  // Anything scrolling sideways inside the page must be a named region the keyboard can focus; at
  // 1280 px nothing scrolls sideways at all.
  const name = e => e.tagName.toLowerCase() + '.' + e.className;
  const scrolling = [...document.querySelectorAll('body *')].filter(e => {
    const x = getComputedStyle(e).overflowX;
    return (x === 'auto' || x === 'scroll') && e.scrollWidth > e.clientWidth + 1;
  });
  if (width >= 1000 && scrolling.length) problems.push('scrolls sideways: ' + scrolling.map(name).join(', '));
  const unnamed = scrolling.filter(
    e => !(e.tabIndex >= 0 && e.getAttribute('role') === 'region' && e.getAttribute('aria-label')));
  if (unnamed.length) problems.push('scrolls sideways outside a named keyboard region: ' +
                                    unnamed.map(name).join(', '));
  if (!document.querySelector('link[rel~=icon]')) problems.push('no favicon linked');
  for (const [selector, header] of columns) {
    const tables = [...document.querySelectorAll(selector)];
    if (!tables.length) problems.push('no ' + selector);
    for (const table of tables) {
      const heads = [...table.querySelectorAll('thead tr:first-child > *')];
      const index = header === '*' ? heads.length - 1
        : heads.findIndex(h => h.textContent.trim().toLowerCase() === header.toLowerCase());
      if (index < 0) { problems.push(selector + ' has no column ' + header); continue; }
      const rows = [...table.querySelectorAll('tbody tr')].filter(row => row.children.length === heads.length);
      if (!rows.length) problems.push(selector + ' has no rows');
      // The header too where it is shown (a table stacked into cards hides its header row).
      const cells = rows.map(row => row.children[index]).concat(header === '*' ? [heads[index]] : []);
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        if (!box.width || !box.height || box.left < 0 || box.right > width + 0.5) {
          problems.push(selector + ' column ' + header + ' off the screen: "' +
                        cell.textContent.trim().slice(0, 30) + '" at ' + Math.round(box.left) + '..' +
                        Math.round(box.right) + ' px');
        }
      }
    }
  }
  // The standings' abbreviations are explained on the page, not only in hover titles.
  if (columns.length && document.querySelector('table.standings')) {
    const legend = document.querySelector('table.standings').closest('.table-scroll').nextElementSibling;
    const text = legend && legend.matches('dl.legend') ? legend.innerText : '';
    if (!text.includes('Organized Play Points') || !text.includes('victories by shackle') ||
        !legend.getBoundingClientRect().height) problems.push('no legend of the standings\\' abbreviations');
  }
  return problems;
}"""


def demo_pages():
    """[(username or None, [(path, [(table selector, column header), ...])])]: every page, as fits each visitor."""
    event = load_demo()
    slug, league = event.slug, DEMO_LEAGUE_SLUG
    disputed = Report.objects.get(battle__event=event, status=Report.Status.DISPUTED).battle
    waiting = Report.objects.filter(battle__event=event, status__in=Report.AWAITING_STATUSES).first()
    battle = waiting.battle
    player = battle.general_b if waiting.reported_by_id == battle.general_a.user_id else battle.general_a
    get_user_model().objects.create_user("newcomer", password=DEMO_PASSWORD)  # no general yet
    swiss_battle = Battle.objects.filter(event__slug=DEMO_CCG_SLUG).exclude(kind="").first()
    return [
        (None, [
            ("/", []),
            (f"/events/{slug}/", [("table.standings", "OPP"), ("table.crosstable", "*")]),  # and schedules
            (f"/events/{league}/", [("table.standings", "OPP")]),
            (f"/battles/{disputed.pk}/", []),
            (f"/generals/{player.pk}/", [("table.battles", "Result")]),
            (f"/events/{slug}/screen/", []),
            (f"/events/{slug}/print/pairings/", []),
            (f"/events/{slug}/print/slips/", []),
            (f"/events/{slug}/export/", []),
            (f"/events/{DEMO_CCG_SLUG}/", [("table.swiss-standings", "Pts")]),
            (f"/battles/{swiss_battle.pk}/", []),
            (f"/events/{DEMO_CCG_SLUG}/print/slips/", []),
            (f"/events/{DEMO_REAPER_SLUG}/lists/", []),
            ("/accounts/login/", []),
            ("/accounts/signup/", []),
            ("/accounts/password/reset/", []),
            ("/accounts/password/reset/done/", []),
        ]),
        (player.user.username, [  # the general who must confirm the waiting report; a league member too
            ("/my/battles/", [("table.battles", "Result"), ("table.battles", "Report")]),
            (f"/battles/{battle.pk}/", []),
            (f"/battles/{battle.pk}/replay/", []),
            (f"/events/{league}/report/", []),
            ("/claim/", []),
            ("/my/notifications/", []),
            ("/accounts/email/", []),
            ("/accounts/password/change/", []),
            ("/my/account/delete/", []),
            (f"/events/{DEMO_CCG_SLUG}/lists/", []),
        ]),
        ("newcomer", [("/claim/", []), ("/my/battles/", [])]),
        ("organizer", [
            (f"/events/{slug}/manage/", [("table.queue", "Status"), ("table.queue", "Why")]),
            (f"/events/{slug}/round/", []),
            (f"/events/{league}/manage/", []),
            (f"/events/{slug}/audit/", []),
            (f"/events/{slug}/details/", []),
            (f"/battles/{disputed.pk}/", []),
            ("/events/new/", []),
            ("/events/import/", []),
            (f"/events/{DEMO_CCG_SLUG}/lists/", []),
            (f"/events/{DEMO_CCG_SLUG}/manage/", []),
        ]),
    ]


async def serious_axe_violations(page):
    """axe-core's serious and critical violations (the context loads axe into every page)."""
    results = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(violation["id"], violation["impact"], [node["target"] for node in violation["nodes"]])
            for violation in results["violations"] if violation["impact"] in ("serious", "critical")]


async def visit(browser, base, who, pages, problems, language="en"):
    """One visitor in their own context: every page at each width; what is wrong goes to `problems`. With
    another `language` the browser asks for it, every page must say so in <html lang>, and the column checks
    (which name English headings) are left out."""
    asked = {} if language == "en" else {"locale": language, "extra_http_headers": {"Accept-Language": language}}
    context = await browser.new_context(viewport={"width": WIDTHS[0], "height": 844}, **asked)
    await context.add_init_script(path=str(AXE_SCRIPT))
    page = await context.new_page()
    failed = []
    page.on("response", lambda response: response.status >= 400 and failed.append(
        f"{response.status} {response.url.removeprefix(base)}"))
    if who:
        await page.goto(f"{base}/accounts/login/")
        await page.fill("input[name=login]", who)
        await page.fill("input[name=password]", DEMO_PASSWORD)
        await page.click("main button[type=submit]")
        await page.wait_for_load_state()
        assert "/accounts/login/" not in page.url, f"{who} could not sign in"
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 844 if width < 1000 else 900})
        for path, columns in pages:
            where = f"{path} at {width} px as {who or 'a visitor'}"
            failed.clear()
            response = await page.goto(base + path)
            if response.status != 200:
                problems.append(f"{where}: HTTP {response.status}")
                continue
            found = await page.evaluate(CHECKS, [columns if width < 1000 and language == "en" else [], width])
            shown_in = await page.evaluate("document.documentElement.lang")
            if language != "en" and shown_in != language and not path.startswith("/api/"):
                found.append(f'<html lang="{shown_in}">, not "{language}"')
            if failed:
                found.append(f"asked for what is not there: {failed}")
            found += [f"axe-core: {violation}" for violation in await serious_axe_violations(page)]
            problems += [f"{where}: {problem}" for problem in found]
            if SCREENSHOTS:
                Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
                name = f"{width}-{who or 'visitor'}-{path.strip('/').replace('/', '_') or 'home'}.png"
                await page.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=True)
    await context.close()


async def visit_all(base, visitors, language="en"):
    from playwright.async_api import async_playwright

    problems = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:  # the visitors side by side: their pages render, and axe runs, at the same time
            await asyncio.gather(*(visit(browser, base, who, pages, problems, language) for who, pages in visitors))
        finally:
            await browser.close()
    return problems


def test_every_page_reads_on_a_phone_and_at_1280_px_with_no_serious_axe_violation(live_server):
    require_chromium()
    visitors = demo_pages()
    problems = asyncio.run(visit_all(live_server.url, visitors))
    assert problems == [], "\n".join(sorted(problems))
