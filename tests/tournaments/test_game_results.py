"""Results of the games without an engine (Warlord CCG, Reaper's Warlord) through their services:
the result kinds each game allows, the raw facts a result records (the specs' section 6), reports
that wait for the opponent (nobody counts alone), facts two players disagree on, the organizer's
decision with a reason, and the audit trail keeping the facts."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Battle, Event, General, Report
from tournaments.results import recording, reporting
from tournaments.swiss import rounds, standings

pytestmark = pytest.mark.django_db

WARLORD = "warlord-ccg-4e"
REAPER = "reaper-warlord"


def organizer(username):
    return grant_organizer_role(get_user_model().objects.create_user(username))


def player(name):
    return General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))


def paired_event(game, *, slug="storm", **settings):
    """A two-player Swiss event of `game`, its first round paired: (event, olga, battle)."""
    olga = organizer(f"olga-{slug}")
    event = services.create_event(name=slug.title(), slug=slug, game=game, actor=olga, swiss_rounds=2,
                                  **settings)
    for name in ("Ada", "Ben"):
        general = player(f"{name}-{slug}")
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=olga)
    swiss_round = rounds.pair_next_round(event, actor=olga)
    battle = Battle.objects.select_related("general_a", "general_b", "event").get(swiss_round=swiss_round)
    return Event.objects.get(pk=event.pk), olga, battle


@pytest.fixture
def ccg():
    return paired_event(WARLORD, slug="storm")


@pytest.fixture
def reaper():
    return paired_event(REAPER, slug="reaper", tie_breakers=["points_destroyed", "sos"])


def fresh(battle):
    return Battle.objects.select_related("general_a", "general_b", "event", "winner").get(pk=battle.pk)


def score(event, general):
    return next(row.score for row in standings.compute(event) if row.id == general.pk)


# --- result kinds ---------------------------------------------------------------------------------------------

def test_a_ccg_victory_has_a_winner_and_no_condition(ccg):
    event, olga, battle = ccg
    with pytest.raises(DomainError, match="needs its winner") as refused:
        recording.record_result(battle, kind="victory", actor=olga)
    assert refused.value.field == "winner"
    recording.record_result(battle, kind="victory", winner=battle.general_a, actor=olga)
    counted = fresh(battle)
    assert (counted.kind, counted.winner, counted.condition) == ("victory", battle.general_a, "")
    assert counted.outcome_text() == f"{battle.general_a.name} wins"


def test_a_warline_condition_given_with_a_ccg_victory_is_not_kept(ccg):
    event, olga, battle = ccg
    recording.record_result(battle, kind="victory", winner=battle.general_b, condition="shackle", actor=olga)
    assert fresh(battle).condition == ""


@pytest.mark.parametrize("kind", ["stalemate", "resolve", "unplayed_dq", "checkmate", ""])
def test_a_kind_the_game_does_not_have_is_refused_with_a_sentence(ccg, kind):
    event, olga, battle = ccg
    with pytest.raises(DomainError, match="A result of Warlord CCG is win, draw or forfeit") as refused:
        recording.record_result(battle, kind=kind, actor=olga)
    assert refused.value.field == "kind"
    with pytest.raises(DomainError, match="win, draw or forfeit"):
        reporting.submit_report(battle, user=battle.general_a.user, kind=kind)
    assert not fresh(battle).kind and not Report.objects.exists()


def test_a_draw_is_refused_for_warline_and_counts_for_the_ccg(ccg):
    event, olga, battle = ccg
    warline, warline_olga, warline_battle = paired_event("warline", slug="harbour", format="swiss")
    with pytest.raises(DomainError, match="A result of WARLINE is victory, stalemate, resolve or forfeit"):
        recording.record_result(warline_battle, kind="draw", actor=warline_olga)
    recording.record_result(battle, kind="draw", actor=olga)
    assert score(event, battle.general_a) == score(event, battle.general_b) == 1  # the default draw: 1


def test_a_draw_has_no_winner(ccg):
    event, olga, battle = ccg
    with pytest.raises(DomainError, match="no winner") as refused:
        reporting.submit_report(battle, user=battle.general_a.user, kind="draw", winner=battle.general_a)
    assert refused.value.field == "winner"


def test_a_ccg_forfeit_gives_the_other_player_the_win(ccg):
    event, olga, battle = ccg
    recording.record_result(battle, kind="forfeit", forfeited_by=battle.general_a, actor=olga)
    assert fresh(battle).winner == battle.general_b
    assert (score(event, battle.general_a), score(event, battle.general_b)) == (0, 3)


# --- facts ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("facts", "says"), [
    ({"points_destroyed": {"a": 5}}, "points_destroyed: not a fact"),
    ({"status": "abandoned"}, "choose one of finished, unfinished"),
    ({"turns": -1}, "from 0 to 99"),
    ({"turns": 100}, "from 0 to 99"),
    ({"turns": True}, "whole number"),
    ({"turns": "seven"}, "whole number"),
    ({"turns": 2.5}, "whole number"),
    (["status", "finished"], "object"),
], ids=["unknown", "choice", "negative", "too-many", "bool", "word", "fraction", "not-an-object"])
def test_ccg_facts_are_checked_and_a_bad_one_saves_nothing(ccg, facts, says):
    event, olga, battle = ccg
    with pytest.raises(DomainError, match=says) as refused:
        reporting.submit_report(battle, user=battle.general_a.user, kind="victory", winner=battle.general_a,
                                facts=facts)
    assert refused.value.field == "facts"
    with pytest.raises(DomainError) as refused:
        recording.record_result(battle, kind="victory", winner=battle.general_a, facts=facts, actor=olga)
    assert refused.value.field == "facts"
    assert not fresh(battle).kind and not Report.objects.exists()
    assert not AuditEntry.objects.filter(event=event, action__in=("result reported", "result recorded")).exists()


@pytest.mark.parametrize(("facts", "says"), [
    ({"points_destroyed": {"a": -10, "b": 5}}, "from 0"),
    ({"points_destroyed": {"a": 10, "c": 5}}, "one figure for each side"),
    ({"points_destroyed": 300}, "one figure for each side"),
    ({"end_reason": "side-dead"}, "side_dead, turn_limit, other"),
    ({"turns_completed": -1}, "from 0"),
    ({"status": "finished"}, "not a fact"),
], ids=["negative", "third-side", "not-per-side", "choice", "negative-turns", "ccg-fact"])
def test_reaper_facts_are_checked(reaper, facts, says):
    event, olga, battle = reaper
    with pytest.raises(DomainError, match=says) as refused:
        recording.record_result(battle, kind="victory", winner=battle.general_a, facts=facts, actor=olga)
    assert refused.value.field == "facts"
    assert not fresh(battle).kind


def test_reaper_facts_are_kept_and_count_for_points_destroyed(reaper):
    event, olga, battle = reaper
    facts = {"end_reason": "side_dead", "turns_completed": "4", "points_destroyed": {"a": 640, "b": 210}}
    recording.record_result(battle, kind="victory", winner=battle.general_a, facts=facts, actor=olga)
    assert fresh(battle).facts == {"end_reason": "side_dead", "turns_completed": 4,
                                   "points_destroyed": {"a": 640, "b": 210}}
    rows = {row.id: row for row in standings.compute(event)}
    destroyed = {general: dict(rows[general.pk].tie_breaks)["points_destroyed"]
                 for general in (battle.general_a, battle.general_b)}
    assert destroyed == {battle.general_a: 640, battle.general_b: 210}


# --- reports: nobody counts alone -------------------------------------------------------------------------------

def test_a_report_by_one_player_waits_for_the_other(ccg):
    event, olga, battle = ccg
    ada, ben = battle.general_a, battle.general_b
    report = reporting.submit_report(battle, user=ada.user, kind="victory", winner=ada,
                                     facts={"status": "finished", "turns": 6})
    assert report.status == Report.Status.AWAITING_OPPONENT
    assert not fresh(battle).kind and score(event, ada) == 0
    with pytest.raises(Conflict, match="no counted result"):
        rounds.pair_next_round(event, actor=olga)
    with pytest.raises(NotAllowed):
        reporting.confirm_report(report, user=ada.user)  # not their own
    reporting.confirm_report(report, user=ben.user)
    counted = fresh(battle)
    assert (counted.kind, counted.winner, counted.facts) == ("victory", ada, {"status": "finished", "turns": 6})
    assert score(event, ada) == 3


def test_a_stranger_or_another_events_organizer_cannot_report(ccg):
    event, olga, battle = ccg
    oscar = organizer("oscar")
    sam = get_user_model().objects.create_user("sam")
    for user in (oscar, sam):
        with pytest.raises(NotAllowed):
            reporting.submit_report(battle, user=user, kind="victory", winner=battle.general_a)
    assert not Report.objects.exists()


def test_two_matching_reports_count(ccg):
    event, olga, battle = ccg
    ada, ben = battle.general_a, battle.general_b
    reporting.submit_report(battle, user=ada.user, kind="victory", winner=ben, facts={"status": "finished"})
    second = reporting.submit_report(battle, user=ben.user, kind="victory", winner=ben,
                                     facts={"status": "finished"})
    assert second.status == Report.Status.CONFIRMED
    assert (fresh(battle).winner, fresh(battle).facts) == (ben, {"status": "finished"})


def test_two_reports_with_the_same_winner_and_other_facts_are_disputed_and_the_organizer_decides(ccg):
    event, olga, battle = ccg
    ada, ben = battle.general_a, battle.general_b
    first = reporting.submit_report(battle, user=ada.user, kind="victory", winner=ada,
                                    facts={"status": "finished", "turns": 7})
    second = reporting.submit_report(battle, user=ben.user, kind="victory", winner=ada,
                                     facts={"status": "unfinished", "turns": 7})
    first.refresh_from_db()
    assert first.status == second.status == Report.Status.DISPUTED
    assert "other facts" in first.status_reason
    assert not fresh(battle).kind

    with pytest.raises(DomainError) as refused:
        reporting.decide_battle(fresh(battle), user=olga, reason=" ", kind="victory", winner=ada,
                                facts={"status": "unfinished", "turns": 7})
    assert refused.value.field == "reason"
    reporting.decide_battle(fresh(battle), user=olga, reason="The judge saw the clock stop the game.",
                            kind="victory", winner=ada, facts={"status": "unfinished", "turns": 7})
    counted = fresh(battle)
    assert (counted.kind, counted.winner, counted.facts) == ("victory", ada, {"status": "unfinished", "turns": 7})
    entry = AuditEntry.objects.filter(event=event, action="report overridden").get()
    assert entry.reason == "The judge saw the clock stop the game."
    assert entry.after["facts"] == {"status": "unfinished", "turns": 7}
    assert entry.actor == olga


def test_a_stray_condition_on_a_ccg_report_does_not_split_two_matching_reports(ccg):
    """The CCG has no victory conditions (spec §6: elimination only); a condition one player's client
    sends along is not part of what they claim, so the same winner on both sides confirms."""
    event, olga, battle = ccg
    ada, ben = battle.general_a, battle.general_b
    reporting.submit_report(battle, user=ada.user, kind="victory", winner=ada, condition="crush")
    second = reporting.submit_report(battle, user=ben.user, kind="victory", winner=ada)
    assert second.status == Report.Status.CONFIRMED
    assert fresh(battle).winner == ada and fresh(battle).condition == ""


def test_a_long_junk_condition_on_a_ccg_report_is_not_an_error(ccg):
    event, olga, battle = ccg
    ada = battle.general_a
    try:
        report = reporting.submit_report(battle, user=ada.user, kind="victory", winner=ada, condition="x" * 500)
    except DomainError as refused:
        assert refused.field == "condition"
        return
    assert Report.objects.get(pk=report.pk).condition == ""


# --- the audit trail keeps the facts --------------------------------------------------------------------------

def test_a_correction_keeps_the_facts_before_and_after(ccg):
    event, olga, battle = ccg
    ada, ben = battle.general_a, battle.general_b
    recording.record_result(battle, kind="victory", winner=ada, facts={"status": "finished", "turns": 5},
                            actor=olga)
    recorded = AuditEntry.objects.get(event=event, action="result recorded")
    assert recorded.after["facts"] == {"status": "finished", "turns": 5}
    with pytest.raises(DomainError) as refused:
        recording.record_result(fresh(battle), kind="victory", winner=ben, actor=olga)
    assert refused.value.field == "reason"
    recording.record_result(fresh(battle), kind="victory", winner=ben, facts={"status": "finished", "turns": 8},
                            actor=olga, reason="The players swapped the score sheet.")
    corrected = AuditEntry.objects.get(event=event, action="result corrected")
    assert corrected.before["facts"] == {"status": "finished", "turns": 5}
    assert corrected.after["facts"] == {"status": "finished", "turns": 8}
    assert corrected.after["winner"] == ben.name and corrected.reason == "The players swapped the score sheet."
