"""The event archive carries every game: a Swiss event of Warlord CCG with its card pool, every version of
every deck (violations and the organizer's acceptance included), its rounds, byes, drops, top cut and
result facts comes back from its archive as it was, and exports again the same; an archive written
before the games imports as the WARLINE event in groups it was."""
import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.tournaments import test_archive_round_trip as generic
from tests.tournaments.helpers import make_tournament, open_battles, victory
from tests.tournaments.test_exports_and_archive import without_identity
from tournaments.demo import DEMO_CCG_SLUG, load_demo
from tournaments.eventday import archive
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.lists import services as lists
from tournaments.models import (
    Battle,
    Event,
    General,
    ListVersion,
    Registration,
    SwissRound,
    Table,
    TableReport,
)
from tournaments.results import recording
from tournaments.swiss import rounds as swiss
from tournaments.swiss import standings
from tournaments.swiss import tables as multiplayer

pytestmark = pytest.mark.django_db

# What the games added to the archive: none of it is in an archive written before them.
GAME_EVENT_KEYS = ("game", "format", "swiss_rounds", "top_cut", "scoring", "tie_breakers", "list_deadline",
                   "list_visibility", "lists_public_from", "list_options", "list_pool")


@pytest.fixture
def ccg():
    """The demo's Warlord CCG Open: six decks (Farah's accepted despite two violations), two Swiss rounds
    counted (a draw with its facts among them), the third to pair."""
    load_demo()
    return Event.objects.get(slug=DEMO_CCG_SLUG)


@pytest.fixture(scope="module")
def ccg_document(django_db_setup, django_db_blocker):
    """The demo Warlord CCG Open's archive, built once for the refusals below and rolled back: each test
    imports it into a site without the event."""
    with django_db_blocker.unblock(), transaction.atomic():
        load_demo()
        document = archive.build_archive(Event.objects.get(slug=DEMO_CCG_SLUG))
        transaction.set_rollback(True)
    return document


def organizer():
    return get_user_model().objects.get(username="organizer")


def play_round(event, *, draw_on_table=None):
    """Pairs the next round and counts every battle: table `draw_on_table` a draw, the others won by A."""
    paired = swiss.pair_next_round(event, actor=organizer())
    for battle in paired.battles.order_by("number"):
        if battle.number == draw_on_table:
            recording.record_result(battle, kind="draw", facts={"status": "unfinished", "turns": 5})
        else:
            recording.record_result(battle, kind="victory", winner=battle.general_a,
                                    facts={"status": "finished", "turns": 9})
    event.refresh_from_db()
    return paired


def round_trip(event, slug):
    first = archive.build_archive(event)
    # Through JSON text, as a file carries it.
    imported = archive.import_archive(json.loads(json.dumps(first)), slug=slug, match_accounts=True)
    return first, imported, archive.build_archive(imported)


def table_lines(event):
    """The Swiss standings as a player reads them: place, name, score, record, tie-breaker figures, drop."""
    table = standings.table(event)
    return ([(line.rank, line.general.name, line.score, line.wins, line.draws, line.losses, line.byes,
              line.tie_breaks, line.dropped) for line in table.lines], table.tie_breakers)


# --- the round trip ----------------------------------------------------------------------------------------

def test_the_demo_swiss_event_imports_under_a_new_slug_and_exports_again_the_same(ccg):
    first, imported, second = round_trip(ccg, "ccg-copy")
    assert without_identity(second) == without_identity(first)
    assert imported.slug == "ccg-copy" and imported.game == "warlord-ccg-4e" and imported.is_swiss
    assert (imported.top_cut, imported.swiss_rounds) == (4, 3)
    assert imported.list_pool == ccg.list_pool and imported.list_pool  # the card pool exactly as uploaded
    # What the archive holds of the games, so that equality above means something.
    assert [r["ref"] for r in first["paired_rounds"]] == ["swiss-1", "swiss-2"]
    assert {b["swiss_round"] for b in first["battles"]} == {"swiss-1", "swiss-2"}
    assert {"status": "unfinished", "turns": 7} in [b["facts"] for b in first["battles"]]
    assert sum(len(r["list_versions"]) for r in first["registrations"]) == 6


def test_every_field_of_every_row_of_the_swiss_event_comes_back(ccg, monkeypatch):
    """The generic comparison of test_archive_round_trip (every concrete field of every row the event
    holds), with the Swiss rounds and list versions named by their natural identity, and the event by
    none: the copy lives beside the original under another slug."""
    monkeypatch.setitem(generic.IDENTITY, Event, lambda event: ("the event",))
    monkeypatch.setitem(generic.IDENTITY, SwissRound,
                        lambda r: (generic.identity(r.event), "round", r.stage, r.number))
    monkeypatch.setitem(generic.IDENTITY, ListVersion,
                        lambda v: (generic.identity(v.registration), "list version", v.version))
    before = generic.snapshot(ccg)
    _, imported, _ = round_trip(ccg, "ccg-copy")
    after = generic.snapshot(imported)
    for rows in (before, after):
        rows["Event", ("the event",)].pop("slug")
    assert generic.differences(before, after) == []
    held = [name for name, _ in before]
    assert (held.count("SwissRound"), held.count("ListVersion"), held.count("Battle")) == (2, 6, 6)


def test_the_imported_events_swiss_standings_are_the_originals(ccg):
    _, imported, _ = round_trip(ccg, "ccg-copy")
    lines, tie_breakers = table_lines(imported)
    assert (lines, tie_breakers) == table_lines(ccg)
    assert [key for key, _label, _why in tie_breakers] == ["omw", "sos", "h2h"]  # the game's default order
    assert [line[2] for line in lines][:1] == [6.0]  # two wins lead: 3 points each


def test_every_list_version_comes_back_with_its_violations_and_acceptance(ccg):
    farah = ccg.registrations.order_by("number")[5]
    lists.submit(ccg, farah.general, user=organizer(), text=farah.list_versions.get().text)  # a second version
    lists.withdraw(ccg, ccg.registrations.order_by("number")[0].general, user=organizer())
    _, imported, _ = round_trip(ccg, "ccg-copy")

    def versions(event):
        return sorted((v.registration.general.name, v.version, v.status, v.text, json.dumps(v.content),
                       [x["code"] for x in v.violations], v.submitted_by.username, v.submitted_at,
                       v.accepted_by.username if v.accepted_by else None, v.accepted_reason, v.accepted_at)
                      for v in ListVersion.objects.filter(registration__event=event))

    assert versions(imported) == versions(ccg)
    accepted = ListVersion.objects.get(registration__event=imported, accepted_at__isnull=False)
    assert accepted.status == "accepted" and len(accepted.violations) == 2
    assert accepted.accepted_by.username == "organizer" and "league night" in accepted.accepted_reason
    assert lists.current(imported.registrations.order_by("number")[0]).status == "withdrawn"


def test_a_drop_a_bye_and_the_top_cut_come_back(ccg):
    dropped = ccg.registrations.order_by("number")[2].general
    swiss.drop(ccg, dropped, actor=organizer())
    third = play_round(ccg)  # five players left: one has the bye
    swiss.start_top_cut(ccg, actor=organizer())
    ccg.refresh_from_db()
    assert third.bye is not None

    first, imported, second = round_trip(ccg, "ccg-copy")
    assert without_identity(second) == without_identity(first)
    assert imported.registrations.get(general__name=dropped.name).dropped_after_round == 2
    assert SwissRound.objects.get(event=imported, stage="swiss", number=3).bye.name == third.bye.name
    cut = SwissRound.objects.get(event=imported, stage="top_cut")
    assert cut.battles.count() == 2 and imported.state == Event.State.FINAL
    assert table_lines(imported) == table_lines(ccg)
    assert next(line for line in table_lines(imported)[0] if line[1] == dropped.name)[-1] is True


def test_paired_times_and_the_rounds_rematches_are_kept(ccg):
    SwissRound.objects.filter(event=ccg, number=2).update(rematches=1)
    _, imported, _ = round_trip(ccg, "ccg-copy")
    assert ([(r.stage, r.number, r.rematches, r.paired_at) for r in SwissRound.objects.filter(event=imported)]
            == [(r.stage, r.number, r.rematches, r.paired_at) for r in SwissRound.objects.filter(event=ccg)])


def test_a_round_of_multiplayer_tables_comes_back_with_its_seats_eliminations_and_reports():
    """Warlord CCG at tables of four: one table decided by the organizer, the other reported by a player
    and waiting for the others' confirmation."""
    olga = grant_organizer_role(get_user_model().objects.create_user("olga"))
    reporter = get_user_model().objects.create_user("emil")
    event, _ = make_tournament(8, slug="keep-fours", organizer=olga, game="warlord-ccg-4e", table_size=4,
                               placement_points=[5, 3, 1, 0], swiss_rounds=2)
    services.close_registration(event, actor=olga)
    swiss.pair_next_round(event, actor=olga)
    first, second = Table.objects.filter(event=event).order_by("number")
    seated = multiplayer.seated_ids(first)
    multiplayer.decide_table(first, user=olga, eliminations=seated[:0:-1], finished=True)  # seat 1 wins
    waiting = multiplayer.seated_ids(second)
    TableReport.objects.create(table=second, reported_by=reporter, eliminations=waiting[:2], finished=False,
                               confirmed_by=waiting[:1])
    event.refresh_from_db()

    first_archive, imported, second_archive = round_trip(event, "keep-fours-copy")
    assert without_identity(second_archive) == without_identity(first_archive)
    assert table_lines(imported) == table_lines(event)
    assert (imported.table_size, imported.placement_points) == (4, [5, 3, 1, 0])

    def tables(of):
        names = dict(General.objects.values_list("pk", "name"))
        return [(t.number, [names[g] for g in multiplayer.seated_ids(t)], [names[g] for g in t.eliminations],
                 t.finished, t.decided_at,
                 [(r.reported_by.username, [names[g] for g in r.eliminations], r.finished,
                   [names[g] for g in r.confirmed_by], r.status, r.created_at) for r in t.reports.all()])
                for t in Table.objects.filter(event=of).order_by("number")]

    assert tables(imported) == tables(event)
    assert tables(event)[0][2] and tables(event)[1][5][0][0] == "emil"  # an order and a report to carry
    document = copy.deepcopy(first_archive)
    document["paired_rounds"][0]["tables"][1]["reports"][0]["confirmed_by"] = [
        document["paired_rounds"][0]["tables"][0]["seats"][0]["general"]]
    with pytest.raises(archive.ArchiveError, match="table 2, report 1's confirmed_by names a general not seated"):
        archive.import_archive(document, slug="keep-fours-bad", match_accounts=True)


# --- older archives and the web import --------------------------------------------------------------------------

def test_an_archive_written_before_the_games_imports_as_a_warline_event_in_groups():
    olga = grant_organizer_role(get_user_model().objects.create_user("olga"))
    event, _ = make_tournament(4, slug="quay-open", organizer=olga)
    services.form_groups(event, 2, "random", seed=7, actor=olga)
    first = open_battles(event.groups.get(index=0))[0]
    victory(first, first.general_a, condition="crush")
    document = archive.build_archive(event)
    for key in GAME_EVENT_KEYS:
        document["event"].pop(key)
    for registration in document["registrations"]:
        registration.pop("list_versions"), registration.pop("dropped_after_round")
    for battle in document["battles"]:
        battle.pop("swiss_round"), battle.pop("facts")
        for report in battle["reports"]:
            report.pop("facts")
    document.pop("paired_rounds")
    imported = archive.import_archive(document, slug="quay-old", organizers=[olga])
    assert (imported.game, imported.format, imported.top_cut) == ("warline", "groups", 0)
    assert imported.battles.exclude(kind="").get().outcome_text().endswith("wins by Crush")
    assert document["version"] == 2  # the games extended version 2 with optional keys


def test_the_web_import_keeps_the_lists_but_names_nobody_who_submitted_or_accepted_them(ccg):
    ida = grant_organizer_role(get_user_model().objects.create_user("ida"))
    imported = archive.import_archive(archive.build_archive(ccg), slug="ccg-web", organizers=[ida])
    versions = ListVersion.objects.filter(registration__event=imported)
    assert versions.count() == 6 and not versions.exclude(submitted_by=None).exists()
    accepted = versions.get(accepted_at__isnull=False)
    assert accepted.accepted_by is None and accepted.status == "accepted"  # the acceptance stands (R97)
    assert any("farah" in warning and "is left empty" in warning for warning in imported.archive_warnings)


# --- archives that contradict their game are refused, nothing written ---------------------------------------------

def _first_battle(document):
    return document["battles"][0]


BAD_ARCHIVES = {
    "unknown game": (lambda d: d["event"].update(game="chess"), "The event is not valid: game"),
    "a format the game does not play": (lambda d: d["event"].update(format="groups"),
                                        "Warlord CCG events are played in Swiss rounds"),
    "a tie-breaker the game lacks": (lambda d: d["event"].update(tie_breakers=["points_destroyed"]),
                                     "Warlord CCG tie-breakers: choose from sos, omw, h2h"),
    "rated outside WARLINE": (lambda d: d["event"].update(rated=True), "Ratings \\(R98\\) count WARLINE"),
    "a top cut of 5": (lambda d: d["event"].update(top_cut=5), "top cut is of 4, 8 or 16"),
    "options the game does not read": (lambda d: d["event"].update(list_options={"jetpacks": 1}),
                                       "The event's list rules are not valid"),
    "a battle in a round the archive lacks": (lambda d: _first_battle(d).update(swiss_round="swiss-9"),
                                              "Battle 1 names Swiss round 'swiss-9'"),
    "a WARLINE result in Warlord CCG": (lambda d: _first_battle(d).update(kind="stalemate"),
                                        "Battle 1's result 'stalemate' is not one of Warlord CCG's"),
    "a fact of another game": (lambda d: _first_battle(d).update(facts={"points_destroyed": {"a": 5}}),
                               "Battle 1's facts are not valid: points_destroyed"),
    "a fact out of its words": (lambda d: _first_battle(d).update(facts={"status": "exploded"}),
                                "How the game ended: choose one of finished, unfinished"),
    "facts that are no object": (lambda d: _first_battle(d).update(facts=["finished"]),
                                 "Battle 1's facts must be an object"),
    "a round twice": (lambda d: d["paired_rounds"].append(dict(d["paired_rounds"][0])),
                      "Paired round 3's reference must be a text of its own"),
    "a bye of nobody known": (lambda d: d["paired_rounds"][0].update(bye="g99"),
                              "Paired round 1 names general 'g99'"),
    "a round of no stage": (lambda d: d["paired_rounds"][0].update(stage="semifinal"),
                            "Paired round 1 is not valid: stage"),
    "violations without codes": (lambda d: d["registrations"][5]["list_versions"][0].update(violations=["bad"]),
                                 "Registration 6, list version 1's violations must be a list"),
    "a list version twice": (lambda d: d["registrations"][0]["list_versions"].append(
        dict(d["registrations"][0]["list_versions"][0])), "contradicts itself"),
    "lists not a list": (lambda d: d["registrations"][0].update(list_versions={}),
                         "Registration 1's 'list_versions' must be a list"),
}


def test_the_unchanged_archive_imports_where_the_event_is_not(ccg_document):
    """The refusals below are each the one change they make."""
    imported = archive.import_archive(copy.deepcopy(ccg_document), slug="ccg-copy", match_accounts=True)
    assert imported.battles.count() == 6 and ListVersion.objects.filter(registration__event=imported).count() == 6


@pytest.mark.parametrize("name", BAD_ARCHIVES)
def test_an_archive_contradicting_its_game_is_refused_and_writes_nothing(ccg_document, name):
    change, message = BAD_ARCHIVES[name]
    document = copy.deepcopy(ccg_document)
    change(document)
    counts = (Event.objects.count(), General.objects.count(), Battle.objects.count(), SwissRound.objects.count(),
              ListVersion.objects.count(), Registration.objects.count())
    with pytest.raises(archive.ArchiveError, match=message):
        archive.import_archive(document, slug="ccg-copy", match_accounts=True)
    assert (Event.objects.count(), General.objects.count(), Battle.objects.count(), SwissRound.objects.count(),
            ListVersion.objects.count(), Registration.objects.count()) == counts


def test_a_warline_event_in_groups_refuses_swiss_rounds_and_lists():
    event, _ = make_tournament(4, slug="quay-open")
    document = archive.build_archive(event)
    rounds = copy.deepcopy(document)
    rounds["paired_rounds"] = [{"ref": "swiss-1", "stage": "swiss", "number": 1, "rematches": 0,
                                "paired_at": "2026-05-01T10:00:00+00:00", "bye": None}]
    with pytest.raises(archive.ArchiveError, match="yet its event is played in groups"):
        archive.import_archive(rounds, slug="quay-rounds")
    decks = copy.deepcopy(document)
    decks["registrations"][0]["list_versions"] = [{
        "version": 1, "submitted_at": "2026-05-01T10:00:00+00:00", "text": "{}", "content": {}, "violations": [],
        "accepted_reason": "", "accepted_at": None, "submitted_by": None, "accepted_by": None}]
    with pytest.raises(archive.ArchiveError, match="WARLINE: Tactical Fantasy Battles has no deck or army lists"):
        archive.import_archive(decks, slug="quay-decks")
    pool = copy.deepcopy(document)
    pool["event"]["list_pool"] = "name,copies\nSword,1\n"
    with pytest.raises(archive.ArchiveError, match="has no deck or army lists"):
        archive.import_archive(pool, slug="quay-pool")
    assert not Event.objects.filter(slug__in=["quay-rounds", "quay-decks", "quay-pool"]).exists()
