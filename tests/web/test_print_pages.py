"""Printable pairings and result slips, the export files and the organizer's archive, through
Django's test client."""
import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tournaments import trust
from tournaments.eventday import archive, exports
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import Event, General
from tournaments.results import recording

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer):
    event, _ = make_tournament(8, slug="quay-open", organizer=organizer)
    event.organizers.add(organizer)
    services.form_groups(event, 2, "random", seed=3)
    first = open_battles(event.groups.get(index=0))[0]
    victory(first, first.general_a)
    return event


def test_pairings_list_each_groups_current_round_with_tables_and_result_boxes(client, event):
    page = client.get("/events/quay-open/print/pairings/").content.decode()
    assert page.count('class="print-sheet"') == 2  # one sheet per group, a page each on paper
    assert "Group A, Round 1" in page and "Group B, Round 1" in page
    assert page.count('class="result-box"') == 4
    for battle in open_battles(event.groups.get(index=1))[:2]:
        assert battle.general_a.name in page and battle.general_b.name in page
    assert "print.css" in page and 'media="print"' in page


def test_pairings_of_a_chosen_round_of_one_group(client, event):
    group = event.groups.get(index=1)
    page = client.get(f"/events/quay-open/print/pairings/?group={group.pk}&round=Round+3").content.decode()
    assert page.count('class="print-sheet"') == 1 and "Group B, Round 3" in page
    round_3 = [b for b in open_battles(group) if b.round == 3]
    assert all(b.general_a.name in page for b in round_3)
    assert client.get("/events/quay-open/print/pairings/?group=999999").status_code == 404
    assert client.get("/events/quay-open/print/pairings/?group=x").status_code == 404


def test_one_slip_per_battle_each_with_an_svg_qr_code_to_its_battle_page(client, event):
    response = client.get("/events/quay-open/print/slips/")
    page = response.content.decode()
    battles = [b for g in event.groups.all() for b in g.battles.filter(round=1)]
    assert page.count('<article class="slip">') == len(battles) == 4
    assert page.count('<svg') == 4 and page.count('class="qr"') == 4
    for battle in battles:
        assert f"http://testserver/battles/{battle.pk}/" in page
    assert "Signature A" in page and "Shackle" in page and "Stalemate" in page
    assert "cdn" not in page.lower()


def test_the_event_page_links_to_printing_and_exports_and_the_organizer_to_the_archive(client, event, organizer):
    page = client.get("/events/quay-open/").content.decode()
    assert "/events/quay-open/print/pairings/" in page and "/events/quay-open/print/slips/" in page
    assert "/events/quay-open/export/" in page and "/archive.json" not in page
    group = event.groups.get(index=0)
    assert f"/events/quay-open/print/slips/?group={group.pk}" in page
    client.force_login(organizer)
    assert "/events/quay-open/archive.json" in client.get("/events/quay-open/").content.decode()
    assert "/events/quay-open/archive.json" in client.get("/events/quay-open/manage/").content.decode()


def test_csv_and_json_exports_are_downloads_anyone_may_take(client, event):
    response = client.get("/events/quay-open/export/standings.csv")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="quay-open-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert "Victories by Shackle" in rows[0] and len(rows) == 9
    document = client.get("/events/quay-open/export/results.json").json()
    assert document["export"] == "results" and len(document["rows"]) == 1
    assert client.get("/events/quay-open/export/reports.json").status_code == 404
    assert client.get("/events/quay-open/export/results.xlsx").status_code == 404
    page = client.get("/events/quay-open/export/").content.decode()
    assert "/events/quay-open/export/schedule.csv" in page and "archive.json" not in page


def test_an_unpublished_events_pages_are_hidden_from_strangers(client, event):
    Event.objects.filter(pk=event.pk).update(published=False)
    for url in ("/events/quay-open/print/pairings/", "/events/quay-open/print/slips/",
                "/events/quay-open/export/standings.csv"):
        assert client.get(url).status_code == 404


def test_only_an_organizer_downloads_the_archive(client, event, organizer):
    assert client.get("/events/quay-open/archive.json").status_code in (302, 403)
    client.force_login(get_user_model().objects.create_user("mallory", password="pw"))
    assert client.get("/events/quay-open/archive.json").status_code == 403
    client.force_login(organizer)
    response = client.get("/events/quay-open/archive.json")
    assert response.status_code == 200 and json.loads(response.content)["version"] == 2


def test_the_import_page_is_for_granted_organizers_who_become_the_event_organizer(client, event):
    document = json.dumps(archive.build_archive(event)).encode()
    user = get_user_model().objects.create_user("nina", password="pw")
    client.force_login(user)
    refused = client.post("/events/import/", {"archive": SimpleUploadedFile("a.json", document),
                                              "slug": "quay-two"})
    assert refused.status_code == 403 and not Event.objects.filter(slug="quay-two").exists()  # R77
    grant_organizer_role(user)
    response = client.post("/events/import/", {"archive": SimpleUploadedFile("a.json", document),
                                               "slug": "quay-open"})
    assert response.status_code == 400 and "exists already" in response.content.decode()
    response = client.post("/events/import/", {"archive": SimpleUploadedFile("a.json", b"{not json"),
                                               "slug": "quay-two"})
    assert response.status_code == 400 and "not valid JSON" in response.content.decode()
    assert not Event.objects.filter(slug="quay-two").exists()
    response = client.post("/events/import/", {"archive": SimpleUploadedFile("a.json", document),
                                               "slug": "quay-two"})
    assert response.status_code == 302 and response["Location"] == "/events/quay-two/manage/"
    assert trust.may_organize(user, Event.objects.get(slug="quay-two"))


@pytest.fixture
def league():
    event = services.create_event(name="Pier League", slug="pier", kind="league")
    generals = [General.objects.create(name=name) for name in ("Ada", "Ben", "Cyd")]
    for general in generals:
        services.register(event, general)
    season = seasons.open_season(event, "Autumn")
    played = seasons.schedule_battle(season, generals[0], generals[1])
    recording.record_result(played, kind="victory", winner=generals[0], condition="crush")
    seasons.schedule_battle(season, generals[1], generals[2])
    return event, season, generals


def test_a_league_seasons_pairings_are_its_battles_still_to_play(client, league):
    event, season, (ada, ben, cyd) = league
    page = client.get(f"/events/pier/print/pairings/?season={season.pk}").content.decode()
    assert "Pier League — Autumn, Scheduled battles" in page
    assert page.count('class="result-box"') == 1 and "Cyd" in page and "Ada" not in page
    assert client.get("/events/pier/print/pairings/").content.decode().count('class="print-sheet"') == 1
    assert client.get("/events/pier/print/slips/").content.decode().count('<article class="slip">') == 1
    assert f"/events/pier/print/pairings/?season={season.pk}" in client.get("/events/pier/").content.decode()


def test_a_league_archive_imports_with_its_season_and_standings(league):
    event, season, _ = league
    copy_ = archive.import_archive(archive.build_archive(event), slug="pier-copy")
    assert copy_.seasons.get().name == "Autumn" and copy_.battles.count() == 2
    assert exports.standings_table(copy_).rows == exports.standings_table(event).rows
