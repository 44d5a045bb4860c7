"""Live pages (tournaments/web/live.py): the revision endpoints answer 304 while nothing changed
and a new revision after a change, hide what the pages hide, and the pages carry what the script
needs to follow them. The venue screen shows the standings, results and a QR code to the event."""
import re

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import grouped_event
from tournaments.models import Event, Report
from tournaments.results import recording, reporting

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer):
    return grouped_event(organizer, name="Quay Open", slug="quay", seed=7)


def first_battle(event):
    return event.battles.select_related("general_a", "general_b").order_by("group__index", "number").first()


def revision(client, url, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **headers)


def test_an_unchanged_event_answers_304_and_a_recorded_result_gives_a_new_etag(client, event, organizer):
    first = revision(client, "/live/events/quay/")
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    etag = first["ETag"]
    assert first.json()["revision"] == etag.strip('"') and first.json()["poll_ms"] == 1000
    unchanged = revision(client, "/live/events/quay/", etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag

    battle = first_battle(event)
    recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle", actor=organizer)
    changed = revision(client, "/live/events/quay/", etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert revision(client, "/live/events/quay/", changed["ETag"]).status_code == 304


def test_an_unpublished_event_is_hidden_from_all_but_its_organizers(client, event, organizer):
    Event.objects.filter(pk=event.pk).update(published=False)
    event.refresh_from_db()
    event.save()  # as an organizer would: the signal drops the cached head
    assert client.get("/live/events/quay/").status_code == 404
    assert client.get("/events/quay/screen/").status_code == 404
    client.force_login(get_user_model().objects.get(username="ada"))
    assert client.get("/live/events/quay/").status_code == 404
    client.force_login(organizer)
    assert client.get("/live/events/quay/").status_code == 200
    assert client.get("/events/quay/screen/").status_code == 200
    assert client.get("/live/events/no-such-event/").status_code == 404


def test_a_battle_revision_follows_its_reports_only_for_those_who_see_them(client, event):
    battle = first_battle(event)
    stranger = get_user_model().objects.create_user("sam", password="pw")
    url = f"/live/battles/{battle.pk}/"
    client.force_login(battle.general_a.user)
    mine = revision(client, url)["ETag"]
    client.force_login(stranger)
    theirs = revision(client, url)["ETag"]

    report = reporting.submit_report(battle, user=battle.general_a.user, kind="victory", winner=battle.general_a,
                                     condition="shackle")
    assert report.status == Report.Status.AWAITING_OPPONENT
    client.force_login(battle.general_a.user)
    assert revision(client, url, mine).status_code == 200  # the general sees the report's state change
    # The stranger learns that the event changed (the report is in its audit trail), never what.
    client.force_login(stranger)
    answer = revision(client, url, theirs)
    assert set(answer.json()) == {"revision", "poll_ms"}
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Awaiting" not in page and "reported by" not in page  # the page keeps the report private


def test_my_battles_revision_changes_with_my_reports_and_needs_a_sign_in(client, event):
    assert client.get("/live/my/battles/").status_code == 401
    battle = first_battle(event)
    opponent = battle.general_b.user
    client.force_login(opponent)
    etag = revision(client, "/live/my/battles/")["ETag"]
    assert revision(client, "/live/my/battles/", etag).status_code == 304
    reporting.submit_report(battle, user=battle.general_a.user, kind="stalemate")
    changed = revision(client, "/live/my/battles/", etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def live_attributes(page):
    match = re.search(r'data-live="([^"]+)" data-live-page="([^"]+)" data-live-revision="([^"]+)"', page)
    assert match, "the page does not follow its revision"
    return match.groups()


def test_the_pages_name_their_revision_and_the_revision_they_show(client, event):
    battle = first_battle(event)
    page = client.get("/events/quay/").content.decode()
    endpoint, own, shown = live_attributes(page)
    assert (endpoint, own) == ("/live/events/quay/", "/events/quay/")
    assert revision(client, endpoint, f'"{shown}"').status_code == 304
    assert "js/live.js" in page

    client.force_login(battle.general_a.user)
    endpoint, own, shown = live_attributes(client.get(f"/battles/{battle.pk}/").content.decode())
    assert own == f"/battles/{battle.pk}/" and revision(client, endpoint, f'"{shown}"').status_code == 304
    endpoint, own, shown = live_attributes(client.get("/my/battles/").content.decode())
    assert own == "/my/battles/" and revision(client, endpoint, f'"{shown}"').status_code == 304


def test_a_refused_form_is_not_replaced_by_a_fresh_page(client, event, organizer):
    battle = first_battle(event)
    client.force_login(organizer)
    page = client.post(f"/battles/{battle.pk}/result/", {"kind": "victory"}).content.decode()
    assert 'data-live=' not in page  # what was typed and why it was refused stay on the page


def test_the_venue_screen_shows_standings_results_and_a_qr_code_to_the_event(client, event, organizer):
    battle = first_battle(event)
    recording.record_result(battle, kind="victory", winner=battle.general_a, condition="shackle", actor=organizer)
    page = client.get("/events/quay/screen/").content.decode()
    assert "<svg" in page and "testserver/events/quay/" in page
    assert page.count('class="venue-table"') == 2 and 'data-rotate="12"' in page
    assert f"{battle.general_a.name} v {battle.general_b.name}: <strong>{battle.general_a.name} wins by" in page
    endpoint, own, _ = live_attributes(page)
    assert (endpoint, own) == ("/live/events/quay/", "/events/quay/screen/")
