"""A league season as a state machine (tournaments/leagues/seasons.py): open -> closing -> playoff -> closed,
moving on by itself; closed seasons that stay as they closed (R88); R111 and R112
(../shared/spec/rulings.md)."""
import json

import pytest

from tournaments.domain import Conflict, DomainError
from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Battle, Event, General, Report, Season
from tournaments.results import arranged, recording, reporting
from tournaments.standings import tables

from .helpers import make_league, victory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(("Ada", "Ben", "Cyd", "Dov"), name="Harbour League", slug="harbour")


def state_of(season):
    season.refresh_from_db()
    return season.state


def tied_top(event, organizer, members):
    """Ada and Ben win one battle each by Crush: tied at the top after every tie-breaker."""
    ada, ben, cyd, dov = members
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, cyd, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(season, ben, dov, kind="victory", winner=ben, condition="crush", actor=organizer)
    return season


def standings_snapshot(season):
    """Every figure of the season's table and its champion, serialized (compared byte for byte)."""
    from tournaments.standings.queries import standing_rows

    season = Season.objects.select_related("event", "champion").get(pk=season.pk)
    return json.dumps({"champion": season.champion.name if season.champion else None, "state": season.state,
                       "rows": standing_rows(tables.season_standings(season))}, sort_keys=True)


# --- finding 1: playoffs move on by themselves ------------------------------------------------------

def test_a_stalemate_playoff_gets_its_replay_and_the_deciding_one_names_the_champion(league):
    event, organizer, members = league
    ada, ben, *_ = members
    season = tied_top(event, organizer, members)
    settled = seasons.close_season(season, actor=organizer)
    assert state_of(season) == Season.State.PLAYOFF and [b.generals() for b in settled.playoffs] == [(ada, ben)]
    first = settled.playoffs[0]
    reporting.submit_report(first, user=ada.user, kind="stalemate")
    reporting.confirm_report(Report.objects.get(battle=first), user=ben.user)  # a confirmed report, no organizer
    second = season.battles.get(playoff=True, kind="")  # "another Playoff Battle must occur", at once
    assert second.pk != first.pk and state_of(season) == Season.State.PLAYOFF
    victory(second, ben, "overpower")
    assert state_of(season) == Season.State.CLOSED
    season.refresh_from_db()
    assert season.champion == ben
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"season closing", "season playoff", "season closed", "playoff scheduled"} <= set(actions)


def test_disqualifying_a_playoff_general_names_the_other_champion(league):
    event, organizer, members = league
    ada, ben, *_ = members
    season = tied_top(event, organizer, members)
    seasons.close_season(season, actor=organizer)
    services.disqualify(event, ada, reason="conduct", actor=organizer)
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == ben
    assert not season.battles.filter(playoff=True).exists()  # R70: the pending playoff is moot


# --- finding 2: a decided playoff is not the players' to change --------------------------------------

def test_a_decided_playoff_cannot_be_reported_again_by_a_player(league):
    event, organizer, members = league
    ada, ben, *_ = members
    season = tied_top(event, organizer, members)
    playoff = seasons.close_season(season, actor=organizer).playoffs[0]
    recording.record_result(playoff, kind="stalemate", actor=organizer)
    with pytest.raises(Conflict, match="If the Playoff Battle outcome is Stalemate or Resolve, another Playoff "
                                       "Battle must occur"):
        reporting.submit_report(playoff, user=ada.user, kind="victory", winner=ada, condition="crush")
    playoff.refresh_from_db()
    assert playoff.kind == Battle.Kind.STALEMATE
    # An organizer corrects it, with a reason: the season moves on.
    with pytest.raises(DomainError, match="reason"):
        recording.record_result(playoff, kind="victory", winner=ada, condition="crush", actor=organizer)
    recording.record_result(playoff, kind="victory", winner=ada, condition="crush", actor=organizer,
                            reason="The table judge saw the Crush.")
    season.refresh_from_db()
    assert season.champion == ada and not season.battles.filter(playoff=True, kind="").exists()


def test_an_older_report_cannot_overwrite_a_playoff_decided_meanwhile(league):
    event, organizer, members = league
    ada, ben, *_ = members
    season = tied_top(event, organizer, members)
    playoff = seasons.close_season(season, actor=organizer).playoffs[0]
    claim = reporting.submit_report(playoff, user=ada.user, kind="victory", winner=ada, condition="crush")
    recording.record_result(playoff, kind="stalemate", actor=organizer)
    claim.refresh_from_db()
    assert claim.status == Report.Status.SUPERSEDED and claim.status_reason == "The battle's result was decided."
    with pytest.raises(Conflict, match="cannot be confirmed"):
        reporting.confirm_report(claim, user=ben.user)
    playoff.refresh_from_db()
    assert playoff.kind == Battle.Kind.STALEMATE


# --- finding 3: a closed season takes no reports ------------------------------------------------------

def test_a_report_on_a_closed_seasons_battle_is_refused_at_submit(league):
    event, organizer, (ada, ben, *_rest) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    battle = arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush",
                                             actor=organizer).battle
    seasons.close_season(season, actor=organizer)
    with pytest.raises(Conflict, match="Spring is closed"):
        reporting.submit_report(battle, user=ben.user, kind="victory", winner=ben, condition="crush")
    assert not Report.objects.filter(battle=battle).exists()


# --- finding 4: a closed season stays as it closed (R88) ---------------------------------------------

def test_registering_after_a_season_closed_leaves_its_table_alone(league):
    event, organizer, (ada, ben, *_rest) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush", actor=organizer)
    seasons.close_season(season, actor=organizer)
    before = standings_snapshot(season)
    services.register(event, General.objects.create(name="Eve"), actor=organizer)
    assert standings_snapshot(season) == before
    assert "Eve" not in before


def test_a_withdrawn_member_who_played_keeps_the_pages_working(league, client):
    event, organizer, (ada, ben, *_rest) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush", actor=organizer)
    services.withdraw(event, ben, actor=organizer, reason="Moved away.")
    assert client.get("/events/harbour/").status_code == 200
    assert client.get("/api/v1/events/harbour/standings/").status_code == 200
    assert client.get("/api/v1/events/harbour/scoreboard/").status_code == 200
    names = [g.name for _row, g in tables.season_standings(season).entries()]
    assert "Ben" in names  # his played battle stands


def test_a_member_with_battles_to_play_cannot_withdraw(league):
    event, organizer, (ada, ben, *_rest) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    seasons.schedule_battle(season, ada, ben, actor=organizer)
    with pytest.raises(Conflict, match="still to play"):
        services.withdraw(event, ben, actor=organizer)


# --- finding 5: a correction during a playoff re-decides the tie -------------------------------------

def corrected_during_the_playoff(league, winner, condition, reason):
    """The tied season closed (its playoff drawn), then the organizer corrects Ben's battle with Dov:
    the season read again and the playoff drawn before the correction."""
    event, organizer, members = league
    season = tied_top(event, organizer, members)
    playoff = seasons.close_season(season, actor=organizer).playoffs[0]
    ben_dov = season.battles.get(playoff=False, general_a=members[1])
    recording.record_result(ben_dov, kind="victory", winner=winner, condition=condition, actor=organizer,
                            reason=reason)
    season.refresh_from_db()
    return season, playoff


def test_a_correction_during_a_playoff_removes_the_stale_playoff_and_names_the_champion(league):
    event, organizer, (ada, ben, cyd, dov) = league
    # Corrected, Ben has 5 and Ada 3: no tie any more.
    season, playoff = corrected_during_the_playoff(league, ben, "shackle", "It was a Shackle, not a Crush.")
    assert not Battle.objects.filter(pk=playoff.pk).exists()  # nobody can play (and win) it now
    assert season.state == Season.State.CLOSED and season.champion == ben
    assert AuditEntry.objects.filter(action="playoff removed").exists()


def test_a_correction_that_changes_who_is_tied_replaces_the_playoff(league):
    event, organizer, (ada, ben, cyd, dov) = league
    # Corrected, Ada and Dov are the ones tied.
    season, playoff = corrected_during_the_playoff(league, dov, "crush", "Scorecard read the wrong way round.")
    assert not Battle.objects.filter(pk=playoff.pk).exists()
    assert {g.name for g in season.battles.get(playoff=True).generals()} == {"Ada", "Dov"}
    assert season.state == Season.State.PLAYOFF


# --- finding 6 and R112: an empty season closes ------------------------------------------------------

def test_an_empty_season_closes_without_champion_and_the_next_opens(league):
    """R112: a season that closes with no counted battle has no champion and says so."""
    event, organizer, _members = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    settled = seasons.close_season(season, actor=organizer)
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion is None and not settled.playoffs
    assert "no counted battle" in seasons.waiting_for(season) and "R112" in seasons.waiting_for(season)
    event.refresh_from_db()
    assert event.state == Event.State.OFF_SEASON
    assert seasons.open_season(event, "Summer", actor=organizer).number == 2


def test_members_tied_with_no_counted_battle_are_not_sent_to_playoffs(league):
    """R112: Cyd and Dov (no battle) are not tied with anybody for the title; Ada alone played and won."""
    event, organizer, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="stalemate", actor=organizer)
    settled = seasons.close_season(season, actor=organizer)
    # Ada and Ben: -1 each, below Cyd and Dov (0, no battle); only Ada and Ben may be champion.
    assert {frozenset(g.name for g in b.generals()) for b in settled.playoffs} == {frozenset({"Ada", "Ben"})}


# --- R111: battles per pair ---------------------------------------------------------------------------

def test_a_pair_meets_once_a_season_by_default(league):
    """R111: a scheduled battle or a report beyond the league's limit is refused with a sentence."""
    event, organizer, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush", actor=organizer)
    with pytest.raises(Conflict, match=r"Ada and Ben have 1 battle in Spring already; Harbour League allows 1 "
                                       r"per pair in a season \(R111\)"):
        seasons.schedule_battle(season, ada, ben, actor=organizer)
    with pytest.raises(Conflict, match="R111"):
        arranged.report_arranged_battle(season, user=ben.user, me=ben, opponent=ada, kind="stalemate")
    assert season.battles.count() == 1


def test_the_pair_limit_is_a_league_setting_fixed_when_the_first_season_opens(league):
    """R111: set before the first season opens; playoffs do not count towards it."""
    event, organizer, (ada, ben, cyd, dov) = league
    services.change_rules(event, pair_battles_per_season=2, actor=organizer)
    season = seasons.open_season(event, "Spring", actor=organizer)
    with pytest.raises(Conflict, match="R111"):
        services.change_rules(event, pair_battles_per_season=3, actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(season, ben, ada, kind="victory", winner=ben, condition="crush", actor=organizer)
    with pytest.raises(Conflict, match="allows 2 per pair"):
        seasons.schedule_battle(season, ada, ben, actor=organizer)
    settled = seasons.close_season(season, actor=organizer)  # tied: the playoff is not refused by R111
    assert len(settled.playoffs) == 1


# --- removing battles, reopening -------------------------------------------------------------------------

def test_removing_the_last_scheduled_battle_lets_a_closing_season_close(league):
    event, organizer, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush", actor=organizer)
    scheduled = seasons.schedule_battle(season, cyd, dov, actor=organizer)
    seasons.close_season(season, actor=organizer)
    assert "1 scheduled battle still to record or remove" in seasons.waiting_for(Season.objects.get(pk=season.pk))
    seasons.remove_battle(scheduled, actor=organizer, reason="Dov is away all month.")
    season.refresh_from_db()
    assert season.state == Season.State.CLOSED and season.champion == ada
    assert AuditEntry.objects.filter(action="battle removed", reason="Dov is away all month.").exists()


def test_a_reported_battle_cannot_be_removed(league):
    event, organizer, (ada, ben, *_rest) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    battle = seasons.schedule_battle(season, ada, ben, actor=organizer)
    reporting.submit_report(battle, user=ada.user, kind="stalemate")
    with pytest.raises(Conflict, match="has a report"):
        seasons.remove_battle(battle, actor=organizer)


def test_a_season_reopens_with_a_reason_until_a_later_one_opens(league):
    event, organizer, members = league
    season = tied_top(event, organizer, members)
    seasons.close_season(season, actor=organizer)
    with pytest.raises(DomainError, match="Say why"):
        seasons.reopen_season(season, actor=organizer, reason=" ")
    seasons.reopen_season(season, actor=organizer, reason="Cyd and Dov still want to play.")
    season.refresh_from_db()
    assert season.state == Season.State.OPEN and not season.battles.filter(playoff=True).exists()
    assert AuditEntry.objects.filter(action="season open", reason="Cyd and Dov still want to play.").exists()


# --- the end to end: two seasons ---------------------------------------------------------------------------

def test_two_seasons_the_first_stays_byte_for_byte_as_it_closed(league):
    """A repeated playoff (Stalemate, then another), a correction during the playoff, a second season with a
    disqualification, a registration and a withdrawal: the first season's table and champion never move."""
    event, organizer, members = league
    ada, ben, cyd, dov = members
    first = seasons.open_season(event, "Spring", actor=organizer)
    arranged.record_arranged_battle(first, ada, cyd, kind="victory", winner=ada, condition="crush", actor=organizer)
    arranged.record_arranged_battle(first, ben, dov, kind="victory", winner=ben, condition="shackle",
                                    actor=organizer)
    arranged.record_arranged_battle(first, cyd, dov, kind="victory", winner=cyd, condition="shackle",
                                    actor=organizer)
    # Ben 5, Ada 3, Cyd 5: Ben and Cyd are tied for the title.
    playoff = seasons.close_season(first, actor=organizer).playoffs[0]
    assert {g.name for g in playoff.generals()} == {"Ben", "Cyd"}
    recording.record_result(playoff, kind="stalemate", actor=organizer)
    replay = first.battles.get(playoff=True, kind="")  # another playoff battle, at once
    # A correction during the playoff: Ada's win was a Shackle, so Ada is tied too (three, Ada has the bye).
    ada_cyd = first.battles.get(playoff=False, general_a=ada)
    recording.record_result(ada_cyd, kind="victory", winner=ada, condition="shackle", actor=organizer,
                            reason="It was a Shackle.")
    first.refresh_from_db()
    assert first.state == Season.State.PLAYOFF and first.battles.filter(pk=replay.pk, kind="").exists()
    assert "Ada has a bye" in seasons.waiting_for(first)
    victory(replay, cyd, "overpower")
    final = first.battles.get(playoff=True, kind="")
    assert {g.name for g in final.generals()} == {"Ada", "Cyd"}
    victory(final, cyd, "overpower")
    first.refresh_from_db()
    assert first.state == Season.State.CLOSED and first.champion == cyd
    snapshot = standings_snapshot(first)

    second = seasons.open_season(event, "Summer", actor=organizer)
    arranged.record_arranged_battle(second, ben, cyd, kind="victory", winner=ben, condition="crush",
                                    actor=organizer)
    seasons.schedule_battle(second, ada, cyd, actor=organizer)
    services.disqualify(event, cyd, reason="conduct", details="Abuse at the table.", actor=organizer)
    services.register(event, General.objects.create(name="Eve"), actor=organizer)
    services.withdraw(event, dov, actor=organizer, reason="Moved away.")
    seasons.close_season(second, actor=organizer)
    second.refresh_from_db()
    assert second.champion == ben
    assert standings_snapshot(first) == snapshot
    first_rows = json.loads(snapshot)["rows"]
    assert not any(row["disqualified"] for row in first_rows) and json.loads(snapshot)["champion"] == "Cyd"
    assert any(row["disqualified"] and row["general"]["name"] == "Cyd"
               for row in json.loads(standings_snapshot(second))["rows"])


# --- closed is closed -------------------------------------------------------------------------------------

def test_a_closed_season_refuses_battles_disqualifications_and_results(league):
    event, organizer, (ada, ben, cyd, dov) = league
    season = seasons.open_season(event, "Spring", actor=organizer)
    battle = arranged.record_arranged_battle(season, ada, ben, kind="victory", winner=ada, condition="crush",
                                             actor=organizer).battle
    seasons.close_season(season, actor=organizer)
    with pytest.raises(Conflict, match="Spring is closed"):
        seasons.schedule_battle(season, cyd, dov, actor=organizer)
    with pytest.raises(Conflict, match="Every season of Harbour League is closed"):
        services.disqualify(event, ben, reason="conduct", actor=organizer)
    with pytest.raises(Conflict, match="Spring is closed"):
        recording.record_result(battle, kind="stalemate", actor=organizer, reason="Late change.")
    with pytest.raises(Conflict, match="closed"):
        seasons.close_season(season, actor=organizer)


# --- R112 for a tournament's Victor ------------------------------------------------------------------

def test_a_tournament_victor_needs_a_counted_battle():
    """R112: a general whose every battle was not fought (opponents disqualified, R23) is not the Victor."""
    from .helpers import make_tournament

    event, (alice, bruno, chen, dana) = make_tournament(4)
    services.form_groups(event, 2, "manual", manual=[[alice, bruno], [chen, dana]])
    services.disqualify(event, bruno, reason="conduct", details="Abuse.")  # Alice wins group A unfought
    victory(event.battles.get(general_a__in=[chen, dana], playoff=False, group__stage="qualifying"), chen)
    event.refresh_from_db()
    assert event.state == Event.State.FINAL
    services.disqualify(event, chen, reason="conduct", details="Abuse.")  # the final is not fought either
    event.refresh_from_db()
    assert event.state == Event.State.COMPLETE and event.victor is None
    assert AuditEntry.objects.filter(event=event, action="complete without victor").exists()


def test_decide_champion_passes_over_rows_without_a_counted_battle():
    from tournaments.domain import compute_standings, decide_champion
    from tournaments.domain.outcomes import BattleResult, Kind, Outcome

    rows = compute_standings(["1", "2", "3"], [BattleResult("1", "2", Outcome(Kind.STALEMATE))])
    decision = decide_champion(rows)  # "3" is top with 0 OPP but never played (R112)
    assert decision.decided is None and set(decision.tied) == {"1", "2"}
    assert decide_champion(compute_standings(["1", "2"], [])).tied == ()


# --- every season step asks tournaments.trust when an actor is given -------------------------------------

def test_the_season_steps_refuse_a_member_acting_as_an_organizer(league):
    from tournaments.domain import NotAllowed

    event, organizer, members = league
    ada, ben, cyd, dov = members
    with pytest.raises(NotAllowed, match="Only an organizer"):
        seasons.open_season(event, "Spring", actor=ada.user)
    assert not event.seasons.exists()
    season = seasons.open_season(event, "Spring", actor=organizer)
    refused = [
        lambda: seasons.schedule_battle(season, ben, cyd, actor=ada.user),
        lambda: arranged.record_arranged_battle(season, ben, cyd, kind="victory", winner=ben, condition="crush",
                                                actor=ada.user),
        lambda: seasons.close_season(season, actor=ada.user),
    ]
    for step in refused:
        with pytest.raises(NotAllowed, match="Only an organizer"):
            step()
    assert not season.battles.exists() and state_of(season) == Season.State.OPEN
    scheduled = seasons.schedule_battle(season, ben, cyd, actor=organizer)
    with pytest.raises(NotAllowed, match="Only an organizer"):
        seasons.remove_battle(scheduled, actor=ada.user, reason="Not mine to remove")
    assert season.battles.filter(pk=scheduled.pk).exists()
    seasons.remove_battle(scheduled, actor=organizer)
    seasons.close_season(season, actor=organizer)
    with pytest.raises(NotAllowed, match="Only an organizer"):
        seasons.reopen_season(season, actor=ada.user, reason="I want to play more")
    assert state_of(season) == Season.State.CLOSED
    # A member still reports the battle they arranged (it waits for the opponent, R75).
    second = seasons.open_season(event, "Summer", actor=organizer)
    report = arranged.report_arranged_battle(second, user=ada.user, me=ada, opponent=ben, kind="stalemate")
    assert report.status == Report.Status.AWAITING_OPPONENT and report.battle.season == second
