"""What the browser tests share: the system Chromium (Playwright drives /usr/bin/chromium, never a
browser of its own), where screenshots go, and signing in through the login page. What the page tests
share: Olga the organizer, her empty Harbour Open, and an event of eight players with its groups drawn.
Models are imported inside the functions: conftest modules load before Django's apps are ready."""
import os
from pathlib import Path

import pytest

from tests.api.conftest import harbour  # noqa: F401  (Olga's empty Harbour Open, as the API tests have it)
from tests.conftest import missing_service

CHROMIUM = os.environ.get("OPP_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying hosts a venue network may not reach.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def require_chromium():
    if not Path(CHROMIUM).exists():
        missing_service(f"Chromium is not installed at {CHROMIUM} (Debian package chromium).")


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def sign_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")


@pytest.fixture
def organizer():
    """Olga, an organizer who signs in with password "pw"."""
    from django.contrib.auth import get_user_model

    from tournaments.events.membership import grant_organizer_role

    return grant_organizer_role(get_user_model().objects.create_user("olga", password="pw"))


def grouped_event(organizer, *, name, slug, seed):
    """An event of eight generals, each entered by its own player (an account with password "pw"),
    registration closed and two qualifying groups drawn with the seed."""
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.models import Event, General

    User = get_user_model()
    event = services.create_event(name=name, slug=slug, actor=organizer)
    for player in ("Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"):
        general = General.objects.create(name=player, user=User.objects.create_user(player.lower(), password="pw"))
        services.register(event, general, actor=general.user)  # the player enters their own general (R78)
    services.close_registration(event, actor=organizer)
    services.form_groups(event, 2, seed=seed, actor=organizer)
    return Event.objects.get(pk=event.pk)
