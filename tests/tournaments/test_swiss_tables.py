"""Multiplayer tables (Warlord CCG, tables of 3): seated by score with no repeat table-mates while
avoidable; a table's result counts only when every other player at the table confirmed it or an
organizer decided; placement points make the standings; the pages show and take all of it."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.events import services
from tournaments.models import AuditEntry, Event, General, Table, TableReport
from tournaments.swiss import rounds, standings, tables

pytestmark = pytest.mark.django_db
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fa")


@pytest.fixture
def organizer():
    return get_user_model().objects.create_user("olga", password="pw", is_staff=True, is_superuser=True)


@pytest.fixture
def event(organizer):
    event = services.create_event(name="Storm Tables", slug="storm-tables", actor=organizer, game="warlord-ccg-4e",
                                  table_size=3, swiss_rounds=2, placement_points=[3, 1, 0])
    for name in NAMES:
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=organizer)
    return Event.objects.get(pk=event.pk)


def players_of(table):
    return [General.objects.get(pk=pk) for pk in tables.seated_ids(table)]


def test_a_round_seats_two_tables_of_three_and_the_next_round_mixes_them(event, organizer):
    first = rounds.pair_next_round(event, actor=organizer)
    seated = [set(tables.seated_ids(t)) for t in first.tables.all()]
    assert sorted(map(len, seated)) == [3, 3] and set.union(*seated) == {g.pk for g in General.objects.all()}
    for table in first.tables.all():
        a, b, c = players_of(table)
        tables.decide_table(table, user=organizer, eliminations=[c.pk, b.pk])
    second = rounds.pair_next_round(Event.objects.get(pk=event.pk), actor=organizer)
    for table in second.tables.all():
        again = set(tables.seated_ids(table))
        # six players at two tables of three: every table of round 2 mixes the two of round 1
        assert not any(again <= before for before in seated)
        assert all(len(again & before) <= 2 for before in seated)


def test_a_report_counts_only_when_every_other_player_confirms(event, organizer):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    report = tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    assert report.status == TableReport.Status.AWAITING and not Table.objects.get(pk=table.pk).is_decided
    tables.confirm_table(report, user=second.user)
    assert not Table.objects.get(pk=table.pk).is_decided  # the third player has not confirmed yet
    with pytest.raises(NotAllowed):
        tables.confirm_table(report, user=organizer)  # an organizer decides, never confirms for a player
    tables.confirm_table(report, user=third.user)
    counted = Table.objects.get(pk=table.pk)
    assert counted.eliminations == [third.pk, second.pk] and counted.finished is True
    rows = {row.id: row for row in standings.compute(event)}
    assert (rows[first.pk].score, rows[second.pk].score, rows[third.pk].score) == (3, 1, 0)
    assert AuditEntry.objects.filter(event=event, action="table result recorded").count() == 1


def test_a_dispute_stops_the_report_and_the_organizer_decides_with_a_reason(event, organizer):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    report = tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    tables.dispute_table(report, user=third.user, reason="I was eliminated last, not first.")
    with pytest.raises(Conflict):
        tables.confirm_table(TableReport.objects.get(pk=report.pk), user=second.user)
    with pytest.raises(DomainError) as refused:
        tables.decide_table(table, user=organizer, eliminations=[second.pk, third.pk])
    assert refused.value.field == "reason"
    tables.decide_table(table, user=organizer, eliminations=[second.pk, third.pk], reason="Judge saw the table.")
    assert Table.objects.get(pk=table.pk).eliminations == [second.pk, third.pk]
    assert TableReport.objects.get(pk=report.pk).status == TableReport.Status.DECIDED


def test_two_players_reporting_different_orders_dispute_both(event, organizer):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    tables.report_table(table, user=second.user, eliminations=[third.pk, first.pk])
    assert set(TableReport.objects.filter(table=table).values_list("status", flat=True)) == {"disputed"}
    assert not Table.objects.get(pk=table.pk).is_decided


def test_a_second_report_of_the_same_order_confirms_the_first(event, organizer):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    tables.report_table(table, user=second.user, eliminations=[third.pk, second.pk])
    tables.report_table(table, user=third.user, eliminations=[third.pk, second.pk])
    assert Table.objects.get(pk=table.pk).eliminations == [third.pk, second.pk]


def test_outsiders_and_impossible_orders_are_refused_with_names(event, organizer):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    outsider = next(g for g in General.objects.all() if g.pk not in tables.seated_ids(table))
    with pytest.raises(NotAllowed):
        tables.report_table(table, user=outsider.user, eliminations=[third.pk, second.pk])
    with pytest.raises(DomainError) as twice:
        tables.report_table(table, user=first.user, eliminations=[third.pk, third.pk])
    assert third.name in str(twice.value) and "twice" in str(twice.value)
    with pytest.raises(DomainError) as stranger:
        tables.report_table(table, user=first.user, eliminations=[outsider.pk, second.pk])
    assert "not seated" in str(stranger.value)
    with pytest.raises(DomainError):  # finished with two players left: who won?
        tables.report_table(table, user=first.user, eliminations=[third.pk])
    report = tables.report_table(table, user=first.user, eliminations=[third.pk], finished=False)
    assert report.finished is False  # time ran out: first and second share the places they cover
    assert not TableReport.objects.filter(table=table).exclude(pk=report.pk).exclude(status="superseded").exists()


def test_the_event_completes_after_its_last_round_and_the_pages_take_a_report(event, organizer, client):
    for _round in range(2):
        paired = rounds.pair_next_round(Event.objects.get(pk=event.pk), actor=organizer)
        for table in paired.tables.all():
            a, b, c = players_of(table)
            tables.decide_table(table, user=organizer, eliminations=[c.pk, b.pk])
    event.refresh_from_db()
    assert event.state == Event.State.COMPLETE
    table = Table.objects.filter(event=event).first()
    client.force_login(organizer)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "by place at the table: 1. 3, 2. 1, 3. 0" in page and f"/tables/{table.pk}/" in page
    assert client.get(f"/events/{event.slug}/print/pairings/?round=Swiss+round+1").status_code == 200


def test_a_player_reports_on_the_table_page(event, organizer, client):
    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    client.force_login(first.user)
    response = client.post(f"/tables/{table.pk}/", {"action": "report", "out_1": third.pk, "out_2": second.pk,
                                                    "finished": "on"})
    assert response.status_code == 302
    client.force_login(second.user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Confirm this result" in page and f"{first.name} wins" in page
    report = TableReport.objects.get(table=table)
    client.post(f"/tables/{table.pk}/", {"action": "confirm", "report": report.pk})
    client.force_login(third.user)
    client.post(f"/tables/{table.pk}/", {"action": "confirm", "report": report.pk})
    assert Table.objects.get(pk=table.pk).is_decided


def test_a_table_report_counts_by_itself_when_the_window_passes_without_a_dispute(event, organizer):
    """R75 for tables: the other players' time is the event's confirmation window."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.results import confirmation

    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    report = tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    assert report.confirm_by is not None
    tables.confirm_table(report, user=second.user)  # the third player never answers
    assert confirmation.confirm_expired(now=timezone.now() + timedelta(minutes=5)) == []
    later = timezone.now() + event.confirmation_window + timedelta(minutes=1)
    [confirmed] = confirmation.confirm_expired(now=later)
    assert confirmed.report.pk == report.pk and third.name in confirmed.report.status_reason
    assert Table.objects.get(pk=table.pk).eliminations == [third.pk, second.pk]


def test_a_disputed_table_report_never_counts_by_itself(event, organizer):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.results import confirmation

    table = rounds.pair_next_round(event, actor=organizer).tables.first()
    first, second, third = players_of(table)
    report = tables.report_table(table, user=first.user, eliminations=[third.pk, second.pk])
    tables.dispute_table(report, user=third.user, reason="Wrong order.")
    assert confirmation.confirm_expired(now=timezone.now() + timedelta(days=40)) == []
    assert not Table.objects.get(pk=table.pk).is_decided


def test_with_a_walk_in_at_the_table_nobody_counts_alone(organizer):
    """A general without an account cannot answer: the report waits for an organizer, no window."""
    event = services.create_event(name="Walk-in Tables", slug="walk-in-tables", actor=organizer,
                                  game="warlord-ccg-4e", table_size=3, swiss_rounds=1)
    players = []
    for name in ("Ana", "Bo"):
        general = General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
        players.append(general)
    walk_in = General.objects.create(name="Cy", created_by=organizer)
    services.register(event, walk_in, actor=organizer)
    services.close_registration(event, actor=organizer)
    table = rounds.pair_next_round(event, actor=organizer).tables.get()
    report = tables.report_table(table, user=players[0].user, eliminations=[walk_in.pk, players[1].pk])
    assert report.confirm_by is None


def test_the_round_page_lists_the_tables_and_where_each_report_is(event, organizer, client):
    paired = rounds.pair_next_round(event, actor=organizer)
    reported, disputed = paired.tables.order_by("number")
    first, second, third = players_of(reported)
    tables.report_table(reported, user=first.user, eliminations=[third.pk, second.pk])
    a, b, c = players_of(disputed)
    report = tables.report_table(disputed, user=a.user, eliminations=[c.pk, b.pk])
    tables.dispute_table(report, user=c.user, reason="Wrong order.")
    client.force_login(organizer)
    page = client.get(f"/events/{event.slug}/round/").content.decode()
    assert f"/tables/{reported.pk}/" in page and "Reported, waiting for the other players" in page
    assert f"/tables/{disputed.pk}/" in page and "Disputed: an organizer decides" in page
