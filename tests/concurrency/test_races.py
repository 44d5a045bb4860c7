"""Two (or three) requests at the same instant, as gunicorn's threads send them: real threads, each
with its own database connection, released together by a barrier, on PostgreSQL. Each race is tried
many times; a race may be won by either side, but never answers 500 and never has two outcomes
(tournaments/locks.py: one lock order, the state re-read after locking, the loser answered 409)."""
import contextlib
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments import audit
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Battle, General, Invitation, Registration, Report
from tournaments.results import recording, reporting

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TRIES = 20


@pytest.fixture(autouse=True)
def many_reports_an_hour(monkeypatch):
    """These tests report many battles of one pair of accounts within seconds; R93's hourly limit per
    player is not what they race."""
    monkeypatch.setattr(reporting, "REPORTS_PER_PLAYER_PER_HOUR", 10_000)


@pytest.fixture
def league(require_postgres, transactional_db):
    User = get_user_model()
    olga = grant_organizer_role(User.objects.create_user("olga"))
    oleg = grant_organizer_role(User.objects.create_user("oleg"))
    event = services.create_event(name="Pier League", slug="pier", kind="league", actor=olga,
                                  pair_battles_per_season=1000, forfeits_to_disqualify=None)
    event.organizers.add(oleg)  # a co-organizer (how one is appointed is not what these tests race)
    ada, ben = (General.objects.create(name=name, user=User.objects.create_user(name.lower()))
                for name in ("Ada", "Ben"))
    for general in (ada, ben):
        services.register(event, general, actor=general.user)
    season = seasons.open_season(event, "Autumn", actor=olga)
    return {"event": event, "olga": olga, "oleg": oleg, "ada": ada, "ben": ben, "season": season}


def client_of(user):
    client = APIClient(raise_request_exception=False)  # a server error is a 500, counted, not raised
    if user is not None:
        client.force_login(user)
    return client


def race(*calls):
    """Runs the calls at the same instant, each in its own thread with its own connection; returns
    their HTTP statuses (or the exception a call raised)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            answer = call()
            results[index] = getattr(answer, "status_code", answer)
        except Exception as error:  # noqa: BLE001  (reported to the test, not swallowed)
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


class Tally:
    """Every try's answers; a try whose checks fail is counted, and the test fails at the end saying
    in how many of the tries the race showed."""

    def __init__(self):
        self.tries, self.failed = [], []

    def add(self, statuses, note=""):
        self.tries.append((statuses, note))

    def server_errors(self):
        return [t for t in self.tries[-1:] if any(not isinstance(s, int) or s >= 500 for s in t[0])]

    @contextlib.contextmanager
    def attempt(self):
        try:
            yield
        except AssertionError as error:
            self.failed.append((self.tries[-1] if self.tries else None, str(error).splitlines()[0]))

    def assert_clean(self):
        assert not self.failed, (f"the race showed in {len(self.failed)} of {len(self.tries)} tries: "
                                 f"{self.failed[:3]}")


def schedule(league):
    return seasons.schedule_battle(league["season"], league["ada"], league["ben"], actor=league["olga"])


def report_by_ada(league, battle, winner=None):
    return reporting.submit_report(battle, user=league["ada"].user, kind="victory",
                                   winner=winner or league["ada"], condition="crush")


def scheduled_and_reported(league):
    """A newly scheduled battle of Ada and Ben and Ada's report of it, waiting for Ben."""
    battle = schedule(league)
    return battle, report_by_ada(league, battle)


def result_entries(battle):
    subject = audit.battle_subject(Battle.objects.select_related("season", "general_a", "general_b")
                                   .get(pk=battle.pk))
    return AuditEntry.objects.filter(subject=subject, action__in=(
        "result recorded", "result corrected", "report overridden")).count()


# --- results and reports ---------------------------------------------------------------------------

def test_the_opponents_confirm_and_an_organizers_result_at_once_have_one_outcome(league):
    tally = Tally()
    ben, olga = client_of(league["ben"].user), client_of(league["olga"])
    for _ in range(TRIES):
        battle, report = scheduled_and_reported(league)
        statuses = race(
            lambda report=report: ben.post(f"/api/v1/reports/{report.pk}/confirm/"),
            lambda battle=battle: olga.post(f"/api/v1/battles/{battle.pk}/result/", {
                "kind": "victory", "winner": league["ben"].pk, "condition": "blunt",
                "reason": "The score sheet says Ben won."}, format="json"))
        battle.refresh_from_db()
        report.refresh_from_db()
        tally.add(statuses, (battle.winner_id, report.status, result_entries(battle)))
        with tally.attempt():
            assert sorted(statuses) == [200, 409]
            if statuses[0] == 200:  # the confirmation won: Ada's result counts, the organizer is told
                assert (battle.winner, report.status) == (league["ada"], Report.Status.CONFIRMED)
            else:
                assert (battle.winner, report.status) == (league["ben"], Report.Status.OVERRIDDEN)
            assert result_entries(battle) == 1
    tally.assert_clean()


def test_two_organizers_deciding_differently_at_once_have_one_outcome(league):
    tally = Tally()
    olga, oleg = client_of(league["olga"]), client_of(league["oleg"])
    for _ in range(TRIES):
        battle = schedule(league)
        statuses = race(*(
            lambda client=client, winner=winner, battle=battle: client.post(f"/api/v1/battles/{battle.pk}/result/", {
                "kind": "victory", "winner": winner.pk, "condition": "crush",
                "reason": "From the table judge."}, format="json")
            for client, winner in ((olga, league["ada"]), (oleg, league["ben"]))))
        battle.refresh_from_db()
        tally.add(statuses, (battle.winner_id, result_entries(battle)))
        with tally.attempt():
            assert sorted(statuses) == [200, 409]
            assert battle.winner == (league["ada"] if statuses[0] == 200 else league["ben"])
            assert result_entries(battle) == 1
    tally.assert_clean()


def test_a_confirm_and_a_new_report_at_once_have_one_outcome(league):
    tally = Tally()
    ada, ben = client_of(league["ada"].user), client_of(league["ben"].user)
    for _ in range(TRIES):
        battle, report = scheduled_and_reported(league)
        statuses = race(
            lambda report=report: ben.post(f"/api/v1/reports/{report.pk}/confirm/"),
            lambda battle=battle: ada.post(f"/api/v1/battles/{battle.pk}/reports/", {
                "kind": "victory", "winner": league["ada"].pk, "condition": "shackle"}, format="json"))
        battle.refresh_from_db()
        tally.add(statuses, battle.kind)
        with tally.attempt():
            assert not tally.server_errors()
            # Either the confirmation counted (the new report is 409: the battle is decided), or the new
            # report replaced the old one (the confirmation is 409: that report is superseded).
            assert sorted(statuses) in ([200, 409], [201, 409])
            assert bool(battle.kind) == (statuses[0] == 200)
    tally.assert_clean()


def confirm_expired_now():
    from tournaments.results import confirmation

    confirmation.confirm_expired()  # the periodic job, racing the requests
    return 200


def expire(report):
    Report.objects.filter(pk=report.pk).update(confirm_by=timezone.now() - timedelta(seconds=1))


def test_a_dispute_racing_the_windows_end_has_one_outcome(league):
    tally = Tally()
    ben, olga = client_of(league["ben"].user), client_of(league["olga"])
    for _ in range(TRIES):
        battle, report = scheduled_and_reported(league)
        expire(report)
        statuses = race(
            lambda report=report: ben.post(f"/api/v1/reports/{report.pk}/dispute/", {"reason": "I won."}, format="json"),
            lambda: olga.get(f"/api/v1/events/{league['event'].slug}/"),  # a read sweeps the event
            confirm_expired_now)
        report.refresh_from_db()
        battle.refresh_from_db()
        tally.add(statuses, report.status)
        with tally.attempt():
            assert not tally.server_errors()
            assert statuses[1] == 200  # a read never fails for what it sweeps
            if statuses[0] == 200:  # the dispute came first: nothing counts
                assert report.status == Report.Status.DISPUTED and not battle.kind
            else:  # the window's end came first: the report counted, the dispute is told why
                assert statuses[0] == 409 and report.status == Report.Status.CONFIRMED and battle.kind
    tally.assert_clean()


def test_a_re_report_racing_the_windows_end_has_one_outcome(league):
    tally = Tally()
    ada, outsider = client_of(league["ada"].user), client_of(None)
    for _ in range(TRIES):
        battle, report = scheduled_and_reported(league)
        expire(report)
        statuses = race(
            lambda battle=battle: ada.post(f"/api/v1/battles/{battle.pk}/reports/", {
                "kind": "victory", "winner": league["ada"].pk, "condition": "shackle"}, format="json"),
            lambda battle=battle: outsider.get(f"/api/v1/battles/{battle.pk}/"))
        report.refresh_from_db()
        battle.refresh_from_db()
        tally.add(statuses, report.status)
        with tally.attempt():
            assert not tally.server_errors()
            assert statuses[1] == 200
            if statuses[0] == 201:
                assert report.status == Report.Status.SUPERSEDED and not battle.kind
            else:
                assert statuses[0] == 409 and report.status == Report.Status.CONFIRMED and battle.kind
    tally.assert_clean()


def test_a_read_of_one_battle_never_fails_for_a_race_on_another(league):
    """Reports whose window passed are confirmed by the sweep each read runs; a lock held on another
    battle (here: a confirmation and a new report racing) never turns the read into a 500."""
    tally = Tally()
    ada, ben, outsider = (client_of(league["ada"].user), client_of(league["ben"].user), client_of(None))
    quiet = schedule(league)
    for _ in range(TRIES):
        battle, report = scheduled_and_reported(league)
        expire(report)
        statuses = race(
            lambda report=report: ben.post(f"/api/v1/reports/{report.pk}/confirm/"),
            lambda battle=battle: ada.post(f"/api/v1/battles/{battle.pk}/reports/", {
                "kind": "victory", "winner": league["ada"].pk, "condition": "shackle"}, format="json"),
            lambda: outsider.get(f"/api/v1/battles/{quiet.pk}/"))
        tally.add(statuses)
        with tally.attempt():
            assert not tally.server_errors()
            assert statuses[2] == 200
    tally.assert_clean()


def test_a_read_neither_waits_for_nor_fails_on_a_step_holding_the_event(league):
    """Another request holds the event's lock (a long step): a read of a battle whose report expired
    answers at once, and the report is confirmed by a later read once the event is free."""
    import time

    from tournaments import locks

    battle, report = scheduled_and_reported(league)
    expire(report)
    holding, release = threading.Event(), threading.Event()

    def hold_the_event():
        try:
            with transaction.atomic():
                locks.event(league["event"])
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_event)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.monotonic()
        response = client_of(None).get(f"/api/v1/battles/{battle.pk}/")
        assert response.status_code == 200 and time.monotonic() - started < 5
        report.refresh_from_db()
        assert report.status == Report.Status.AWAITING_OPPONENT  # left for later, not failed
    finally:
        release.set()
        holder.join(10)
    assert client_of(None).get(f"/api/v1/battles/{battle.pk}/").json()["result"] is not None
    report.refresh_from_db()
    assert report.status == Report.Status.CONFIRMED


def test_confirm_expired_goes_on_past_a_report_it_cannot_confirm(league, monkeypatch):
    from django.db import OperationalError

    from tournaments.results import confirmation

    first, second = schedule(league), schedule(league)
    reports = [report_by_ada(league, battle) for battle in (first, second)]
    for report in reports:
        expire(report)
    real_apply = reporting.apply_report

    def deadlocked_once(report, *args, **kwargs):
        if report.pk == reports[0].pk:
            raise OperationalError("deadlock detected")
        return real_apply(report, *args, **kwargs)

    monkeypatch.setattr(reporting, "apply_report", deadlocked_once)
    confirmed = confirmation.confirm_expired()
    assert [c.report.pk for c in confirmed] == [reports[1].pk]
    assert Battle.objects.get(pk=second.pk).kind and not Battle.objects.get(pk=first.pk).kind


# --- registrations, invitations, generals, organizers -------------------------------------------------

def twice(call):
    return race(call, call)


def entered_by_olga(league, *names):
    """New generals without players, registered in the league by its organizer."""
    generals = [General.objects.create(name=name) for name in names]
    for general in generals:
        services.register(league["event"], general, actor=league["olga"])
    return generals


def renaming(client, general, name):
    """The request that renames the general, to be raced."""
    return lambda: client.patch(f"/api/v1/generals/{general.pk}/", {"name": name}, format="json")


def test_the_same_join_twice_at_once_registers_once(league):
    User = get_user_model()
    tally = Tally()
    for index in range(TRIES):
        user = User.objects.create_user(f"walker{index}")
        client = client_of(user)
        statuses = twice(lambda client=client, index=index: client.post(
            f"/api/v1/events/{league['event'].slug}/join/", {"name": f"Walker {index}"}, format="json"))
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409]
            assert General.objects.filter(user=user).count() == 1
            assert Registration.objects.filter(general__user=user).count() == 1
    tally.assert_clean()


def test_the_same_invitation_twice_at_once_invites_once(league):
    User = get_user_model()
    tally = Tally()
    olga = client_of(league["olga"])
    for index in range(TRIES):
        general = General.objects.create(name=f"Guest {index}", user=User.objects.create_user(f"guest{index}"))
        statuses = twice(lambda general=general: olga.post(
            f"/api/v1/events/{league['event'].slug}/invitations/", {"general": general.pk}, format="json"))
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409]
            assert Invitation.objects.filter(general=general).count() == 1
    tally.assert_clean()


def test_the_same_register_by_name_twice_at_once_creates_one_general(league):
    tally = Tally()
    olga = client_of(league["olga"])
    for index in range(TRIES):
        statuses = twice(lambda index=index: olga.post(
            f"/api/v1/events/{league['event'].slug}/registrations/", {"name": f"Walk In {index}"}, format="json"))
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409]
            assert General.objects.filter(name=f"Walk In {index}").count() == 1
            assert Registration.objects.filter(general__name=f"Walk In {index}").count() == 1
    tally.assert_clean()


def test_the_same_create_general_twice_at_once_creates_one(league):
    tally = Tally()
    olga = client_of(league["olga"])
    for index in range(TRIES):
        statuses = twice(lambda index=index: olga.post("/api/v1/generals/", {"name": f"Newcomer {index}"},
                                                       format="json"))
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [201, 409]
            assert General.objects.filter(name=f"Newcomer {index}").count() == 1
    tally.assert_clean()


def test_the_same_add_organizer_twice_at_once_adds_once(league):
    User = get_user_model()
    tally = Tally()
    event = league["event"]
    olga = client_of(league["olga"])
    for index in range(TRIES):
        user = grant_organizer_role(User.objects.create_user(f"helper{index}"))
        before = AuditEntry.objects.filter(event=event, subject=user.username).count()
        statuses = twice(lambda user=user: olga.post(f"/api/v1/events/{event.slug}/organizers/",
                                                     {"username": user.username}, format="json"))
        tally.add(statuses)
        with tally.attempt():
            assert not tally.server_errors()
            assert sorted(statuses)[0] < 300 and sorted(statuses)[1] == 409
            assert AuditEntry.objects.filter(event=event, subject=user.username).count() == before + 1
    tally.assert_clean()


def test_the_same_rename_twice_at_once_renames_once(league):
    tally = Tally()
    event = league["event"]
    olga = client_of(league["olga"])
    for index in range(TRIES):
        (general,) = entered_by_olga(league, f"Unclaimed {index}")
        statuses = twice(renaming(olga, general, f"Renamed {index}"))
        tally.add(statuses)
        with tally.attempt():
            assert not tally.server_errors()
            assert AuditEntry.objects.filter(event=event, action="general renamed",
                                             subject=f"Renamed {index}").count() == 1
    tally.assert_clean()


def test_two_renames_to_one_name_at_once_leave_one_general_of_that_name(league):
    tally = Tally()
    olga = client_of(league["olga"])
    for index in range(TRIES):
        pair = entered_by_olga(league, f"Left {index}", f"Right {index}")
        statuses = race(*(renaming(olga, general, f"Same {index}") for general in pair))
        tally.add(statuses)
        with tally.attempt():
            assert sorted(statuses) == [200, 409]
            assert General.objects.filter(name=f"Same {index}").count() == 1


    tally.assert_clean()


# --- the scoreboard's cache --------------------------------------------------------------------------

def test_a_poll_that_read_the_old_revision_never_puts_it_back_after_a_result(league, monkeypatch):
    """A venue screen's poll reads the event's revision, a result commits (and the cached head is
    invalidated), then the poll writes what it read to the cache: the next polls, in this process and
    in another (no local head), show the result, not the revision before it."""
    from tournaments.api.scoreboard import forget_everything_local
    from tournaments.standings import queries

    slug, battle = league["event"].slug, schedule(league)
    url = f"/api/v1/events/{slug}/scoreboard/"
    old_etag = client_of(None).get(url)["ETag"]
    forget_everything_local()
    from django.core.cache import cache

    cache.clear()
    revision_read, result_committed = threading.Event(), threading.Event()
    real_revision = queries.event_revision

    def revision_then_wait(event):
        answer = real_revision(event)
        if threading.current_thread() is not threading.main_thread():
            revision_read.set()
            result_committed.wait(10)
        return answer

    monkeypatch.setattr(queries, "event_revision", revision_then_wait)
    polled = {}

    def poll():
        try:
            polled["etag"] = client_of(None).get(url)["ETag"]
        finally:
            connections.close_all()

    poller = threading.Thread(target=poll)
    poller.start()
    assert revision_read.wait(10)
    recording.record_result(battle, actor=league["olga"], kind="victory", winner=league["ada"], condition="crush")
    result_committed.set()
    poller.join(10)
    assert polled["etag"] == old_etag  # the slow poll answered what it read, the revision before
    fresh = client_of(None).get(url)
    assert fresh["ETag"] != old_etag and fresh.json()["latest_results"][0]["id"] == battle.pk
    forget_everything_local()  # another web process: only the shared cache
    assert client_of(None).get(url)["ETag"] == fresh["ETag"]


# --- Idempotency-Key ----------------------------------------------------------------------------------

def test_a_double_submit_with_one_idempotency_key_creates_one_thing_and_both_get_its_answer(league):
    tally = Tally()
    olga = client_of(league["olga"])
    for index in range(TRIES):
        answers = []

        def create(index=index, answers=answers):
            # create_new: without the key, each request would create a general of its own
            response = olga.post("/api/v1/generals/", {"name": f"Twice {index}", "create_new": True},
                                 format="json", HTTP_IDEMPOTENCY_KEY=f"key-{index}")
            answers.append(response)
            return response

        statuses = race(create, create)
        tally.add(statuses)
        with tally.attempt():
            assert statuses == [201, 201]
            assert General.objects.filter(name=f"Twice {index}").count() == 1
            assert answers[0].json() == answers[1].json()
            assert sorted(a.headers.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    tally.assert_clean()


def test_an_idempotency_key_names_one_request(league):
    olga = client_of(league["olga"])
    first = olga.post("/api/v1/generals/", {"name": "Keyed"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = olga.post("/api/v1/generals/", {"name": "Keyed"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201 and again.json()["id"] == first.json()["id"]
    other = olga.post("/api/v1/generals/", {"name": "Other"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 409 and "other data" in other.json()["detail"]
    # Another user's key is theirs: the same key does not replay Olga's answer to Oleg.
    olegs = client_of(league["oleg"]).post("/api/v1/generals/", {"name": "Keyed", "create_new": True},
                                           format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert olegs.status_code == 201 and olegs.json()["id"] != first.json()["id"]
    assert client_of(league["olga"]).post("/api/v1/generals/", {"name": "Long"}, format="json",
                                          HTTP_IDEMPOTENCY_KEY="k" * 300).status_code == 400


def test_a_repeat_after_a_server_error_mid_step_does_the_step_once(league, monkeypatch):
    # The first request's step ran, then the request died before answering (here a server error; in the
    # grown-shape test, a web process killed): its step is undone with it, and the client's repeat with
    # the same key is answered, creating the general once. (Before, a server error forgot the key but kept
    # the step, and the repeat created a second general.)
    from tournaments.api.views import GeneralViewSet

    olga = client_of(league["olga"])
    olga.raise_request_exception = False
    answering = GeneralViewSet.get_serializer

    def dies_after_the_step(self, *args, **kwargs):
        raise RuntimeError("the process died after the step")

    monkeypatch.setattr(GeneralViewSet, "get_serializer", dies_after_the_step)
    died = olga.post("/api/v1/generals/", {"name": "Once only"}, format="json", HTTP_IDEMPOTENCY_KEY="k-once")
    assert died.status_code == 500
    assert not General.objects.filter(name="Once only").exists()

    monkeypatch.setattr(GeneralViewSet, "get_serializer", answering)
    repeat = olga.post("/api/v1/generals/", {"name": "Once only"}, format="json", HTTP_IDEMPOTENCY_KEY="k-once")
    assert repeat.status_code == 201 and repeat.headers.get("Idempotent-Replayed", "") == ""
    again = olga.post("/api/v1/generals/", {"name": "Once only"}, format="json", HTTP_IDEMPOTENCY_KEY="k-once")
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert General.objects.filter(name="Once only").count() == 1
