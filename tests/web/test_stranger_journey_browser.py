"""A stranger's way in, end to end in headless Chromium, at a phone's width and a desktop's: they sign
up, verify their address with the link from the mail, claim the general an organizer registered for
them at an earlier club night, join the next event, report their battle, and after the organizer
counts it, see it on their profile with their rating. axe-core finds nothing serious or critical on
the new pages (sign-up, sign-in, the profile, the directory, the rating list)."""
import re

import pytest
from django.core import mail

from tests.web.conftest import ARTIFACTS
from tests.web.test_accessibility import AXE_SCRIPT
from tournaments.events import services
from tournaments.models import Battle, Event, General, RatingPoint, Report
from tournaments.results import reporting

pytestmark = pytest.mark.browser
WIDTHS = [390, 1280]


def serious_axe_violations(page):
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], [node["target"] for node in v["nodes"]]) for v in results["violations"]
            if v["impact"] in ("serious", "critical")]


def link_in_last_mail(to):
    message = [m for m in mail.outbox if to in m.to][-1]
    return re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_stranger_signs_up_claims_joins_reports_and_sees_it_on_their_profile(
        live_server, browser, organizer, width):
    base = live_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    # Club night: the organizer registered Ada as a walk-in and handed her the claim code.
    club_night = services.create_event(name="Club Night", slug="club-night", actor=organizer)
    ada = services.register(club_night, General.objects.create(name="Ada Quill", created_by=organizer),
                            actor=organizer).general
    # The rated Harbour Open takes registrations; Ben, Cyd and Dov are registered already.
    harbour = services.create_event(name="Harbour Open", slug="harbour-open", actor=organizer, rated=True)
    for name in ("Ben", "Cyd", "Dov"):
        services.register(harbour, General.objects.create(name=name, created_by=organizer), actor=organizer)
    problems = []

    context = browser.new_context(viewport={"width": width, "height": 844})
    context.add_init_script(path=str(AXE_SCRIPT))  # before the page's own scripts, as the CSP allows
    page = context.new_page()
    page.goto(f"{base}/")
    page.click("header >> text=Sign up")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=email]", "ada@example.org")
    page.fill("input[name=password1]", "a long harbour passphrase")
    page.fill("input[name=password2]", "a long harbour passphrase")
    problems += [("sign-up", v) for v in serious_axe_violations(page)]
    page.click("main button[type=submit]")
    assert "verify" in page.locator("main").inner_text().lower()

    page.goto(link_in_last_mail("ada@example.org"))
    page.click("main button[type=submit]")  # the link opens a page with a button: scanners confirm nothing
    page.goto(f"{base}/claim/{ada.claim_code}/")
    if "/accounts/login/" in page.url:  # signed in by the confirmation unless the settings say otherwise
        page.fill("input[name=login]", "ada@example.org")
        page.fill("input[name=password]", "a long harbour passphrase")
        problems += [("sign-in", v) for v in serious_axe_violations(page)]
        page.click("main button[type=submit]")
    page.click("main button:has-text('Claim')")
    assert General.objects.get(pk=ada.pk).user.username == "ada"

    page.goto(f"{base}/events/harbour-open/")
    page.click("main button:has-text('Join Harbour Open with Ada Quill')")
    assert harbour.active_registrations().filter(general=ada).exists()

    services.close_registration(harbour, actor=organizer)
    services.form_groups(harbour, 2, seed=7, actor=organizer)
    battle = Battle.objects.get(event=harbour, general_a=ada) if Battle.objects.filter(
        event=harbour, general_a=ada).exists() else Battle.objects.get(event=harbour, general_b=ada)
    opponent = battle.opponent_of(ada)

    page.goto(f"{base}/battles/{battle.pk}/")
    page.select_option("select[name=kind]", "victory")
    page.select_option("select[name=winner]", str(ada.pk))
    page.select_option("select[name=condition]", "shackle")
    page.click("main button:has-text('Send the report')")
    report = Report.objects.get(battle=battle)
    # The opponent is a walk-in without an account: nobody counts alone, the organizer decides.
    reporting.decide_battle(battle, user=organizer, reason="Ben agreed at the table.", kind="victory",
                            winner=ada, condition="shackle", player_1=ada)
    assert Battle.objects.get(pk=battle.pk).winner_id == ada.pk and report.pk

    page.goto(f"{base}/generals/{ada.pk}/")
    profile = page.locator("main").inner_text()
    assert "Harbour Open" in profile and opponent.name in profile
    assert re.search(r"Victories by Shackle\s+1\b", profile, re.IGNORECASE), profile
    assert "Ada Quill wins by Shackle" in profile
    assert RatingPoint.objects.filter(general=ada).exists()  # a rated event: the result re-rated the field
    assert page.locator("main table").count() >= 2  # the record and the rating history, as tables
    problems += [("profile", v) for v in serious_axe_violations(page)]
    page.screenshot(path=str(ARTIFACTS / f"stranger-profile-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, "the profile scrolls sideways"

    for name, path in (("directory", "/generals/?q=quill"), ("ratings", "/ratings/")):
        page.goto(f"{base}{path}")
        assert "ada quill" in page.locator("main").inner_text().lower(), name
        problems += [(name, v) for v in serious_axe_violations(page)]
    assert Event.objects.get(pk=harbour.pk).rated
    assert problems == []
