"""A general's record, head to head, recent battles and the directory, counted on the worked events of
tests/tournaments/worked_profiles.py: the numbers a player would check against the event pages."""
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from rules_engine.conditions import Condition
from tests.tournaments.worked_profiles import battle_of, build
from tournaments import trust
from tournaments.models import Battle, Event, General, Report
from tournaments.profiles.directory import PAGE_SIZE, directory, recent_battles
from tournaments.profiles.records import head_to_head, opponents, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def worked():
    return build()


def stranger_events():
    return trust.visible_events(AnonymousUser())


def test_a_stranger_sees_alices_record_from_the_published_event_only(worked):
    alice = worked.generals["Alice"]
    seen = record(alice, stranger_events())
    totals = seen.totals
    assert (totals.battles, totals.victories, totals.stalemates, totals.resolves, totals.defeats) == (3, 1, 1, 0, 1)
    assert (totals.forfeits_given, totals.forfeits_received, totals.not_fought) == (0, 1, 0)
    assert totals.victories_by_condition[Condition.SHACKLE] == 1
    assert totals.victories_by_condition[Condition.PARALYZE] == 0
    assert sum(totals.victories_by_condition.values()) == totals.victories
    [spring] = seen.events
    assert spring.event.slug == "spring-open" and spring.opp == 5  # Shackle 5, Stalemate -1, forfeit award 1
    assert spring.figures.battles == 3
    assert (spring.place.label, spring.place.table, spring.place.final, spring.place.victor) == (
        "2", "Final Group", True, False)


def test_the_opp_per_event_equal_the_standings_tables_added_up(worked):
    """The record reuses the domain's OPP (R21-R23): Bruno's Spring Open OPP is his group's table's."""
    from tournaments.standings.tables import group_standings

    bruno = worked.generals["Bruno"]
    group = worked.spring.groups.get(stage="qualifying", index=0)
    table_opp = next(row.opp for row, general in group_standings(group).entries() if general.pk == bruno.pk)
    [spring] = record(bruno, stranger_events()).events
    assert spring.opp == table_opp == 3 - 10  # Crush 3, Resolve -10, the defeat by Shackle 0
    assert spring.place.label == "3" and spring.place.table == "Group A" and spring.place.final  # Chen 0 OPP is 2nd


def test_the_victor_is_first_and_a_forfeit_given_is_counted_apart(worked):
    [emil_spring] = record(worked.generals["Emil"], stranger_events()).events
    assert emil_spring.place.victor and emil_spring.place.label == "1" and emil_spring.opp == 15 + 2
    dana = record(worked.generals["Dana"], stranger_events()).totals
    assert (dana.battles, dana.forfeits_given, dana.resolves, dana.defeats, dana.victories) == (2, 1, 1, 1, 0)


def test_the_unpublished_event_is_absent_for_a_stranger_and_present_for_its_organizer(worked):
    alice = worked.generals["Alice"]
    stranger = get_user_model().objects.create_user("sam")
    for events in (stranger_events(), trust.visible_events(stranger)):
        seen = record(alice, events)
        assert "secret-cup" not in {line.event.slug for line in seen.events}
        assert all(item.battle.event.slug != "secret-cup" for item in recent_battles(alice, events))
        assert len(head_to_head(alice, worked.generals["Bruno"], events).battles) == 1
    organizer_view = record(alice, trust.visible_events(worked.olga))
    assert [line.event.slug for line in organizer_view.events] == ["secret-cup", "spring-open"]
    totals = organizer_view.totals
    assert (totals.battles, totals.victories, totals.victories_by_condition[Condition.PARALYZE]) == (4, 2, 1)
    secret = organizer_view.events[0]
    assert secret.opp == 3 and secret.place.label == "1" and not secret.place.final  # in progress: so far
    h2h = head_to_head(alice, worked.generals["Bruno"], trust.visible_events(worked.olga))
    assert (h2h.general_figures.victories, h2h.other_figures.victories, len(h2h.battles)) == (2, 0, 2)


def test_head_to_head_counts_each_side(worked):
    g = worked.generals
    alice_chen = head_to_head(g["Alice"], g["Chen"], stranger_events())
    assert (alice_chen.general_figures.stalemates, alice_chen.other_figures.stalemates) == (1, 1)
    assert alice_chen.general_figures.victories == alice_chen.other_figures.victories == 0
    alice_dana = head_to_head(g["Alice"], g["Dana"], stranger_events())
    assert (alice_dana.general_figures.forfeits_received, alice_dana.other_figures.forfeits_given) == (1, 1)
    assert alice_dana.general_figures.battles == 0  # a forfeit is not a battle fought
    never = head_to_head(g["Alice"], g["Hana"], stranger_events())
    assert never.battles == [] and never.general_figures.victories == 0
    assert [o.name for o in opponents(g["Alice"], stranger_events())] == ["Bruno", "Chen", "Dana", "Emil"]


def test_a_playoff_battle_is_a_battle_fought_that_gives_no_opp(worked):
    """R24: a playoff never changes OPP; it is a real battle, so the record counts it."""
    g = worked.generals
    event = worked.spring
    playoff = Battle.objects.create(event=event, group=event.groups.get(stage="final"), round=2, number=9,
                                    general_a=g["Alice"], general_b=g["Emil"], playoff=True,
                                    kind=Battle.Kind.VICTORY, winner=g["Alice"], condition="crush")
    [spring] = record(g["Alice"], stranger_events()).events
    assert spring.figures.battles == 4 and spring.figures.victories == 2 and spring.opp == 5
    assert playoff.pk in [item.battle.pk for item in recent_battles(g["Alice"], stranger_events())]


def test_recent_battles_offer_the_replay_to_whom_the_replay_viewer_shows_it(worked):
    g = worked.generals
    battle = battle_of(worked.spring, g["Alice"], g["Bruno"])
    Report.objects.create(battle=battle, kind=Battle.Kind.VICTORY, winner=g["Alice"], condition="shackle",
                          replay="(a replay log)", status=Report.Status.CONFIRMED)

    def offered(viewer):
        items = recent_battles(g["Alice"], stranger_events(), viewer=viewer)
        return {item.battle.pk: item.replay_visible for item in items}

    assert offered(worked.alice_user)[battle.pk] is True  # one of its generals
    assert offered(AnonymousUser())[battle.pk] is False
    assert offered(get_user_model().objects.create_user("sam"))[battle.pk] is False
    assert not any(offered(worked.alice_user)[pk] for pk in offered(worked.alice_user) if pk != battle.pk)
    items = recent_battles(g["Alice"], stranger_events(), limit=2)
    assert len(items) == 2 and items[0].opponent == g["Emil"]  # the final, decided last


def test_the_directory_searches_names_ignoring_case_and_spaces_and_counts_events_played(worked):
    General.objects.create(name="Dana  Marie")
    page = directory("  dAnAm ", stranger_events())
    assert [general.name for general in page] == ["Dana  Marie"]
    page = directory("dana", stranger_events())
    assert {general.name: general.events_played for general in page} == {"Dana": 1, "Dana  Marie": 0}
    organizer_page = directory("alice", trust.visible_events(worked.olga))
    assert [general.events_played for general in organizer_page] == [2]


def test_the_directory_is_paged(worked):
    General.objects.bulk_create([General(name=f"Recruit {n:02}", name_key=f"recruit{n:02}") for n in range(30)])
    first = directory("recruit", stranger_events())
    assert len(first) == PAGE_SIZE == 25 and first.paginator.count == 30 and first.has_next()
    last = directory("recruit", stranger_events(), page=2)
    assert [g.name for g in last] == [f"Recruit {n}" for n in range(25, 30)]
    assert directory("recruit", stranger_events(), page="nonsense").number == 1
    assert directory("recruit", stranger_events(), page=99).number == 2


def test_an_event_without_tables_yet_lists_no_place(worked):
    late = Event.objects.create(name="Late Open", slug="late-open")
    from tournaments.events import services

    services.register(late, worked.generals["Alice"], actor=worked.alice_user)
    lines = {line.event.slug: line for line in record(worked.generals["Alice"], stranger_events()).events}
    assert lines["late-open"].place is None and lines["late-open"].opp == 0
