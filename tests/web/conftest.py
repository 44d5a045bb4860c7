"""What the browser tests share: the system Chromium (Playwright drives /usr/bin/chromium, never a
browser of its own), where screenshots go, and signing in through the login page."""
import os
from pathlib import Path

import pytest

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
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")
