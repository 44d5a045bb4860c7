"""Forfeits (R22) and disqualification (R23) through the services, with their effect on standings."""
import pytest

from tournaments.domain import Conflict, DomainError
from tournaments.events import services
from tournaments.models import AuditEntry, Battle, Disqualification, Event, Group
from tournaments.results import recording
from tournaments.standings import tables

from .helpers import make_tournament, open_battles, victory

pytestmark = pytest.mark.django_db


def row_of(table, general):
    return next(row for row, g in table.entries() if g == general)


@pytest.fixture
def group_of_four():
    event, generals = make_tournament(8, forfeits_to_disqualify=2)
    services.form_groups(event, 2, "random", seed=11)
    group = event.groups.get(index=0)
    return event, group, [m.general for m in group.members.all()]


def battle_between(group, x, y):
    return group.battles.get(general_a__in=[x, y], general_b__in=[x, y])


def test_disqualification_mid_stage_gives_each_remaining_opponent_one_opp(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    victory(battle_between(group, a, b), a, "crush")  # played: stands (R23)
    services.disqualify(event, a, reason=Disqualification.Reason.CONDUCT, details="Abusive to the judge")
    table = tables.group_standings(group)
    assert row_of(table, a).disqualified
    assert row_of(table, a).opp == 3
    for opponent in (c, d):
        row = row_of(table, opponent)
        assert row.opp == 1 and row.victories == 0  # 1 OPP, not a Victory (R23)
    assert battle_between(group, a, c).kind == Battle.Kind.UNPLAYED_DQ
    assert row_of(table, b).opp == 0


def test_a_disqualified_general_cannot_advance_even_on_top(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    for opponent in (b, c, d):
        victory(battle_between(group, a, opponent), a, "shackle")
    victory(battle_between(group, b, c), b, "crush")
    victory(battle_between(group, b, d), b, "blunt")
    services.disqualify(event, a, reason=Disqualification.Reason.OTHER, details="Used a marked board")
    victory(battle_between(group, c, d), c, "overpower")
    group.refresh_from_db()
    table = tables.group_standings(group)
    assert table.rows[0].general == a.key and table.rows[0].disqualified
    assert group.winner == b


def test_forfeits_reaching_the_threshold_offer_disqualification(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    first = recording.record_result(battle_between(group, a, b), kind=Battle.Kind.FORFEIT, forfeited_by=a)
    assert first.offer_disqualification is None
    second = recording.record_result(battle_between(group, a, c), kind=Battle.Kind.FORFEIT, forfeited_by=a)
    assert second.offer_disqualification == a
    table = tables.group_standings(group)
    assert row_of(table, b).opp == 1 and row_of(table, b).victories == 1  # R22 default award
    assert row_of(table, a).forfeits == 2
    services.disqualify(event, a, reason=Disqualification.Reason.FORFEITS)
    assert battle_between(group, a, d).kind == Battle.Kind.UNPLAYED_DQ


def test_a_custom_forfeit_award_applies_to_the_whole_event():
    event, _ = make_tournament(4, forfeit_award_opp=2, forfeit_counts_as_victory=False)
    services.form_groups(event, 2, "random", seed=1)
    group = event.groups.get(index=0)
    battle = group.battles.get()
    recording.record_result(battle, kind=Battle.Kind.FORFEIT, forfeited_by=battle.general_a)
    row = row_of(tables.group_standings(group), battle.general_b)
    assert row.opp == 2 and row.victories == 0


def test_refused_general_respect_disqualifies_at_once(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    battle = battle_between(group, a, b)
    services.disqualify_for_refused_respect(battle, b)
    dq = Disqualification.objects.get(event=event, general=b)
    assert dq.reason == Disqualification.Reason.RESPECT
    battle.refresh_from_db()
    assert battle.kind == Battle.Kind.UNPLAYED_DQ
    assert row_of(tables.group_standings(group), a).opp == 1


def test_a_result_cannot_say_respect_was_refused(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    with pytest.raises(DomainError, match="General Respect"):
        victory(battle_between(group, a, b), a, respect_shown=False)


def test_disqualifying_twice_is_refused_and_audited_once(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    services.disqualify(event, c, reason=Disqualification.Reason.CONDUCT)
    with pytest.raises(Conflict):
        services.disqualify(event, c, reason=Disqualification.Reason.CONDUCT)
    assert AuditEntry.objects.filter(event=event, action="disqualified").count() == 1


def test_disqualifying_a_playoff_general_resolves_the_tie(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    # a and b tie on every figure: each beats c and d by shackle, their own battle is a stalemate.
    for winner in (a, b):
        for loser in (c, d):
            victory(battle_between(group, winner, loser), winner)
    recording.record_result(battle_between(group, a, b), kind=Battle.Kind.STALEMATE)
    victory(battle_between(group, c, d), c)
    assert len(open_battles(group, playoff=True)) == 1
    services.disqualify(event, a, reason=Disqualification.Reason.CONDUCT)
    group.refresh_from_db()
    assert group.winner == b
    assert not open_battles(group, playoff=True)


def test_the_final_group_is_formed_from_group_winners_only_when_every_group_is_done(group_of_four):
    event, group, (a, b, c, d) = group_of_four
    for battle in open_battles(group):
        victory(battle, battle.general_a)
    event.refresh_from_db()
    assert event.state == Event.State.QUALIFYING
    assert not event.groups.filter(stage=Group.Stage.FINAL).exists()
