"""A Swiss event through the API: pairing rounds (a bye in an odd field), results of a game without an
engine reported with their facts and confirmed by the opponent, a drop, the standings with their
tie-breakers, and a top cut of four played to its winner (single elimination: no draws)."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Battle, Event

from .conftest import as_user
from .test_games_api import assert_error, create_event, join, organizer_account, player

pytestmark = pytest.mark.django_db


def close(event, organizer):
    closed = as_user(organizer).post(f"/api/v1/events/{event.slug}/close-registration/", {}, format="json")
    assert closed.status_code == 200, closed.content
    assert closed.json()["eliminated"] is None  # Swiss: an odd field gets a bye, nobody is eliminated


def pair(event, organizer):
    paired = as_user(organizer).post(f"/api/v1/events/{event.slug}/swiss/pair/", {}, format="json")
    assert paired.status_code == 201, paired.content
    return paired.json()


def swiss(event, user=None):
    answer = as_user(user).get(f"/api/v1/events/{event.slug}/swiss/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def report_and_confirm(battle, generals, *, kind="victory", winner=None, facts=None):
    """The first general reports, the other confirms with their own account."""
    first, second = generals[battle["general_a"]["id"]], generals[battle["general_b"]["id"]]
    body = {"kind": kind, **({"winner": winner.pk} if winner else {}), **({"facts": facts} if facts else {})}
    reported = as_user(first.user).post(f"/api/v1/battles/{battle['id']}/reports/", body, format="json")
    assert reported.status_code == 201, reported.content
    assert reported.json()["status"] == "awaiting_opponent"
    confirmed = as_user(second.user).post(f"/api/v1/reports/{reported.json()['id']}/confirm/", {}, format="json")
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["status"] == "confirmed"
    return confirmed.json()


@pytest.fixture
def five_player_swiss():
    olga = organizer_account()
    event = create_event(olga, slug="storm-swiss", swiss_rounds=3)
    generals = [player(name) for name in ("Ada", "Ben", "Cyd", "Dov", "Eve")]
    join(event, *generals)
    close(event, olga)
    return event, olga, {general.pk: general for general in generals}


def test_five_players_play_swiss_rounds_with_a_bye_facts_confirmations_a_drop_and_tie_breakers(five_player_swiss):
    event, olga, generals = five_player_swiss
    assert_error(as_user(generals[min(generals)].user).post(f"/api/v1/events/{event.slug}/swiss/pair/", {},
                                                            format="json"), 403, "permission_denied")
    first = pair(event, olga)
    assert (first["stage"], first["number"]) == ("swiss", 1)
    assert len(first["battles"]) == 2 and first["bye"] is not None
    paired = {first["bye"]["id"]} | {b[side]["id"] for b in first["battles"] for side in ("general_a", "general_b")}
    assert paired == set(generals)  # everyone plays once or has the bye
    assert all(b["swiss_round"] == {"id": first["id"], "stage": "swiss", "number": 1} for b in first["battles"])

    win, draw = first["battles"]
    winner = generals[win["general_a"]["id"]]
    report_and_confirm(win, generals, winner=winner, facts={"status": "finished", "turns": 7})
    refused = as_user(olga).post(f"/api/v1/events/{event.slug}/swiss/pair/", {}, format="json")
    assert_error(refused, 409, "conflict", says="no counted result yet")
    bad_fact = as_user(generals[draw["general_a"]["id"]].user).post(
        f"/api/v1/battles/{draw['id']}/reports/", {"kind": "draw", "facts": {"points_destroyed": 5}}, format="json")
    assert_error(bad_fact, 400, "invalid", field="facts", says="points_destroyed")
    stalemate = as_user(generals[draw["general_a"]["id"]].user).post(
        f"/api/v1/battles/{draw['id']}/reports/", {"kind": "stalemate"}, format="json")
    assert_error(stalemate, 400, "invalid", field="kind", says="win, draw or forfeit")
    report_and_confirm(draw, generals, kind="draw", facts={"status": "unfinished"})

    counted = as_user().get(f"/api/v1/battles/{win['id']}/").json()
    assert counted["result"]["kind"] == "victory" and counted["result"]["winner"] == winner.pk
    assert counted["result"]["condition"] is None and counted["facts"] == {"status": "finished", "turns": 7}

    second = pair(event, olga)
    assert second["number"] == 2 and second["bye"]["id"] != first["bye"]["id"]  # at most one bye each
    met = {frozenset((b["general_a"]["id"], b["general_b"]["id"])) for b in first["battles"]}
    assert not met & {frozenset((b["general_a"]["id"], b["general_b"]["id"])) for b in second["battles"]}

    dropping = generals[second["bye"]["id"]]
    dropped = as_user(dropping.user).post(f"/api/v1/events/{event.slug}/swiss/drop/", {}, format="json")
    assert dropped.status_code == 200, dropped.content
    assert dropped.json() == {"general": {"id": dropping.pk, "name": dropping.name}, "dropped_after_round": 2}
    other = next(g for g in generals.values() if g.pk != dropping.pk)
    assert_error(as_user(other.user).post(f"/api/v1/events/{event.slug}/swiss/drop/", {"general": dropping.pk},
                                          format="json"), 403, "permission_denied")

    document = swiss(event)
    assert document["planned_rounds"] == 3 and [r["number"] for r in document["rounds"]] == [1, 2]
    assert "no counted result yet" in document["next_round_refusal"]
    standings = document["standings"]
    assert [t["key"] for t in standings["tie_breakers"]] == ["omw", "sos", "h2h"]
    assert all(t["label"] and t["explanation"] for t in standings["tie_breakers"])
    lines = {line["general"]["id"]: line for line in standings["lines"]}
    assert len(lines) == 5
    assert lines[winner.pk]["score"] == 3 and lines[winner.pk]["wins"] == 1
    assert lines[first["bye"]["id"]]["byes"] == 1 and lines[first["bye"]["id"]]["score"] == 3
    drawn = [draw["general_a"]["id"], draw["general_b"]["id"]]
    assert all(lines[g]["draws"] == 1 and lines[g]["score"] == 1 for g in drawn)
    assert lines[dropping.pk]["dropped"]
    for line in standings["lines"]:
        assert [(t["key"], t["label"]) for t in line["tie_breaks"]] == [(t["key"], t["label"])
                                                                        for t in standings["tie_breakers"]]
    loser = win["general_b"]["id"]
    assert lines[loser]["tie_breaks"][0]["value"] == pytest.approx(1.0)  # omw: their opponent won every game
    assert lines[winner.pk]["tie_breaks"][0]["value"] == pytest.approx(1 / 3)  # omw: at least one third
    # Three players on 3 points (a win, or a bye: the round-2 bye counts once paired) are ordered by omw.
    on_three = sorted((line for line in standings["lines"] if line["score"] == 3), key=lambda line: line["rank"])
    assert len(on_three) == 3 and [line["rank"] for line in on_three] == [1, 2, 3]
    omw = [line["tie_breaks"][0]["value"] for line in on_three]
    assert omw == sorted(omw, reverse=True) and len(set(omw)) == 3
    # The two who drew are equal on every figure (h2h included): they share the place.
    assert lines[drawn[0]]["rank"] == lines[drawn[1]]["rank"] == 4
    assert lines[drawn[0]]["shared"] and not on_three[0]["shared"]


def test_swiss_steps_on_a_groups_event_are_409(db):
    olga = organizer_account()
    created = as_user(olga).post("/api/v1/events/", {"name": "Harbour", "slug": "harbour"}, format="json")
    assert created.status_code == 201 and created.json()["format"] == "groups"
    assert_error(as_user().get("/api/v1/events/harbour/swiss/"), 409, "conflict", says="groups")
    assert_error(as_user(olga).post("/api/v1/events/harbour/swiss/pair/", {}, format="json"), 409, "conflict")


@pytest.fixture
def top_four():
    """A one-round Swiss event of four with a top cut of four; round 1 counted by the organizer."""
    olga = organizer_account()
    event = create_event(olga, slug="storm-top", swiss_rounds=1, top_cut=4)
    generals = [player(name) for name in ("Ada", "Ben", "Cyd", "Dov")]
    join(event, *generals)
    close(event, olga)
    first = pair(event, olga)
    for battle in first["battles"]:
        decided = as_user(olga).post(f"/api/v1/battles/{battle['id']}/result/",
                                     {"kind": "victory", "winner": battle["general_a"]["id"],
                                      "facts": {"status": "finished"}}, format="json")
        assert decided.status_code == 200, decided.content
        assert decided.json()["facts"] == {"status": "finished"}
    return event, olga, {general.pk: general for general in generals}


def test_a_top_cut_of_four_is_played_to_its_winner_and_refuses_a_draw(top_four):
    event, olga, generals = top_four
    assert Event.objects.get(pk=event.pk).victor is None  # the top cut decides, not the Swiss table
    ranked = [line["general"]["id"] for line in swiss(event)["standings"]["lines"]]
    cut = as_user(olga).post(f"/api/v1/events/{event.slug}/swiss/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    semis = cut.json()
    assert (semis["stage"], semis["number"], len(semis["battles"])) == ("top_cut", 1, 2)
    assert {frozenset((b["general_a"]["id"], b["general_b"]["id"])) for b in semis["battles"]} == {
        frozenset((ranked[0], ranked[3])), frozenset((ranked[1], ranked[2]))}  # 1 v 4, 2 v 3
    again = as_user(olga).post(f"/api/v1/events/{event.slug}/swiss/top-cut/", {}, format="json")
    assert_error(again, 409, "conflict", says="started already")

    semi = semis["battles"][0]
    draw = as_user(generals[semi["general_a"]["id"]].user).post(f"/api/v1/battles/{semi['id']}/reports/",
                                                                {"kind": "draw"}, format="json")
    assert_error(draw, 400, "invalid", field="kind", says="single elimination")
    organizer_draw = as_user(olga).post(f"/api/v1/battles/{semi['id']}/result/", {"kind": "draw"}, format="json")
    assert_error(organizer_draw, 400, "invalid", field="kind", says="needs a winner")

    finalists = []
    for battle in semis["battles"]:
        winner = generals[battle["general_b"]["id"]]
        report_and_confirm(battle, generals, winner=winner, facts={"status": "finished", "turns": 9})
        finalists.append(winner.pk)
    document = swiss(event)
    assert document["top_cut"]["size"] == 4
    final_round = document["top_cut"]["rounds"][-1]
    assert final_round["number"] == 2 and len(final_round["battles"]) == 1
    final = final_round["battles"][0]
    assert {final["general_a"]["id"], final["general_b"]["id"]} == set(finalists)
    champion = generals[final["general_a"]["id"]]
    report_and_confirm(final, generals, winner=champion)
    finished = swiss(event)
    assert finished["victor"] == {"id": champion.pk, "name": champion.name}
    assert as_user().get(f"/api/v1/events/{event.slug}/").json()["state"] == "complete"
    assert Battle.objects.filter(event=event, kind="draw").count() == 0


def test_a_stranger_cannot_drop_a_player_and_an_organizer_can(five_player_swiss):
    event, olga, generals = five_player_swiss
    pair(event, olga)
    stranger = get_user_model().objects.create_user("sam")
    some = next(iter(generals.values()))
    url = f"/api/v1/events/{event.slug}/swiss/drop/"
    assert_error(as_user(stranger).post(url, {"general": some.pk}, format="json"), 403, "permission_denied")
    assert as_user(olga).post(url, {"general": some.pk}, format="json").status_code == 200
    assert_error(as_user(olga).post(url, {"general": some.pk}, format="json"), 409, "conflict", says="already")


def test_facts_arrive_in_a_multipart_report_as_json_text_too(five_player_swiss):
    event, olga, generals = five_player_swiss
    battle = pair(event, olga)["battles"][0]
    reporter = generals[battle["general_a"]["id"]]
    reported = as_user(reporter.user).post(f"/api/v1/battles/{battle['id']}/reports/upload/", {
        "kind": "victory", "winner": reporter.pk, "facts": '{"status": "finished", "turns": 4}'}, format="multipart")
    assert reported.status_code == 201, reported.content
    assert reported.json()["facts"] == {"status": "finished", "turns": 4}
    garbled = as_user(generals[battle["general_b"]["id"]].user).post(
        f"/api/v1/battles/{battle['id']}/reports/upload/", {"kind": "victory", "facts": "{not json"},
        format="multipart")
    assert_error(garbled, 400, "invalid", field="facts")


def test_the_organizer_changes_the_number_of_rounds_but_never_below_those_paired():
    organizer = organizer_account()
    event = create_event(organizer, slug="round-count")
    generals = [player(name) for name in ("Ana", "Bo", "Cy", "Di", "Ed")]
    join(event, *generals)
    close(event, organizer)
    assert swiss(event)["planned_rounds"] == 3  # ceil(log2 5)
    pair(event, organizer)
    changed = as_user(organizer).post(f"/api/v1/events/{event.slug}/swiss/rounds/", {"rounds": 4}, format="json")
    assert changed.status_code == 200 and changed.json() == {"rounds": 4}
    assert swiss(event)["planned_rounds"] == 4
    assert_error(as_user(organizer).post(f"/api/v1/events/{event.slug}/swiss/rounds/", {"rounds": 0},
                                         format="json"), 400, "invalid", field="rounds")
    player_try = as_user(generals[0].user).post(f"/api/v1/events/{event.slug}/swiss/rounds/", {"rounds": 2},
                                                format="json")
    assert player_try.status_code == 403
    assert Event.objects.get(pk=event.pk).swiss_rounds == 4
