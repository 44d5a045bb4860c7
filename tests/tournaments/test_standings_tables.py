"""A table's generals (tournaments/standings/tables.py): read by one statement compiled once for every group
or season, and given back as the ORM would give them."""
import pytest
from django.db.models.signals import post_init

from tournaments.events import services
from tournaments.models import Battle, Disqualification, Event, General, Group
from tournaments.standings import tables

from .helpers import make_tournament

pytestmark = pytest.mark.django_db


def flagged(table):
    return {general.name for row, general in table.entries() if row.disqualified}


def test_each_events_table_flags_only_that_events_disqualifications():
    """The same general in two events, disqualified in one (R23): only that event's group marks him,
    whichever table is read first."""
    first, generals = make_tournament(8, slug="spring-open")
    second = services.create_event(name="Summer Open", slug="summer-open")
    for general in generals:
        services.register(second, general)
    for event in (first, second):
        services.form_groups(event, 2, "random", seed=3)
    services.disqualify(first, generals[0], reason=Disqualification.Reason.CONDUCT, details="Abuse.")
    spring, summer = (event.groups.get(members__general=generals[0]) for event in (first, second))

    assert flagged(tables.group_standings(summer)) == set()
    assert flagged(tables.group_standings(spring)) == {generals[0].name}
    assert flagged(tables.group_standings(summer)) == set()
    assert {g for _row, g in tables.group_standings(summer).entries()} == {m.general for m in summer.members.all()}


def test_a_tables_generals_have_every_field_and_can_be_saved():
    event, _generals = make_tournament(8)
    services.form_groups(event, 2, "random", seed=5)
    table = tables.group_standings(event.groups.get(index=0))
    for _row, general in table.entries():
        stored = General.objects.get(pk=general.pk)
        assert {f.attname: getattr(general, f.attname) for f in General._meta.concrete_fields} == {
            f.attname: getattr(stored, f.attname) for f in General._meta.concrete_fields}  # created_at: read late
        assert general == stored and not general._state.adding
    renamed = table.entries()[0][1]
    renamed.name = "Renamed"
    renamed.save()
    assert General.objects.get(pk=renamed.pk).name == "Renamed"


def test_a_listener_to_generals_being_built_hears_of_every_general_of_a_table():
    event, _generals = make_tournament(8)
    services.form_groups(event, 2, "random", seed=5)
    group = event.groups.get(index=0)
    heard = []

    def listen(sender, instance, **kwargs):
        heard.append(instance.pk)

    post_init.connect(listen, sender=General)
    try:
        table = tables.group_standings(group)
    finally:
        post_init.disconnect(listen, sender=General)
    members = sorted(m.general_id for m in group.members.all())
    assert sorted(heard) == members == sorted(g.pk for _row, g in table.entries())


def test_a_general_outside_the_group_keeps_a_flagged_row():
    """A battle of the group names a general who is not (any more) one of its members, and who was
    disqualified: the table keeps the battle, and marks him."""
    event, _generals = make_tournament(8, slug="outside")
    services.form_groups(event, 2, "random", seed=5)
    group = event.groups.get(index=0)
    member = group.members.first().general
    stranger = General.objects.create(name="Stranger")
    Disqualification.objects.create(event=event, general=stranger, reason=Disqualification.Reason.OTHER)
    Battle.objects.create(event=event, group=group, round=9, number=99, general_a=member, general_b=stranger,
                          kind=Battle.Kind.VICTORY, winner=stranger, condition="crush")
    table = tables.group_standings(group)
    row = next(row for row, g in table.entries() if g == stranger)
    assert row.disqualified and row.opp == 3 and flagged(table) == {"Stranger"}


def test_a_groups_table_takes_two_statements(django_assert_num_queries):
    event, _generals = make_tournament(8, slug="counted")
    services.form_groups(event, 2, "random", seed=5)
    group = Group.objects.select_related("event").get(event=event, index=0)
    tables.group_standings(group)
    with django_assert_num_queries(2):  # the members with their disqualification; the counters
        tables.group_standings(group)


def test_a_members_query_whose_ids_are_not_parameters_is_refused(monkeypatch):
    """The statement is compiled once for every table: a query whose SQL or parameters depend on the ids
    otherwise than by taking them as they are would give one table's members to another."""
    tables._members_statement.cache_clear()
    monkeypatch.setitem(tables._MEMBERS, "group", lambda scope, event_id, number=None: (
        General.objects.filter(group_memberships__group_id=scope + 1),
        Disqualification.objects.filter(event_id=event_id)))
    event = Event.objects.create(name="E", slug="e")
    group = Group.objects.create(event=event, stage=Group.Stage.QUALIFYING, index=0, name="Group A")
    try:
        with pytest.raises(tables.StatementError):
            tables.group_standings(group)
    finally:
        tables._members_statement.cache_clear()
