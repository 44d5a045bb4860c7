"""The CSV/JSON exports of a Swiss event of any game: standings with a column per tie-breaker of the event,
the battles with stage, round, table, points and raw facts, the byes, and the organizers' lists export that
shows each list only to who may see it (tournaments.lists.services.may_see_list). Events in groups export
exactly as before."""
import csv
import datetime as dt
import io
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tournaments.demo import DEMO_CCG_SLUG, DEMO_REAPER_SLUG, load_demo
from tournaments.eventday import exports
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General, Table
from tournaments.results import recording
from tournaments.swiss import rounds as swiss
from tournaments.swiss import standings
from tournaments.swiss import tables as multiplayer

pytestmark = pytest.mark.django_db


@pytest.fixture
def ccg():
    """The demo's Warlord CCG Open: two Swiss rounds counted (round 2, table 3 a draw: unfinished after 7
    turns), six decks, Farah's accepted despite two violations; closed lists."""
    load_demo()
    return Event.objects.get(slug=DEMO_CCG_SLUG)


def user(name):
    return get_user_model().objects.get(username=name)


def csv_dicts(table):
    rows = list(csv.reader(io.StringIO(exports.to_csv(table))))
    return rows[0], [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


# --- standings ---------------------------------------------------------------------------------------------

def test_swiss_standings_have_a_column_per_tie_breaker_of_the_event_in_its_order(ccg):
    header, rows = csv_dicts(exports.standings_table(ccg))
    assert header[:8] == ["Place", "Place shared", "Player", "Score", "Wins", "Draws", "Losses", "Byes"]
    # Warlord CCG's default order (omw, sos, h2h), named as the game names them.
    assert header[8:11] == ["Opponents' win rate", "Strength of schedule", "Head to head"]
    assert "Organized Play Points" not in header  # WARLINE's OPP mean nothing here
    table = standings.table(ccg)
    assert [row["Player"] for row in rows] == [line.general.name for line in table.lines]
    for row, line in zip(rows, table.lines, strict=True):
        assert float(row["Score"]) == line.score
        assert [float(row[label]) for _key, label, _why in table.tie_breakers] == [f for _k, f in line.tie_breaks]
    assert sorted(float(row["Score"]) for row in rows) == [0, 1, 1, 3, 6, 6]  # a draw in round 2 between losers


def test_the_standings_columns_follow_the_organizers_tie_breakers(ccg):
    Event.objects.filter(pk=ccg.pk).update(tie_breakers=["h2h", "sos"])
    ccg.refresh_from_db()
    document = exports.standings_table(ccg).as_json(ccg)
    keys = [column["key"] for column in document["columns"]]
    assert keys[8:10] == ["h2h", "sos"] and "omw" not in keys
    assert all(set(row) >= {"h2h", "sos"} for row in document["rows"])


# --- battles, byes and the top cut ----------------------------------------------------------------------------

def test_swiss_results_have_round_table_stage_points_and_the_games_facts(ccg):
    header, rows = csv_dicts(exports.results_table(ccg))
    assert header == ["Stage", "Round", "Table", "Player A", "Player B", "Result", "Winner", "Forfeited by",
                      "Points A", "Points B", "How the game ended", "Turns played", "Outcome",
                      f"Decided at ({ccg.time_zone})"]
    assert [(row["Stage"], row["Round"], row["Table"]) for row in rows] == [
        ("Swiss round", str(r), str(t)) for r in (1, 2) for t in (1, 2, 3)]
    draw = rows[5]
    assert (draw["Result"], draw["Points A"], draw["Points B"]) == ("Draw", "1.0", "1.0")
    assert (draw["How the game ended"], draw["Turns played"], draw["Winner"]) == ("unfinished", "7", "")
    win = rows[0]
    assert (win["Result"], win["Winner"], win["Points A"], win["Points B"]) == ("Win", win["Player A"], "3.0", "0.0")
    assert win["How the game ended"] == "finished" and win["Turns played"] == ""
    decided = dt.datetime.fromisoformat(win[f"Decided at ({ccg.time_zone})"])  # ISO 8601 with the offset
    assert decided.utcoffset() == decided.astimezone(ZoneInfo(ccg.time_zone)).utcoffset()


def test_a_bye_is_in_the_schedule_and_the_results_and_the_top_cut_scores_no_points(ccg):
    organizer = user("organizer")
    swiss.drop(ccg, ccg.registrations.order_by("number")[0].general, actor=organizer)
    third = swiss.pair_next_round(ccg, actor=organizer)
    for battle in third.battles.all():
        recording.record_result(battle, kind="victory", winner=battle.general_b, facts={"status": "finished"})
    swiss.start_top_cut(ccg, actor=organizer)
    ccg.refresh_from_db()

    schedule = exports.schedule_table(ccg).rows
    bye = next(row for row in schedule if row["state"] == "bye")
    assert (bye["round"], bye["table"], bye["general_a"], bye["general_b"]) == (3, None, third.bye.name, None)
    assert schedule.index(bye) == 8  # after round 3's two tables, before the top cut
    assert [row["stage"] for row in schedule[9:]] == ["Top cut", "Top cut"]
    assert [row["table"] for row in schedule[9:]] == [1, 2]

    results = exports.results_table(ccg).rows
    bye_result = next(row for row in results if row["result"] == "Bye")
    assert (bye_result["general_a"], bye_result["points_a"]) == (third.bye.name, 3.0)
    cut = [row for row in exports.schedule_table(ccg).rows if row["stage"] == "Top cut"]
    first_cut = ccg.battles.get(swiss_round__stage="top_cut", number=1)
    recording.record_result(first_cut, kind="victory", winner=first_cut.general_a)
    cut_result = next(row for row in exports.results_table(ccg).rows if row["stage"] == "Top cut")
    assert (cut_result["points_a"], cut_result["points_b"], cut_result["winner"]) == (None, None, cut[0]["general_a"])
    dropped = next(row for row in exports.registrations_table(ccg).rows if row["dropped_after_round"] is not None)
    assert dropped["dropped_after_round"] == 2
    assert next(r for r in exports.standings_table(ccg).rows if r["general"] == dropped["general"])["dropped"]


def test_a_fact_per_side_has_a_column_for_each_player(db):
    load_demo()
    reaper = Event.objects.get(slug=DEMO_REAPER_SLUG)
    organizer = user("organizer")
    services.close_registration(reaper, actor=organizer)
    battle = swiss.pair_next_round(reaper, actor=organizer).battles.get()
    recording.record_result(battle, kind="victory", winner=battle.general_a,
                            facts={"end_reason": "side_dead", "points_destroyed": {"a": 450, "b": 120}})
    header, rows = csv_dicts(exports.results_table(reaper))
    destroyed = [label for label in header if label.startswith("Points value")]
    assert destroyed == ["Points value of enemy models destroyed (A)", "Points value of enemy models destroyed (B)"]
    assert [rows[0][label] for label in destroyed] == ["450", "120"]
    assert rows[0]["Why the game ended"] == "side_dead"
    assert rows[0]["Enemy troops eliminated (A)"] == ""
    standing = exports.standings_table(reaper).as_json(reaper)
    assert [c["label"] for c in standing["columns"]][8:12] == ["Strength of schedule", "Points destroyed",
                                                               "Opponents' win rate", "Head to head"]
    assert next(r for r in standing["rows"] if r["general"] == battle.general_a.name)["points_destroyed"] == 450


def test_multiplayer_tables_export_their_players_winner_and_elimination_order(db):
    olga = grant_organizer_role(get_user_model().objects.create_user("olga"))
    event, _ = make_tournament(8, slug="keep-fours", organizer=olga, game="warlord-ccg-4e", table_size=4,
                               swiss_rounds=1, top_cut=4)
    services.close_registration(event, actor=olga)
    swiss.pair_next_round(event, actor=olga)
    first, second = Table.objects.filter(event=event).order_by("number")
    names = dict(General.objects.values_list("pk", "name"))
    seated, other = multiplayer.seated_ids(first), multiplayer.seated_ids(second)
    multiplayer.decide_table(first, user=olga, eliminations=seated[:0:-1], finished=True)  # seat 1 wins

    header, schedule = csv_dicts(exports.schedule_table(event))
    assert header == ["Stage", "Round", "Table", "Players in seat order", "State"]
    assert [(row["Table"], row["State"]) for row in schedule] == [("1", "decided"), ("2", "to play")]
    assert schedule[1]["Players in seat order"] == ", ".join(names[g] for g in other)

    multiplayer.decide_table(second, user=olga, eliminations=other[-1:], finished=False)  # time ran out
    rows = exports.results_table(event).rows
    assert (rows[0]["winner"], rows[0]["finished"], rows[0]["still_in"]) == (names[seated[0]], True, None)
    assert rows[0]["eliminated"] == ", ".join(names[g] for g in seated[:0:-1])
    assert (rows[1]["winner"], rows[1]["finished"]) == (None, False)
    assert rows[1]["still_in"] == ", ".join(names[g] for g in other[:-1])

    swiss.start_top_cut(event, actor=olga)  # the top cut is played in two-player battles
    final_four = event.battles.get(number=1)
    recording.record_result(final_four, kind="victory", winner=final_four.general_b)
    schedule = exports.schedule_table(event).rows
    assert [(row["stage"], row["table"]) for row in schedule[2:]] == [("Top cut", 1), ("Top cut", 2)]
    cut = exports.results_table(event).rows[2:]
    assert [(row["winner"], row["eliminated"]) for row in cut] == [(final_four.general_b.name,
                                                                     final_four.general_a.name)]


# --- the lists export ---------------------------------------------------------------------------------------------

def test_the_organizers_lists_export_has_every_players_status_version_time_and_violation_codes(ccg):
    header, rows = csv_dicts(exports.lists_table(ccg, user("organizer")))
    assert header[:5] == ["Player", "Status", "Version", f"Submitted at ({ccg.time_zone})", "Violations"]
    assert len(rows) == 6 and [row["Version"] for row in rows] == ["1"] * 6
    farah = rows[5]
    assert farah["Player"] == "Farah Fadel" and farah["Status"] == "accepted"
    codes = farah["Violations"].split(", ")
    assert len(codes) == 2 and all(codes)
    assert "league night" in farah["Accepted because"]
    assert {row["Status"] for row in rows[:5]} == {"valid"} and not any(row["Violations"] for row in rows[:5])
    assert dt.datetime.fromisoformat(farah[f"Submitted at ({ccg.time_zone})"]).tzinfo is not None


def test_closed_lists_are_the_organizers_and_each_players_own(ccg, client):
    assert client.get(f"/events/{DEMO_CCG_SLUG}/export/lists.csv").status_code == 403
    assert "lists.csv" not in client.get(f"/events/{DEMO_CCG_SLUG}/export/").content.decode()

    client.force_login(user("bruno"))  # a player sees their own list only
    document = client.get(f"/events/{DEMO_CCG_SLUG}/export/lists.json").json()
    assert [row["general"] for row in document["rows"]] == ["Bruno Brandt"]

    client.force_login(user("organizer"))
    response = client.get(f"/events/{DEMO_CCG_SLUG}/export/lists.csv")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert response.content.decode().count("\r\n") == 7  # the header and six players
    assert "lists.csv" in client.get(f"/events/{DEMO_CCG_SLUG}/export/").content.decode()


def test_open_lists_are_everyones_once_public(db, client):
    load_demo()
    reaper = Event.objects.get(slug=DEMO_REAPER_SLUG)
    url = f"/events/{DEMO_REAPER_SLUG}/export/lists.json"
    assert client.get(url).status_code == 403  # open lists, but not public before they lock
    Event.objects.filter(pk=reaper.pk).update(lists_public_from=timezone.now() - dt.timedelta(minutes=1))
    document = client.get(url).json()
    assert [row["status"] for row in document["rows"]] == ["valid", "valid"]
    assert all(row["summary"] for row in document["rows"])


# --- events in groups export as before ------------------------------------------------------------------------

BEFORE = {
    "registrations": ["number", "general", "seed", "status", "status_reason", "disqualified", "disqualification",
                      "disqualification_details"],
    "schedule": ["stage", "where", "round", "battle", "table", "general_a", "general_b", "state"],
    "results": ["stage", "where", "round", "battle", "general_a", "general_b", "result", "condition", "winner",
                "forfeited_by", "disqualified", "opp_a", "opp_b", "player_1", "respect_shown", "outcome",
                "decided_at"],
}


def test_a_warline_event_in_groups_exports_as_before_and_has_no_lists(client):
    event, _ = make_tournament(4, slug="quay-open")
    services.form_groups(event, 2, "random", seed=7)
    first = open_battles(event.groups.get(index=0))[0]
    victory(first, first.general_a, condition="crush")
    for what, keys in BEFORE.items():
        table = exports.BUILDERS[what](event)
        assert [key for key, _ in table.columns] == keys
        assert all(list(row) == keys for row in table.rows)
    assert exports.standings_table(event).columns == exports.STANDINGS_COLUMNS
    assert exports.offered(event, None) == exports.EXPORTS
    assert client.get("/events/quay-open/export/lists.csv").status_code == 404


# --- times in the event's zone --------------------------------------------------------------------------------

def test_csv_times_are_in_the_events_zone_with_the_zone_named_and_json_keeps_utc(ccg):
    """Every page shows an event's times in its zone; the CSV does too, naming it. The JSON stays in UTC."""
    Event.objects.filter(pk=ccg.pk).update(time_zone="Europe/Berlin")
    ccg.refresh_from_db()
    battle = ccg.battles.exclude(kind="").order_by("swiss_round__number", "number").first()
    battle.decided_at = dt.datetime(2026, 11, 26, 9, 0, tzinfo=dt.UTC)  # 10:00 in Berlin (CET)
    battle.save(update_fields=["decided_at"])
    summer = ccg.battles.exclude(kind="").exclude(pk=battle.pk).order_by("swiss_round__number", "number").first()
    summer.decided_at = dt.datetime(2026, 7, 1, 8, 30, tzinfo=dt.UTC)  # 10:30 in Berlin (CEST)
    summer.save(update_fields=["decided_at"])

    header, rows = csv_dicts(exports.results_table(ccg))
    assert header[-1] == "Decided at (Europe/Berlin)" and "Decided at" not in header
    by_table = {(row["Round"], row["Table"]): row["Decided at (Europe/Berlin)"] for row in rows}
    assert by_table[(str(battle.round), str(battle.number))] == "2026-11-26T10:00:00+01:00"
    assert by_table[(str(summer.round), str(summer.number))] == "2026-07-01T10:30:00+02:00"

    document = exports.results_table(ccg).as_json(ccg)
    assert document["event"]["time_zone"] == "Europe/Berlin"
    assert {"key": "decided_at", "label": "Decided at"} in document["columns"]
    assert "2026-11-26T09:00:00+00:00" in [row["decided_at"] for row in document["rows"]]


def test_the_csv_download_names_the_zone_of_the_event(ccg, client):
    Event.objects.filter(pk=ccg.pk).update(time_zone="America/New_York")
    response = client.get(f"/events/{DEMO_CCG_SLUG}/export/results.csv")
    header = next(csv.reader(io.StringIO(response.content.decode())))
    assert header[-1] == "Decided at (America/New_York)"
    first = next(csv.DictReader(io.StringIO(response.content.decode())))
    assert first["Decided at (America/New_York)"].endswith(("-05:00", "-04:00"))
