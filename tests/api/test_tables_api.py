"""Multiplayer tables through the API (Warlord CCG, tables of 3): the event created with its table size
and placement points, a round seated, the elimination order reported by one player and confirmed by
every other, a dispute decided by the organizer with a reason, the standings scored by place."""
import pytest

from tournaments.models import Table

from .conftest import as_user
from .test_games_api import assert_error, create_event, join, organizer_account, player
from .test_swiss_api import close, pair, swiss

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    organizer = organizer_account()
    event = create_event(organizer, slug="storm-tables", table_size=3, placement_points=[3, 1, 0], swiss_rounds=1)
    generals = {general.pk: general for general in (player(name) for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Fa"))}
    join(event, *generals.values())
    close(event, organizer)
    return organizer, event, generals, pair(event, organizer)


def test_the_event_and_its_round_show_the_tables(seated):
    organizer, event, generals, paired = seated
    body = as_user(organizer).get(f"/api/v1/events/{event.slug}/").json()
    assert (body["table_size"], body["placement_points"]) == (3, [3, 1, 0])
    assert paired["battles"] == [] and len(paired["tables"]) == 2
    assert sorted(seat["general"]["id"] for t in paired["tables"] for seat in t["seats"]) == sorted(generals)


def test_a_table_counts_once_every_player_confirms_and_standings_score_by_place(seated):
    organizer, event, generals, paired = seated
    table = paired["tables"][0]
    first, second, third = (generals[seat["general"]["id"]] for seat in table["seats"])
    order = {"eliminations": [third.pk, second.pk], "finished": True}
    reported = as_user(first.user).post(f"/api/v1/tables/{table['id']}/report/", order, format="json")
    assert reported.status_code == 201 and reported.json()["status"] == "awaiting", reported.content
    assert reported.json()["confirm_by"]  # it counts by itself after the window unless disputed (R75)
    report_id = reported.json()["id"]
    for general in (second, third):
        confirmed = as_user(general.user).post(f"/api/v1/tables/{table['id']}/reports/{report_id}/confirm/", {},
                                               format="json")
        assert confirmed.status_code == 200, confirmed.content
    counted = as_user(None).get(f"/api/v1/tables/{table['id']}/").json()
    assert counted["eliminations"] == [third.pk, second.pk] and counted["result"].startswith(f"{first.name} wins")
    scores = {line["general"]["id"]: line["score"] for line in swiss(event)["standings"]["lines"]}
    assert (scores[first.pk], scores[second.pk], scores[third.pk]) == (3, 1, 0)


def test_a_disputed_table_waits_for_the_organizer_who_gives_a_reason(seated):
    organizer, event, generals, paired = seated
    table = paired["tables"][1]
    first, second, third = (generals[seat["general"]["id"]] for seat in table["seats"])
    reported = as_user(first.user).post(f"/api/v1/tables/{table['id']}/report/",
                                        {"eliminations": [third.pk, second.pk]}, format="json").json()
    disputed = as_user(third.user).post(f"/api/v1/tables/{table['id']}/reports/{reported['id']}/dispute/",
                                        {"reason": "Bo went out first."}, format="json")
    assert disputed.json()["status"] == "disputed"
    outsider = next(g for g in generals.values() if g not in (first, second, third))
    assert_error(as_user(outsider.user).post(f"/api/v1/tables/{table['id']}/report/",
                                             {"eliminations": [third.pk, second.pk]}, format="json"),
                 403, "permission_denied")
    assert_error(as_user(organizer).post(f"/api/v1/tables/{table['id']}/decide/",
                                         {"eliminations": [second.pk, third.pk]}, format="json"),
                 400, "invalid", field="reason")
    decided = as_user(organizer).post(f"/api/v1/tables/{table['id']}/decide/",
                                      {"eliminations": [second.pk, third.pk], "reason": "The judge saw it."},
                                      format="json")
    assert decided.status_code == 200 and decided.json()["eliminations"] == [second.pk, third.pk]
    assert Table.objects.get(pk=table["id"]).finished is True
    reports = as_user(third.user).get(f"/api/v1/tables/{table['id']}/reports/").json()
    assert {r["status"] for r in reports} == {"decided"}
    assert as_user(outsider.user).get(f"/api/v1/tables/{table['id']}/reports/").json() == []
