"""The Content-Security-Policy (issue 21, finding 12): every page is served with it, and the pages work
under it in Chromium: the public and organizer pages, the live pages, the replay viewer, the venue
screen, the API docs (Swagger UI and Redoc) and the admin's sign-in, with no violation reported
(the browser's `securitypolicyviolation` events and its console)."""
import json

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import sign_in
from tests.web.test_replay_viewer import terrain_battle, terrain_event_battles
from tournaments.models import Event
from tournaments.results import reporting

POLICY = "Content-Security-Policy"
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def directives(header):
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
                                 "/api/docs/", "/api/redoc/", "/api/v1/events/", "/admin/login/"])
def test_every_page_is_served_with_a_policy_that_runs_only_this_sites_scripts(client, url):
    response = client.get(url)
    assert response.status_code == 200
    policy = directives(response[POLICY])
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval, nothing from elsewhere
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["default-src"] == ["'self'"] and policy["base-uri"] == ["'none'"]
    if url != "/api/redoc/":  # Redoc's styled-components write <style> elements: its page only
        assert policy["style-src"] == ["'self'"]


def test_the_shipped_production_settings_send_the_policy(production_settings):
    assert "opp.middleware.SiteWideCSPMiddleware" in production_settings["MIDDLEWARE"]
    assert production_settings["CONTENT_SECURITY_POLICY"]["DIRECTIVES"]["script-src"] == ["'self'"]


@pytest.mark.django_db
def test_the_policy_written_once_is_the_one_django_csp_builds_and_follows_the_settings(client, settings):
    """The site-wide header is built once per process (opp.middleware.SiteWideCSPMiddleware): it must be
    exactly django-csp's, the API docs keep their own widened policy, and a changed setting is followed."""
    from csp.utils import build_policy

    assert directives(client.get("/")[POLICY]) == directives(build_policy())
    assert directives(client.get("/api/redoc/")[POLICY])["style-src"] == ["'self'", "'unsafe-inline'"]
    assert directives(client.get("/api/v1/events/")[POLICY]) == directives(build_policy())
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'self'"], "img-src": ["'self'"]}}
    assert directives(client.get("/")[POLICY]) == {"default-src": ["'self'"], "img-src": ["'self'"]}


@pytest.fixture
def production_settings():
    from tests.api.test_hardening_third_round import shipped_settings

    return shipped_settings("MIDDLEWARE", "CONTENT_SECURITY_POLICY")


# Redoc's menu shows its maker's logo from their CDN; the policy keeps it out (the page loads nothing from
# elsewhere) and Redoc drops the image when it does not load. That one refusal is the policy at work.
EXPECTED = ("img-src blocked https://cdn.redoc.ly/redoc/logo-mini.svg",)


def no_violations(page):
    return [seen for seen in page.evaluate("window.__cspViolations") if not seen.startswith(EXPECTED)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pages_work_under_the_policy_with_no_violation(live_server, browser):
    battles = terrain_event_battles()  # Crag Cup: olga organizes, ada..dov play
    battle = battles[0]
    a, b = battle.general_a, battle.general_b
    reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt",
                            replay=json.dumps(terrain_battle(a.name, b.name)))
    event = Event.objects.get(slug="crag-cup")
    get_user_model().objects.filter(username="olga").update(is_staff=True)
    base = live_server.url
    console = []

    def visit(page, path, ready=None):
        response = page.goto(f"{base}{path}")
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers[POLICY.lower()], path
        if ready:
            page.wait_for_selector(ready, timeout=15_000)
        page.wait_for_timeout(300)  # late scripts (live polling, workers) report too
        assert no_violations(page) == [], path

    context = browser.new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    page.on("console", lambda message: console.append(message.text))
    visit(page, "/")
    visit(page, f"/events/{event.slug}/")
    visit(page, f"/events/{event.slug}/screen/")
    visit(page, f"/events/{event.slug}/print/pairings/")
    visit(page, f"/events/{event.slug}/export/")
    visit(page, "/api/docs/", ready=".swagger-ui .info")
    visit(page, "/api/redoc/", ready="text=WARLINE Organized Play API")

    sign_in(page, base, b.user.username)  # the opponent: the battle's page asks to confirm
    visit(page, f"/battles/{battle.pk}/")
    visit(page, f"/battles/{battle.pk}/replay/", ready="#move-list li")
    page.keyboard.press("End")
    assert no_violations(page) == []
    visit(page, "/my/battles/")
    visit(page, "/my/notifications/")

    organizer = browser.new_context()
    organizer.add_init_script(WATCH_VIOLATIONS)
    desk = organizer.new_page()
    desk.on("console", lambda message: console.append(message.text))
    sign_in(desk, base, "olga")
    visit(desk, f"/events/{event.slug}/manage/")
    visit(desk, f"/events/{event.slug}/round/")
    visit(desk, f"/events/{event.slug}/audit/")
    visit(desk, "/events/import/")
    visit(desk, "/admin/")
    assert not [text for text in console if "Content Security Policy" in text and "cdn.redoc.ly" not in text], console
    context.close()
    organizer.close()
