"""A player on a phone (390 x 844, real headless Chromium) joins a league in its open season and reports a
battle they arranged on the league's page; the opponent confirms, and the standings show the OPP column on
screen even with long names. Screenshots go to test-artifacts/."""
import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import ARTIFACTS, sign_in
from tournaments.events import membership, services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import Battle, General, Report
from tournaments.results import reporting

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
LONG_NAMES = ["Bartholomew Featherstonehaugh-Montgomery", "Wilhelmina Throckmorton-Ashbury", "Cyd"]


def test_a_member_reports_an_arranged_battle_on_a_phone(live_server, browser):
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    league = services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    me_user = User.objects.create_user("bartholomew", password="pw")
    opponent, _cyd = (membership.join(league, User.objects.create_user(name.split()[0].lower(), password="pw"),
                                      name=name).general for name in LONG_NAMES[1:])
    seasons.open_season(league, "Autumn", actor=organizer)
    base = live_server.url
    ARTIFACTS.mkdir(exist_ok=True)

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    sign_in(page, base, me_user.username)
    page.goto(f"{base}/events/pier/")
    # A player without a general joins the league in its open season, naming their general (R78, R88).
    page.fill("input[name=name]", LONG_NAMES[0])
    page.click("button:has-text('Join Pier League')")
    me = General.objects.get(user=me_user)
    assert me.name == LONG_NAMES[0] and league.seasons.get().memberships.filter(general=me).exists()
    page.click("text=Report a league battle you played")
    page.select_option("select[name=opponent]", str(opponent.pk))
    page.select_option("select[name=kind]", "victory")
    page.select_option("select[name=won]", "me")
    page.select_option("select[name=condition]", "shackle")
    page.select_option("select[name=player_1]", "me")
    page.click("button:has-text('Report')")
    battle = Battle.objects.get()
    assert page.url.endswith(f"/battles/{battle.pk}/")
    assert page.locator(".badge.status-awaiting_opponent").first.is_visible()

    reporting.confirm_report(Report.objects.get(battle=battle), user=opponent.user)
    page.goto(f"{base}/events/pier/")
    row = page.locator("table.standings tr", has_text=me.name).first
    opp = row.locator("td strong")
    assert opp.inner_text() == "5"
    box = opp.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    page.screenshot(path=str(ARTIFACTS / "league-phone.png"), full_page=True)
    context.close()
