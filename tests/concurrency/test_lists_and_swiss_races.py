"""Races of the Swiss steps and of deck lists, as the API's threads run them: real threads, each with its
own database connection, released together (tests/concurrency/test_races.py), on PostgreSQL. The event's
lock (tournaments/locks.py) must give one round for two organizers pairing at once and consecutive
list versions for two submissions at once; the loser is answered 409, never 500."""
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

import tournaments
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.lists import services as lists
from tournaments.models import AuditEntry, Battle, General, ListVersion, SwissRound
from tournaments.results import recording
from tournaments.swiss import rounds

from .test_races import Tally, client_of, race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TRIES = 10
WARLORD = "warlord-ccg-4e"
DEMO = Path(tournaments.__file__).parent / "demo_data"
DEMO_LISTS = json.loads((DEMO / "lists.json").read_text(encoding="utf-8"))
CCG_POOL = (DEMO / "warlord_ccg_pool.csv").read_text(encoding="utf-8")


def swiss_event(tag, *, players=4, **settings):
    """A Warlord CCG Swiss event of Olga and her co-organizer Oleg, registration closed."""
    User = get_user_model()
    olga = grant_organizer_role(User.objects.create_user(f"olga-{tag}"))
    oleg = grant_organizer_role(User.objects.create_user(f"oleg-{tag}"))
    event = services.create_event(name=f"Swiss {tag}", slug=f"swiss-{tag}", game=WARLORD, actor=olga, **settings)
    event.organizers.add(oleg)  # a co-organizer (how one is appointed is not what these tests race)
    generals = [General.objects.create(name=f"P{n}-{tag}", user=User.objects.create_user(f"p{n}-{tag}"))
                for n in range(players)]
    for general in generals:
        services.register(event, general, actor=general.user)
    return event, olga, oleg, generals


def both_post(first, second, url, body=None):
    """Two users post the same body to one address at the same instant."""
    return race(lambda: client_of(first).post(url, body or {}, format="json"),
                lambda: client_of(second).post(url, body or {}, format="json"))


def pair_while_recording(organizer, other, event, battle):
    """`organizer` pairs the next round while `other` records the battle's result, at the same instant."""
    def record_the_last_result():
        recording.record_result(battle, kind="draw", actor=other)
        return 200

    url = f"/api/v1/events/{event.slug}/swiss/pair/"
    return race(lambda: client_of(organizer).post(url, {}, format="json"), record_the_last_result)


def submit_twice(event, general, first, second, second_submitter):
    """The general's player submits `first` while `second_submitter` submits `second` for them."""
    url = f"/api/v1/events/{event.slug}/lists/"
    return race(lambda: client_of(general.user).post(url, {"list": first}, format="json"),
                lambda: client_of(second_submitter).post(url, {"list": second, "general": general.pk},
                                                         format="json"))


def accept_while_replacing(event, organizer, general, version, content):
    return race(
        lambda: client_of(organizer).post(f"/api/v1/events/{event.slug}/lists/accept/",
                                          {"general": general.pk, "version": version,
                                           "reason": "Errata allows a fourth copy."}, format="json"),
        lambda: client_of(general.user).post(f"/api/v1/events/{event.slug}/lists/", {"list": content},
                                             format="json"))


def test_two_organizers_pairing_the_same_round_at_once_get_one_round_and_a_409(require_postgres):
    tally = Tally()
    for attempt in range(TRIES):
        event, olga, oleg, _generals = swiss_event(f"pair{attempt}", swiss_rounds=3)
        services.close_registration(event, actor=olga)
        statuses = both_post(olga, oleg, f"/api/v1/events/{event.slug}/swiss/pair/")
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409], statuses
            assert list(SwissRound.objects.filter(event=event).values_list("number", flat=True)) == [1]
            assert Battle.objects.filter(event=event).count() == 2
            assert AuditEntry.objects.filter(event=event, action="round paired").count() == 1
    tally.assert_clean()


def test_pairing_the_next_round_races_the_last_result_of_the_current_one(require_postgres):
    """An organizer pairs round 2 while the other records round 1's last result: either the pairing
    waits for the result and succeeds, or it is refused; a round is never paired over a missing result."""
    tally = Tally()
    for attempt in range(TRIES):
        event, olga, oleg, _generals = swiss_event(f"last{attempt}", swiss_rounds=3)
        services.close_registration(event, actor=olga)
        first = rounds.pair_next_round(event, actor=olga)
        one, last = Battle.objects.filter(swiss_round=first).order_by("number")
        recording.record_result(one, kind="victory", winner=one.general_a, actor=olga)
        statuses = pair_while_recording(olga, oleg, event, last)
        tally.add(statuses)
        with tally.attempt():
            assert statuses[1] == 200 and statuses[0] in (201, 409), statuses
            paired = SwissRound.objects.filter(event=event).count()
            assert paired == (2 if statuses[0] == 201 else 1)
            assert not Battle.objects.filter(event=event, swiss_round=first, kind="").exists()
    tally.assert_clean()


def test_two_organizers_starting_the_top_cut_at_once_get_one_cut(require_postgres):
    tally = Tally()
    for attempt in range(TRIES):
        event, olga, oleg, _generals = swiss_event(f"cut{attempt}", swiss_rounds=1, top_cut=4)
        services.close_registration(event, actor=olga)
        for battle in Battle.objects.filter(swiss_round=rounds.pair_next_round(event, actor=olga)):
            recording.record_result(battle, kind="victory", winner=battle.general_a, actor=olga)
        statuses = both_post(olga, oleg, f"/api/v1/events/{event.slug}/swiss/top-cut/")
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409], statuses
            assert SwissRound.objects.filter(event=event, stage="top_cut").count() == 1
            assert Battle.objects.filter(event=event, swiss_round__stage="top_cut").count() == 2
    tally.assert_clean()


def test_two_submissions_of_one_players_list_at_once_get_consecutive_versions(require_postgres):
    """The player from two tabs, or the player and an organizer handing in the paper list: both kept, as
    versions n+1 and n+2, each with its own text; none lost, none numbered twice."""
    event, olga, _oleg, generals = swiss_event("lists", players=2)
    lists.set_pool(event, user=olga, csv_text=CCG_POOL)
    ada = generals[0]
    texts = []
    tally = Tally()
    for attempt in range(TRIES):
        mine = dict(DEMO_LISTS["dwarves"], note=f"tab {attempt}")
        paper = dict(DEMO_LISTS["elves"], note=f"paper {attempt}")
        statuses = submit_twice(event, ada, mine, paper, ada.user if attempt % 2 else olga)
        tally.add(statuses)
        texts += [mine, paper]
        with tally.attempt():
            assert statuses == [201, 201], statuses
            kept = list(ListVersion.objects.filter(registration__general=ada).order_by("version"))
            assert [v.version for v in kept] == list(range(1, 2 * attempt + 3))
    tally.assert_clean()
    kept = list(ListVersion.objects.filter(registration__general=ada).order_by("version"))
    read = [json.loads(v.text) for v in kept]
    assert sorted(read, key=json.dumps) == sorted(texts, key=json.dumps)  # every text kept, as sent
    assert AuditEntry.objects.filter(event=event, action="list submitted").count() == 2 * TRIES


def test_an_acceptance_racing_a_replacement_never_blesses_the_new_list(require_postgres):
    """Olga accepts version n while Ada replaces it with n+1: either n is accepted before n+1 arrives,
    or the acceptance is refused as stale; n+1 is never accepted."""
    event, olga, _oleg, generals = swiss_event("accept", players=2)
    lists.set_pool(event, user=olga, csv_text=CCG_POOL)
    ada = generals[0]
    too_many = json.dumps(DEMO_LISTS["too_many"])
    tally = Tally()
    for _attempt in range(TRIES):
        seen = lists.submit(event, ada, user=ada.user, text=too_many)
        statuses = accept_while_replacing(event, olga, ada, seen.version, DEMO_LISTS["too_many"])
        tally.add(statuses)
        with tally.attempt():
            assert statuses[1] == 201 and statuses[0] in (200, 409), statuses
            newest = ListVersion.objects.filter(registration__general=ada).order_by("-version").first()
            assert newest.version == seen.version + 1 and newest.accepted_at is None
            accepted = ListVersion.objects.get(pk=seen.pk).accepted_at is not None
            assert accepted == (statuses[0] == 200)
    tally.assert_clean()
