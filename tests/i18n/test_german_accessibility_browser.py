"""The German pages in real headless Chromium, at 390 and 1280 px: the same pages and visitors as the English
scan (tests/web/test_accessibility.py), with the browser asking for German. axe-core finds no serious or
critical violation, nothing is wider than the screen (German's long words included) and every page says
<html lang="de">. The English scan's column checks name English headings, so here only widths and axe count."""
import asyncio

import pytest

from tests.web.conftest import require_chromium
from tests.web.test_accessibility import demo_pages, visit_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_page_in_german_reads_on_a_phone_and_at_1280_px_with_no_serious_axe_violation(live_server):
    require_chromium()
    problems = asyncio.run(visit_all(live_server.url, demo_pages(), language="de"))
    assert problems == [], "\n".join(sorted(problems))
