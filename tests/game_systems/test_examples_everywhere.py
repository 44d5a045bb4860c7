"""Every worked example of both specs gives exactly its expected violations through the API's check
and through the lists page (an event with the spec's pool and options, a player submitting the list),
as it does through `check_list` (test_check_list_command.py)."""
import html
import json
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.game_systems.test_check_list_command import EXAMPLES, examples
from tournaments.events import services
from tournaments.lists import services as lists
from tournaments.models import General

pytestmark = pytest.mark.django_db


def as_multiset(violations):
    return Counter((v["code"], v["message"]) for v in violations)


@pytest.mark.parametrize(("game", "folder", "example"), list(examples()))
def test_the_api_check_gives_exactly_the_examples_violations(game, folder, example):
    body = {"list": {"game": game, **example["list"]}, "options": example["event"],
            "pool": (EXAMPLES / folder / "pool.csv").read_text(encoding="utf-8")}
    answer = APIClient().post(f"/api/v1/games/{game}/check/", body, format="json")
    assert answer.status_code == 200, answer.content
    assert as_multiset(answer.json()["violations"]) == as_multiset(example["expected"])
    assert answer.json()["valid"] is (not example["expected"])


@pytest.mark.parametrize(("game", "folder", "example"), list(examples()))
def test_the_lists_page_shows_exactly_the_examples_sentences(game, folder, example, client):
    organizer = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Example Cup", slug="example-cup", actor=organizer, game=game)
    lists.set_rules(event, user=organizer, options=example["event"])
    lists.set_pool(event, user=organizer, csv_text=(EXAMPLES / folder / "pool.csv").read_text(encoding="utf-8"))
    player = General.objects.create(name="Ada", user=get_user_model().objects.create_user("ada"))
    services.register(event, player, actor=player.user)
    client.force_login(player.user)
    sent = client.post(f"/events/{event.slug}/lists/", {
        "action": "submit", "list_json": json.dumps({"game": game, **example["list"]}, ensure_ascii=False)})
    assert sent.status_code == 302, sent.content.decode()[:2000]
    page = html.unescape(client.get(f"/events/{event.slug}/lists/").content.decode())
    version = event.registrations.get(general=player).list_versions.get()
    assert as_multiset(version.violations) == as_multiset(example["expected"])
    for violation in example["expected"]:
        assert violation["message"] in page and violation["code"] in page
    if not example["expected"]:
        assert "Your list follows every construction rule." in page
