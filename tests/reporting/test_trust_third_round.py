"""Results you can trust, third round (issue 21): each attack tried with real accounts through the API
or the pages, refused or held until both generals stand behind the result or an organizer decides.

R92 a replay's sides belong to the battle; R93 reports are limited; R94 what a battle keeps of its
replays; and the trust model's "a dispute stays a dispute", "nobody counts alone", "the window
measures the opponent's time" (README, tournaments/trust.py)."""
import copy
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import Adjudication, AuditEntry, Battle, Event, General, Report
from tournaments.results import adjudication, confirmation, reporting

from .conftest import replay_between

pytestmark = pytest.mark.django_db
User = get_user_model()
FAR_FUTURE = timedelta(days=60)


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def post_report(user, battle, callbacks, *, run_jobs=True, **body):
    """A report through the API; its replay adjudicated in-process as a worker would (or, with
    `run_jobs=False`, the job left in the queue as when the queue is down)."""
    with callbacks(execute=run_jobs):
        response = as_user(user).post(f"/api/v1/battles/{battle.pk}/reports/", body, format="json")
    if response.status_code == 201:  # the report as it stands once the job ran (after the answer was sent)
        now = as_user(user).get(f"/api/v1/reports/{response.json()['id']}/").json()
        response.json = lambda: now
    return response


def counted(battle, user):
    return as_user(user).get(f"/api/v1/battles/{battle.pk}/").json()["result"]


def window_passes():
    """Every window there is has passed (the periodic job run far in the future)."""
    return confirmation.confirm_expired(now=timezone.now() + FAR_FUTURE)


def genuine_log(a, b, *, names=True):
    """The real log of the battle: Ada played p1 and won by Shackle."""
    log = replay_between("victory-shackle", a, b)
    if not names:
        log["generals"]["p1"]["name"] = log["generals"]["p2"]["name"] = ""
    return log


def with_ids(log, p1, p2):
    log = copy.deepcopy(log)
    log["meta"] = {"general_ids": {"p1": p1.pk, "p2": p2.pk}}
    return log


# --- finding 1: a replay's sides are part of the report (R92) -------------------------------------

def test_the_loser_reversing_the_general_ids_of_the_real_log_is_refused_before_the_engine_runs(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    flipped = with_ids(genuine_log(a, b), b, a)  # Ben claims he played p1, who won
    answer = post_report(b.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=b.pk,
                         condition="shackle", replay=flipped)
    assert answer.status_code == 400, answer.content
    assert "general_ids" in answer.json()["detail"] and "replay" in answer.json()["fields"]
    assert not battle.reports.exists() and not Adjudication.objects.exists()  # refused before the engine
    # The winner's genuine upload waits for the loser; nothing counted Ben's claim.
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=with_ids(genuine_log(a, b), a, b))
    assert answer.status_code == 201 and answer.json()["status"] == "checked"
    assert answer.json()["player_1"] == a.pk
    assert counted(battle, a.user) is None


def test_a_log_without_names_flipped_by_the_loser_is_disputed_not_confirmed_by_the_winners_upload(
        event_day, django_capture_on_commit_callbacks):
    """R92: two uploads of the same game whose sides differ, with different results, dispute each
    other; the winner's upload never confirms the loser's claim."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    nameless = genuine_log(a, b, names=False)
    loser = post_report(b.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=b.pk,
                        condition="shackle", replay=with_ids(nameless, b, a))
    assert loser.status_code == 201 and loser.json()["status"] == "checked"  # the ids alone say Ben was p1
    winner = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=with_ids(nameless, a, b))
    assert winner.status_code == 201, winner.content
    statuses = {r["id"]: r["status"] for r in as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/").json()}
    assert statuses == {loser.json()["id"]: "disputed", winner.json()["id"]: "disputed"}
    assert counted(battle, a.user) is None
    assert window_passes() == []


def test_a_log_of_another_battle_is_refused_even_with_this_battles_ids(event_day,
                                                                       django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    other = event.battles.exclude(pk=battle.pk).select_related("general_a", "general_b").first()
    borrowed = with_ids(replay_between("victory-shackle", other.general_a, other.general_b), a, b)
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=borrowed)
    assert answer.status_code == 400, answer.content
    assert other.general_a.name in answer.json()["detail"]
    assert not battle.reports.exists()
    assert window_passes() == [] and counted(battle, b.user) is None


def test_a_stated_player_1_the_log_contradicts_and_a_nameless_log_without_one_are_refused(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", player_1=b.pk, replay=genuine_log(a, b))
    assert answer.status_code == 400 and "Player-1" in answer.json()["detail"]
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=genuine_log(a, b, names=False))
    assert answer.status_code == 400 and "R92" in answer.json()["detail"]
    # With Player-1 stated, a nameless log is tied to the battle by the report (R92), and checked.
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", player_1=a.pk, replay=genuine_log(a, b, names=False))
    assert answer.status_code == 201 and answer.json()["status"] == "checked", answer.content


def test_a_log_on_another_board_is_refused_and_the_organizer_chooses_the_board(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    tall = genuine_log(a, b)
    tall["rules"]["board"] = {"width": 7, "height": 10}  # not the event's 7 x 7
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                         condition="shackle", replay=tall)
    assert answer.status_code == 400 and "7 x 10" in answer.json()["detail"] and "7 x 7" in answer.json()["detail"]
    assert not Adjudication.objects.exists()
    created = as_user(organizer).post("/api/v1/events/", {"name": "Tall Cup", "slug": "tall-cup", "board_width": 7,
                                                          "board_height": 10}, format="json")
    assert created.status_code == 201 and created.json()["board_height"] == 10
    changed = as_user(organizer).patch("/api/v1/events/tall-cup/", {"board_height": 27}, format="json")
    assert changed.status_code == 400 and "board_height" in changed.json()["fields"]
    changed = as_user(organizer).patch("/api/v1/events/tall-cup/", {"board_height": 8}, format="json")
    assert changed.status_code == 200 and changed.json()["board_height"] == 8
    started = as_user(organizer).patch(f"/api/v1/events/{event.slug}/", {"board_height": 10}, format="json")
    assert started.status_code == 409  # fixed once the event starts, like its variants


def test_the_organizer_chooses_the_board_on_the_new_event_page(db):
    organizer = grant_organizer_role(User.objects.create_user("pia"))
    page = Client()
    page.force_login(organizer)
    assert 'name="board_width"' in page.get(reverse("event-create")).content.decode()
    answer = page.post(reverse("event-create"), {"name": "Wide Cup", "slug": "wide-cup", "kind": "tournament",
                                                 "board_width": 9, "board_height": 8, "forfeit_award_opp": 1,
                                                 "time_zone": "UTC"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    wide = Event.objects.get(slug="wide-cup")
    assert (wide.board_width, wide.board_height) == (9, 8)
    page.post(reverse("event-create"), {"name": "Plain Cup", "slug": "plain-cup", "kind": "tournament",
                                        "forfeit_award_opp": 1, "time_zone": "UTC"})
    plain = Event.objects.get(slug="plain-cup")
    assert (plain.board_width, plain.board_height) == (7, 7)  # the default


# --- finding 3: a dispute stays a dispute -----------------------------------------------------------

def test_resending_the_same_claim_after_a_dispute_neither_erases_it_nor_restarts_the_window(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"}, format="json")
    disputed = as_user(b.user).post(f"/api/v1/reports/{first.json()['id']}/dispute/", {"reason": "I won."},
                                    format="json")
    assert disputed.status_code == 200
    again = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"}, format="json")
    assert again.status_code == 201, again.content
    assert again.json()["status"] == "disputed" and again.json()["confirm_by"] is None
    queue = {r["id"]: r["status"] for r in as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/").json()}
    assert queue == {first.json()["id"]: "disputed", again.json()["id"]: "disputed"}  # both for the organizer
    assert window_passes() == [] and counted(battle, a.user) is None
    # The reporter cannot end it; the general who disputed can.
    refused = as_user(a.user).post(f"/api/v1/reports/{first.json()['id']}/withdraw-dispute/", {}, format="json")
    assert refused.status_code == 403
    withdrawn = as_user(b.user).post(f"/api/v1/reports/{first.json()['id']}/withdraw-dispute/",
                                     {"reason": "I misread it."}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "awaiting_opponent"
    assert withdrawn.json()["confirm_by"] is not None
    assert Report.objects.get(pk=again.json()["id"]).status == Report.Status.SUPERSEDED
    assert AuditEntry.objects.filter(event=event, action="dispute withdrawn", actor=b.user).exists()
    assert as_user(b.user).post(f"/api/v1/reports/{first.json()['id']}/confirm/").status_code == 200
    assert counted(battle, a.user)["kind"] == "stalemate"


def test_the_opponent_withdraws_or_confirms_their_dispute_on_the_battle_page(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt")
    reporting.dispute_report(report, user=b.user, reason="Not so.")
    page = Client()
    page.force_login(b.user)
    shown = page.get(reverse("battle-detail", args=[battle.pk])).content.decode()
    assert "Withdraw my dispute" in shown and "Confirm this result after all" in shown
    page.post(reverse("report-answer", args=[report.pk]), {"answer": "confirm"})
    battle.refresh_from_db()
    assert battle.kind == "victory" and battle.winner == a  # the general who disputed confirmed after all


def test_an_organizer_ends_a_dispute_only_by_deciding_with_a_reason(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    report = reporting.submit_report(battle, user=a.user, kind="stalemate")
    reporting.dispute_report(report, user=b.user, reason="I won.")
    plain = as_user(organizer).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "resolve"}, format="json")
    assert plain.status_code == 409 and "reason" in plain.json()["detail"]
    no_reason = as_user(organizer).post(f"/api/v1/reports/{report.pk}/override/", {"reason": ""}, format="json")
    assert no_reason.status_code == 400
    decided = as_user(organizer).post(f"/api/v1/reports/{report.pk}/override/",
                                      {"reason": "Both confirmed at the table.", "kind": "resolve"}, format="json")
    assert decided.status_code == 200 and counted(battle, a.user)["kind"] == "resolve"


# --- finding 4: nobody counts alone -------------------------------------------------------------------

@pytest.fixture
def walk_in_battle(db):
    """A tournament of Ada (with an account) and Wim, a walk-in general nobody has claimed."""
    organizer = grant_organizer_role(User.objects.create_user("orla", email="orla@example.org"))
    event = services.create_event(name="Dock Open", slug="dock-open", actor=organizer)
    ada = General.objects.create(name="Ada", user=User.objects.create_user("ada", email="ada@example.org"))
    services.register(event, ada, actor=ada.user, seed=1)
    wim = General.objects.create(name="Wim", created_by=organizer)
    services.register(event, wim, actor=organizer, seed=4)
    for seed, name in ((2, "Cyd"), (3, "Dov")):
        user = User.objects.create_user(name.lower())
        services.register(event, General.objects.create(name=name, user=user), actor=user, seed=seed)
    services.form_groups(event, 2, "seeded", actor=organizer)  # snake order: Ada and Wim in group A
    battle = event.battles.filter(Q(general_a=ada, general_b=wim) | Q(general_a=wim, general_b=ada)).get()
    return event, organizer, ada, battle


def test_a_report_against_an_unclaimed_general_waits_for_the_organizer_and_never_counts_alone(
        walk_in_battle, django_capture_on_commit_callbacks, mailoutbox):
    event, organizer, ada, battle = walk_in_battle
    with django_capture_on_commit_callbacks(execute=True):
        answer = as_user(ada.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                        {"kind": "victory", "winner": ada.pk, "condition": "crush"}, format="json")
    assert answer.status_code == 201 and answer.json()["confirm_by"] is None
    assert "not claimed" in answer.json()["status_reason"]
    queue = as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/").json()
    assert [r["id"] for r in queue] == [answer.json()["id"]]
    assert [m.to for m in mailoutbox] == [["orla@example.org"]] and "Decide" in mailoutbox[0].subject
    assert window_passes() == [] and counted(battle, ada.user) is None
    assert as_user(organizer).post(f"/api/v1/reports/{answer.json()['id']}/confirm/").status_code == 200
    assert counted(battle, ada.user)["winner"] == ada.pk


def test_a_report_with_a_replay_against_an_unclaimed_general_gets_no_window_from_its_verdict(
        walk_in_battle, django_capture_on_commit_callbacks):
    event, organizer, ada, battle = walk_in_battle
    wim = battle.opponent_of(ada)
    answer = post_report(ada.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=ada.pk,
                         condition="shackle", replay=replay_between("victory-shackle", ada, wim))
    assert answer.status_code == 201
    report = as_user(ada.user).get(f"/api/v1/reports/{answer.json()['id']}/").json()
    assert report["status"] == "checked" and report["confirm_by"] is None
    assert window_passes() == []


def test_a_report_against_an_inactive_player_waits_for_an_organizer(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    b.user.is_active = False
    b.user.save(update_fields=["is_active"])
    answer = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"}, format="json")
    assert answer.status_code == 201 and answer.json()["confirm_by"] is None
    assert window_passes() == [] and counted(battle, a.user) is None


def test_a_player_deactivated_while_the_window_runs_is_not_counted_against(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    report = reporting.submit_report(battle, user=a.user, kind="stalemate")
    assert report.confirm_by is not None
    User.objects.filter(pk=b.user.pk).update(is_active=False)
    assert window_passes() == []
    report.refresh_from_db()
    assert report.status == Report.Status.AWAITING_OPPONENT and report.confirm_by is None
    assert report in reporting.open_reports(event)


def test_a_league_report_against_an_unclaimed_member_waits_for_an_organizer(db):
    organizer = grant_organizer_role(User.objects.create_user("olga"))
    league = services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    ada = General.objects.create(name="Ada", user=User.objects.create_user("ada"))
    services.register(league, ada, actor=ada.user)
    wim = General.objects.create(name="Wim", created_by=organizer)
    services.register(league, wim, actor=organizer)
    season = seasons.open_season(league, "Autumn", actor=organizer)
    answer = as_user(ada.user).post(f"/api/v1/seasons/{season.pk}/battles/",
                                    {"opponent": wim.pk, "kind": "victory", "winner": ada.pk, "condition": "blunt"},
                                    format="json")
    assert answer.status_code == 201, answer.content
    report = Battle.objects.get(pk=answer.json()["id"]).reports.get()
    assert report.confirm_by is None and report in reporting.open_reports(league)
    assert window_passes() == []
    assert not Battle.objects.get(pk=answer.json()["id"]).kind


# --- finding 7: the window measures the opponent's time -------------------------------------------

def test_the_opponent_disputes_while_the_replay_waits_for_the_engine(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, run_jobs=False, kind="victory",
                         winner=a.pk, condition="shackle", replay=genuine_log(a, b))
    assert answer.status_code == 201 and answer.json()["status"] == "queued"
    assert answer.json()["confirm_by"] is None  # no window while the opponent waits for the verdict
    page = Client()
    page.force_login(b.user)
    shown = page.get(reverse("battle-detail", args=[battle.pk])).content.decode()
    assert "has not given its verdict" in shown and "Dispute" in shown
    disputed = as_user(b.user).post(f"/api/v1/reports/{answer.json()['id']}/dispute/",
                                    {"reason": "We never played."}, format="json")
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    adjudication.adjudicate(Adjudication.objects.get(report_id=answer.json()["id"]).pk)  # the queue is back
    assert Report.objects.get(pk=answer.json()["id"]).status == Report.Status.DISPUTED  # the dispute stands
    assert window_passes() == [] and counted(battle, a.user) is None


def test_the_opponent_reports_while_the_replay_waits_for_the_engine(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = post_report(a.user, battle, django_capture_on_commit_callbacks, run_jobs=False, kind="victory",
                        winner=a.pk, condition="shackle", replay=genuine_log(a, b))
    answer = as_user(b.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["status"] == "disputed"
    assert Report.objects.get(pk=first.json()["id"]).status == Report.Status.DISPUTED


def test_the_window_starts_when_the_verdict_is_in(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    answer = post_report(a.user, battle, django_capture_on_commit_callbacks, run_jobs=False, kind="victory",
                         winner=a.pk, condition="shackle", replay=genuine_log(a, b))
    # The report was made 25 minutes ago, while the job queue was down (any window it had started then).
    Report.objects.filter(pk=answer.json()["id"]).update(created_at=F("created_at") - timedelta(minutes=25),
                                                         confirm_by=F("confirm_by") - timedelta(minutes=25))
    job = Adjudication.objects.get(report_id=answer.json()["id"])
    assert adjudication.adjudicate(job.pk) == "checked"  # 25 minutes later, the queue answers again
    report = Report.objects.get(pk=answer.json()["id"])
    job.refresh_from_db()
    assert abs(report.confirm_by - (job.finished_at + event.confirmation_window)) < timedelta(seconds=1)
    assert confirmation.confirm_expired(now=timezone.now() + timedelta(minutes=10)) == []  # Ben's 30 minutes run


# --- finding 8: re-reports limited (R93), superseded replays dropped once counted (R94) ---------------

def test_a_re_report_flood_is_refused_and_superseded_replays_are_dropped_once_the_battle_counts(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    sent = []
    for _ in range(reporting.REPORTS_PER_BATTLE_PER_HOUR):
        answer = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                             condition="shackle", replay=genuine_log(a, b))
        assert answer.status_code == 201, answer.content
        sent.append(answer.json()["id"])
    flood = post_report(a.user, battle, django_capture_on_commit_callbacks, kind="victory", winner=a.pk,
                        condition="shackle", replay=genuine_log(a, b))
    assert flood.status_code == 409 and "minutes" in flood.json()["detail"] and "R93" in flood.json()["detail"]
    assert battle.reports.count() == reporting.REPORTS_PER_BATTLE_PER_HOUR  # nothing stored
    assert as_user(b.user).post(f"/api/v1/reports/{sent[-1]}/confirm/").status_code == 200
    superseded = Report.objects.filter(pk__in=sent[:-1])
    assert all(r.replay == "" and len(r.replay_sha256) == 64 and r.replay_bytes > 1000 for r in superseded)
    assert Report.objects.get(pk=sent[-1]).replay  # the report that counted keeps its replay
    assert as_user(a.user).get(f"/api/v1/reports/{sent[0]}/").json()["replay_sha256"] == superseded[0].replay_sha256


def test_one_player_reporting_many_battles_in_an_hour_is_limited_too(event_day):
    event, organizer, battle = event_day
    a = battle.general_a
    for _ in range(reporting.REPORTS_PER_PLAYER_PER_HOUR - 1):
        Report.objects.create(battle=battle, reported_by=a.user, kind="stalemate", status=Report.Status.SUPERSEDED)
    assert as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"},
                                format="json").status_code == 409  # five on this battle already
    other = event.battles.exclude(pk=battle.pk).first()
    Report.objects.filter(reported_by=a.user).update(battle=other)
    assert as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "stalemate"},
                                format="json").status_code == 201
    refused = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {"kind": "resolve"}, format="json")
    assert refused.status_code == 409 and "battles 30 times" in refused.json()["detail"]
