"""Event day screens through Django's test client (issue 24 items 2, 6, 7, 13): a refused form's errors at
its top, the venue screen's results paged rather than cut, prints that skip finished groups and follow the
round being played, slip URLs that wrap between their parts, and the API docs in English without links
nested in buttons. Layout (what a phone or a hall display shows) is in
tests/web/test_event_day_screens_browser.py."""
import re

import pytest

from tests.tournaments.helpers import make_tournament, open_battles, play_group_strongest_wins, victory
from tournaments.events import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def twelve(organizer):
    """Twelve generals in two groups of six: three battles a round, five rounds."""
    event, _ = make_tournament(12, slug="quay-open", organizer=organizer)
    event.organizers.add(organizer)
    services.form_groups(event, 2, "random", seed=3)
    return event


def error_summary(page):
    match = re.search(r'<div class="error-summary" id="form-errors" role="alert" tabindex="-1">(.*?)</div>',
                      page, re.S)
    assert match, "no error summary"
    return match.group(1)


# --- item 2: a refused form says so at its top ------------------------------------------------------

def test_a_refused_correction_on_the_battle_page_opens_at_its_error_summary(client, twelve, organizer):
    battle = open_battles(twelve.groups.get(index=0))[0]
    victory(battle, battle.general_a)
    client.force_login(organizer)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    # The form is sent to an address ending in the summary's anchor: refused, the page opens there.
    assert f'action="/battles/{battle.pk}/result/#form-errors"' in page
    assert 'id="form-errors"' not in page  # nothing refused yet: no summary, and nowhere to jump to

    response = client.post(f"/battles/{battle.pk}/result/", {  # a correction without its reason
        "kind": "victory", "winner": battle.general_b.pk, "condition": "shackle", "reason": ""})
    page = response.content.decode()
    summary = error_summary(page)
    assert 'href="#id_reason"' in summary and "Reason:" in summary
    # At the top of the organizer's form, before its first field, not only next to the reason far below.
    form = page[page.index(f'action="/battles/{battle.pk}/result/#form-errors"'):]
    assert form.index('id="form-errors"') < form.index('name="kind"') < form.index('name="reason"')
    assert "js/result-form.js" in page  # the script that focuses the summary


def test_a_refused_result_on_the_round_page_links_to_its_own_field(client, twelve, organizer):
    battle = open_battles(twelve.groups.get(index=0))[0]
    victory(battle, battle.general_a)
    client.force_login(organizer)
    page = client.post("/events/quay-open/round/", {
        "action": "record", "battle": battle.pk, "kind": "stalemate", "reason": ""}).content.decode()
    summary = error_summary(page)
    assert f'href="#id_b{battle.pk}_reason"' in summary  # the ids of this battle's form, not another's
    assert page.count('id="form-errors"') == 1
    assert 'action="/events/quay-open/round/#form-errors"' in page


def test_the_error_summary_of_any_form_lists_each_field_once(client, organizer):
    client.force_login(organizer)
    page = client.post("/events/new/", {"name": "", "slug": "bad slug!", "kind": "tournament"})
    page = page.content.decode()
    summary = error_summary(page)
    links = re.findall(r'href="#(id_\w+)"', summary)
    assert "id_name" in links and "id_slug" in links and len(links) == len(set(links))
    assert f"{len(links)} things need your attention" in summary


# --- item 6: the venue screen pages through every result --------------------------------------------

def test_the_venue_screen_pages_through_every_result_and_battle_to_play(client, twelve):
    group = twelve.groups.get(index=0)
    played = open_battles(group)[:7]
    for battle in played:
        victory(battle, battle.general_a)
    page = client.get("/events/quay-open/screen/").content.decode()
    results = page[page.index('id="venue-results-pages"'):page.index("To play now")]
    assert results.count('class="venue-page"') == 3  # seven results, three to a page
    assert "page 1 of 3" in results and "page 3 of 3" in results
    for battle in played:  # none left off (the screen showed four)
        assert f"{battle.general_a.name} v {battle.general_b.name}" in results
    to_play = page[page.index('id="venue-play-pages"'):page.index('class="venue-qr"')]
    in_progress = [b for g in twelve.groups.all() for b in open_battles(g)
                   if b.round == min(o.round for o in open_battles(g))]
    for battle in in_progress:  # every battle of the round, not three and "more"
        assert f"{battle.general_a.name} v {battle.general_b.name}" in to_play
    assert 'data-rotate="10"' in to_play and "more</p>" not in to_play


# --- item 7: prints follow the round being played and skip finished groups --------------------------

def test_one_late_battle_does_not_keep_a_groups_print_on_its_old_round(client, twelve):
    group = twelve.groups.get(index=0)
    late, *others = [b for b in open_battles(group) if b.round == 1]
    for battle in others:
        victory(battle, battle.general_a)
    page = client.get("/events/quay-open/print/pairings/").content.decode()
    assert "Group A, Round 2" in page and "Group A, Round 1" not in page
    assert "Group B, Round 1" in page  # a round barely started is still the group's round
    slips = client.get("/events/quay-open/print/slips/").content.decode()
    assert f"/battles/{late.pk}/" not in slips
    # The late battle still prints when its round is asked for.
    page = client.get(f"/events/quay-open/print/slips/?group={group.pk}&round=Round+1").content.decode()
    assert f"/battles/{late.pk}/" in page


def test_a_finished_groups_pairings_and_slips_are_not_printed(client, twelve):
    finished = twelve.groups.get(index=1)
    play_group_strongest_wins(finished, sorted(m.general_id for m in finished.members.all()))
    assert finished.battles.filter(kind="").count() == 0
    pairings = client.get("/events/quay-open/print/pairings/").content.decode()
    assert pairings.count('class="print-sheet"') == 1 and "Group B," not in pairings
    assert f'Group B (<a href="?group={finished.pk}">print it anyway</a>)' in pairings
    slips = client.get("/events/quay-open/print/slips/").content.decode()
    assert slips.count('<article class="slip">') == 3
    assert all(f"/battles/{b.pk}/" not in slips for b in finished.battles.all())
    # Asked for by name, a finished group prints (its last round).
    page = client.get(f"/events/quay-open/print/pairings/?group={finished.pk}").content.decode()
    assert "Group B, Round 5" in page


def test_the_slips_page_has_a_heading_and_urls_that_wrap_between_their_parts(client, twelve):
    page = client.get("/events/quay-open/print/slips/").content.decode()
    assert "<h1>Result slips · Quay Open</h1>" in page
    battle = open_battles(twelve.groups.get(index=0))[0]
    assert f'<span class="slip-url">http://<wbr>testserver/<wbr>battles/<wbr>{battle.pk}/<wbr></span>' in page


# --- item 13: the API docs pages -------------------------------------------------------------------

def test_the_api_docs_pages_say_their_language_and_swagger_ui_makes_no_deep_links(client):
    for url in ("/api/docs/", "/api/redoc/"):
        page = client.get(url).content.decode()
        assert '<html lang="en">' in page and "<main" in page, url
    script = client.get("/api/docs/?script=").content.decode()
    assert '"deepLinking": false' in script
