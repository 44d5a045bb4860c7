"""Whole tournaments run through the services, from registration to the crowned Victor."""
import pytest

from tournaments.domain import Conflict, DomainError, possible_partitions
from tournaments.events import services
from tournaments.models import AuditEntry, Battle, Event, Group
from tournaments.results import recording
from tournaments.standings import tables

from .helpers import make_tournament, open_battles, play_group_strongest_wins, victory

pytestmark = pytest.mark.django_db

FIELDS = [(n, groups) for n in (4, 8, 16, 32) for groups, _size in possible_partitions(n)]


@pytest.mark.parametrize(("field", "group_count"), FIELDS, ids=[f"{n}-in-{g}-groups" for n, g in FIELDS])
def test_whole_event_crowns_the_strongest_general(field, group_count):
    event, generals = make_tournament(field)
    services.close_registration(event)
    services.form_groups(event, group_count, "random", seed=7)
    event.refresh_from_db()
    assert event.state == Event.State.QUALIFYING
    size = field // group_count
    qualifying = list(event.groups.filter(stage=Group.Stage.QUALIFYING))
    assert [g.members.count() for g in qualifying] == [size] * group_count
    assert all(g.battles.count() == size * (size - 1) // 2 for g in qualifying)

    strength = [g.pk for g in reversed(generals)]  # the last registered is the strongest
    for group in qualifying:
        play_group_strongest_wins(group, strength)
    event.refresh_from_db()
    final = event.groups.get(stage=Group.Stage.FINAL)
    assert event.state == Event.State.FINAL
    expected_finalists = {min((m.general for m in g.members.all()), key=lambda x: strength.index(x.pk)).pk
                          for g in qualifying}
    assert {m.general_id for m in final.members.all()} == expected_finalists

    play_group_strongest_wins(final, strength)
    event.refresh_from_db()
    assert event.state == Event.State.COMPLETE
    assert event.victor == generals[-1]
    assert AuditEntry.objects.filter(event=event, action="victor crowned", subject=generals[-1].name).exists()


def test_every_pair_meets_once_in_rounds_where_everyone_plays_once():
    event, generals = make_tournament(8)
    services.form_groups(event, 2, "random", seed=3)
    for group in event.groups.all():
        battles = list(group.battles.all())
        pairs = {frozenset((b.general_a_id, b.general_b_id)) for b in battles}
        assert len(pairs) == len(battles) == 6
        for round_number in {b.round for b in battles}:
            in_round = [g for b in battles if b.round == round_number for g in (b.general_a_id, b.general_b_id)]
            assert len(in_round) == len(set(in_round)) == 4


def test_random_groups_are_reproducible_from_the_recorded_seed():
    first, _ = make_tournament(8, slug="first")
    services.form_groups(first, 2, "random", seed=99)
    first.refresh_from_db()
    preview_names = [[g.name for g in group] for group in services.plan_groups(
        make_tournament(8, slug="second")[0], 2, "random", seed=first.group_seed).groups]
    formed = [[m.general.name for m in group.members.all()] for group in first.groups.order_by("index")]
    assert first.group_seed == 99
    assert preview_names == formed


def test_seeded_groups_follow_snake_order():
    event, generals = make_tournament(8)
    for seed, registration in enumerate(event.registrations.order_by("number"), start=1):
        registration.seed = seed
        registration.save()
    services.form_groups(event, 2, "seeded")
    groups = [[m.general.name for m in g.members.all()] for g in event.groups.order_by("index")]
    names = [g.name for g in generals]
    assert groups == [[names[0], names[3], names[4], names[7]], [names[1], names[2], names[5], names[6]]]


def test_impossible_partition_names_the_counts_that_work():
    event, _ = make_tournament(8)
    with pytest.raises(DomainError) as refused:
        services.form_groups(event, 3)
    assert "2 groups of 4" in str(refused.value) and "4 groups of 2" in str(refused.value)
    assert not event.groups.exists()


def test_a_field_of_six_is_told_what_to_change():
    event, _ = make_tournament(6)
    with pytest.raises(DomainError) as refused:
        services.form_groups(event, 2)
    assert "register 2 more or remove 2" in str(refused.value)
    event.refresh_from_db()
    assert event.state == Event.State.REGISTRATION


def test_odd_field_eliminates_the_last_registrant_and_registration_stays_closed():  # R71, R78
    event, generals = make_tournament(9)
    assert "Ines (registered last) is eliminated" in services.odd_registration_warning(event)
    eliminated = services.close_registration(event)
    assert eliminated.general == generals[-1]
    assert "odd" in eliminated.status_reason
    assert event.active_registrations().count() == 8
    event.refresh_from_db()
    assert event.state == Event.State.REGISTRATION_CLOSED

    from tournaments.models import General
    latecomer = General.objects.create(name="Latecomer")
    with pytest.raises(Conflict, match="Registration for Test Open is closed"):
        services.register(event, latecomer)
    assert event.active_registrations().count() == 8
    assert not event.registrations.filter(general=latecomer).exists()


def test_manual_groups_with_a_missing_general_save_nothing():
    event, generals = make_tournament(8)
    with pytest.raises(DomainError) as refused:
        services.form_groups(event, 2, "manual", manual=[generals[:4], generals[4:7]])
    assert generals[7].name in str(refused.value) or str(generals[7].pk) in str(refused.value)
    assert not event.groups.exists() and not event.battles.exists()


def test_variants_cannot_change_once_the_event_has_started():
    event, _ = make_tournament(8)
    services.change_rules(event, variants=["double_time"])
    services.form_groups(event, 2, "random", seed=1)
    with pytest.raises(Conflict) as refused:
        services.change_rules(event, variants=["terrain"])
    assert "cannot change" in str(refused.value)
    event.refresh_from_db()
    assert event.variants == ["double_time"]


def test_army_recruiting_needs_a_battalion_count_of_at_least_six():
    with pytest.raises(DomainError) as refused:
        services.create_event(name="Recruits", slug="recruits", variants=["army_recruiting"], battalion_count=4)
    assert refused.value.field == "battalion_count"
    assert not Event.objects.filter(slug="recruits").exists()


def test_correcting_a_result_needs_a_reason_and_keeps_what_it_was():
    event, generals = make_tournament(4)
    services.form_groups(event, 2, "random", seed=1)
    battle = event.battles.first()
    victory(battle, battle.general_a, "crush")
    with pytest.raises(DomainError, match="reason"):
        victory(battle, battle.general_b, "crush")
    victory(battle, battle.general_b, "blunt", reason="Scorecard misread at table 3")
    entry = AuditEntry.objects.get(event=event, action="result corrected")
    assert entry.before["winner"] == battle.general_a.name and entry.before["condition"] == "crush"
    assert entry.after["winner"] == battle.general_b.name and entry.reason == "Scorecard misread at table 3"


def test_a_result_for_someone_outside_the_battle_is_refused():
    event, generals = make_tournament(8)
    services.form_groups(event, 2, "random", seed=1)
    battle = event.battles.first()
    outsider = next(g for g in generals if not battle.involves(g))
    with pytest.raises(DomainError) as refused:
        victory(battle, outsider)
    assert refused.value.field == "winner"
    battle.refresh_from_db()
    assert not battle.kind


def test_qualifying_results_are_frozen_once_the_final_group_exists():
    event, generals = make_tournament(4)
    services.form_groups(event, 2, "random", seed=1)
    strength = [g.pk for g in generals]
    for group in event.groups.all():
        play_group_strongest_wins(group, strength)
    qualifying_battle = event.battles.filter(group__stage=Group.Stage.QUALIFYING).first()
    with pytest.raises(Conflict):
        victory(qualifying_battle, qualifying_battle.general_b, reason="late appeal")


def test_three_way_tie_goes_to_a_playoff_knockout():
    event, generals = make_tournament(8)
    services.form_groups(event, 2, "random", seed=5)
    group = event.groups.get(index=0)
    a, b, c, d = [m.general for m in group.members.all()]
    cycle = {frozenset((a.pk, b.pk)): a, frozenset((b.pk, c.pk)): b, frozenset((c.pk, a.pk)): c}
    for battle in open_battles(group):
        pair = frozenset((battle.general_a_id, battle.general_b_id))
        winner = cycle.get(pair) or next(g for g in battle.generals() if g != d)
        victory(battle, winner)
    group.refresh_from_db()
    assert group.winner is None
    first_round = open_battles(group, playoff=True)
    assert len(first_round) == 1  # three tied: one semi-final, the third general has a bye
    semi = first_round[0]
    bye = ({a, b, c} - set(semi.generals())).pop()
    victory(semi, semi.general_a)
    final = open_battles(group, playoff=True)
    assert len(final) == 1 and set(final[0].generals()) == {semi.general_a, bye}
    victory(final[0], bye)
    group.refresh_from_db()
    assert group.winner == bye
    standings = tables.group_standings(group)
    assert [row.opp for row in standings.rows][:3] == [10, 10, 10]  # playoffs never change OPP (R24)


def test_a_playoff_stalemate_is_followed_by_another_playoff():
    event, generals = make_tournament(4)
    services.form_groups(event, 2, "random", seed=2)
    for group in event.groups.all():
        battle = group.battles.get()
        victory(battle, battle.general_a)
    final = event.groups.get(stage=Group.Stage.FINAL)
    (battle,) = open_battles(final)
    recording.record_result(battle, kind=Battle.Kind.STALEMATE)
    event.refresh_from_db()
    assert event.state == Event.State.PLAYOFF
    (playoff,) = open_battles(final, playoff=True)
    recording.record_result(playoff, kind=Battle.Kind.STALEMATE)
    (second,) = open_battles(final, playoff=True)
    assert second.pk != playoff.pk and set(second.generals()) == set(playoff.generals())
    victory(second, second.general_b, "overpower")
    event.refresh_from_db()
    assert event.state == Event.State.COMPLETE and event.victor == second.general_b
    rows = tables.group_standings(final).rows
    assert [row.opp for row in rows] == [-1, -1]  # only the scheduled stalemate counts (R21, R24)
