"""The organizer's and the players' pages, driven through Django's test client."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.reporting.conftest import REPLAYS, replay_between, upload_shackle_on_the_page
from tournaments import trust
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = grant_organizer_role(get_user_model().objects.create_user("olga", password="pw"))
    client.force_login(user)
    return user


def test_creating_an_event_shows_refusals_on_the_field_and_keeps_what_was_typed(client, organizer):
    response = client.post("/events/new/", {"name": "Recruits Cup", "slug": "recruits", "kind": "tournament",
                                            "variants": ["army_recruiting"], "forfeit_award_opp": 1,
                                            "forfeits_to_disqualify": 2})
    page = response.content.decode()
    assert response.status_code == 200 and "at least 6" in page and 'value="Recruits Cup"' in page
    assert not Event.objects.exists()
    response = client.post("/events/new/", {"name": "Recruits Cup", "slug": "recruits", "kind": "tournament",
                                            "variants": ["army_recruiting"], "battalion_count": 8,
                                            "forfeit_award_opp": 1, "forfeits_to_disqualify": 2})
    assert response.status_code == 302 and response["Location"] == "/events/recruits/manage/"
    event = Event.objects.get(slug="recruits")
    assert event.variants == ["army_recruiting"] and trust.may_organize(organizer, event)


def test_an_organizer_registers_previews_and_forms_groups(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    for name in ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal", "Ivo"]:
        client.post("/events/quay/manage/", {"action": "register", "name": name})
    page = client.get("/events/quay/manage/").content.decode()
    assert "Ivo (registered last) is eliminated unless another general registers" in page
    client.post("/events/quay/manage/", {"action": "close_registration"})
    preview = client.post("/events/quay/manage/", {"action": "form_groups", "group_count": 2, "method": "random",
                                                    "seed": "", "preview": "1"}).content.decode()
    assert "Preview" in preview and not event.groups.exists()
    seed = int(preview.split('<span class="meta">seed ')[1].split("<")[0])
    client.post("/events/quay/manage/", {"action": "form_groups", "group_count": 2, "method": "random",
                                         "seed": seed, "confirm": "1"})
    event.refresh_from_db()
    assert event.state == Event.State.QUALIFYING and event.group_seed == seed
    assert event.groups.count() == 2


def test_an_impossible_group_count_is_refused_on_the_form(client, organizer):
    services.create_event(name="Tiny", slug="tiny", actor=organizer)
    for name in ["Ada", "Ben", "Cyd", "Dov"]:
        client.post("/events/tiny/manage/", {"action": "register", "name": name})
    response = client.post("/events/tiny/manage/", {"action": "form_groups", "group_count": 4, "method": "random",
                                                     "preview": "1"})
    assert "Select a valid choice" in response.content.decode()


def test_someone_else_cannot_open_the_organizer_page(client, organizer):
    services.create_event(name="Quay Open", slug="quay", actor=organizer)
    client.force_login(get_user_model().objects.create_user("sam", password="pw"))
    assert client.get("/events/quay/manage/").status_code == 403
    assert client.get("/events/quay/audit/").status_code == 403


@pytest.fixture
def started(organizer):
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer)
    User = get_user_model()
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        player = User.objects.create_user(name.lower())
        services.register(event, General.objects.create(name=name, user=player), actor=player)
    services.form_groups(event, 2, "random", seed=9)
    return event, event.battles.select_related("general_a", "general_b").first()


def test_a_player_reports_with_a_replay_upload_and_the_opponent_confirms(client, started,
                                                                         django_capture_on_commit_callbacks):
    event, battle = started
    a, b = battle.general_a, battle.general_b
    client.force_login(a.user)
    response = upload_shackle_on_the_page(client, battle, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Checked by the engine" in page and "Counts by itself in" in page and "Not decided yet" in page
    client.force_login(b.user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Waiting for you" in page
    report = Report.objects.get(battle=battle)
    client.post(f"/reports/{report.pk}/answer/", {"answer": "confirm"})
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Confirmed" in page and f"{a.name} wins by Shackle" in page
    standings = client.get(f"/events/{event.slug}/").content.decode()
    assert "W 5" in standings
    viewer = client.get(f"/battles/{battle.pk}/replay/").content.decode()
    document = json.loads(viewer.split('id="replay-data" type="application/json">')[1].split("</script>")[0])
    assert document["error"] is None and len(document["frames"]) == 13  # the formation and 12 turns


def test_a_broken_upload_is_shown_on_the_field_and_nothing_is_stored(client, started):
    event, battle = started
    client.force_login(battle.general_a.user)
    upload = SimpleUploadedFile("battle.json", b"{oops")
    response = client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": battle.general_a.pk,
                                                             "condition": "crush", "replay_file": upload})
    page = response.content.decode()
    assert response.status_code == 200 and "not valid JSON" in page
    assert 'value="crush" selected' in page  # what was typed is kept
    assert not Report.objects.exists()


def test_the_opponent_confirms_or_disputes_on_the_battle_page(client, started):
    event, battle = started
    a, b = battle.general_a, battle.general_b
    client.force_login(a.user)
    client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": a.pk, "condition": "blunt"})
    report = Report.objects.get()
    client.force_login(b.user)
    assert "Confirm this result" in client.get(f"/battles/{battle.pk}/").content.decode()
    empty = client.post(f"/reports/{report.pk}/answer/", {"answer": "dispute", "reason": ""})
    assert "This field is required" in empty.content.decode()
    client.post(f"/reports/{report.pk}/answer/", {"answer": "dispute", "reason": "He conceded, no blunt"})
    report.refresh_from_db()
    assert report.status == Report.Status.DISPUTED
    client.force_login(event.organizers.get())
    queue = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "He conceded, no blunt" in queue


def test_an_invalid_replay_is_highlighted_in_the_viewer(client, started, django_capture_on_commit_callbacks):
    event, battle = started
    a, b = battle.general_a, battle.general_b
    client.force_login(a.user)
    replay = replay_between("invalid-not-enough-ma", a, b)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": a.pk, "condition": "crush",
                                                      "replay_text": json.dumps(replay)})
    page = client.get(f"/battles/{battle.pk}/replay/").content.decode()
    assert "not a legal battle at turn 2, order 1, action 2" in page
    document = json.loads(page.split('id="replay-data" type="application/json">')[1].split("</script>")[0])
    assert [frame["turn"] for frame in document["frames"]] == [0, 1]
    assert document["error"]["code"] == "not_enough_ma"


def test_my_battles_lists_the_players_battles(client, started):
    event, battle = started
    client.force_login(battle.general_a.user)
    page = client.get("/my/battles/").content.decode()
    assert battle.general_b.name in page and "Report" in page


def test_replay_files_exist_for_the_page_tests():
    assert (REPLAYS / "victory-shackle.json").exists()
