from tests.web.conftest import browser, organizer  # noqa: F401  (Chromium, and Olga the organizer)
