"""Ratings from the record (R98): `recompute_all` over the counted battles of rated events, what is
rated and what is not, a correction re-rating the weeks after it, the job after a result, the
organizer's choice fixed once the event starts, and the queries the pages and seeding read."""
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command

from tournaments.domain import Conflict
from tournaments.domain.glicko2 import Rating, idle, rate
from tournaments.eventday.archive import build_archive, import_archive
from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Battle, Event, General, RatingPoint
from tournaments.ratings import queries
from tournaments.ratings.recompute import recompute_all
from tournaments.results import recording

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)  # week 2 of 2026
WEEK = timedelta(weeks=1)


def league(slug="pier", names=("Ada", "Bo", "Cy", "Dee"), *, rated=True, published=True, **details):
    event = services.create_event(name=slug.title(), slug=slug, kind=Event.Kind.LEAGUE, rated=rated,
                                  published=published, pair_battles_per_season=20, **details)
    generals = [General.objects.get_or_create(name=name)[0] for name in names]
    for general in generals:
        services.register(event, general)
    return event, seasons.open_season(event, "Season 1"), generals


def play(season, a, b, kind="victory", *, winner=None, when=MONDAY, **extra):
    """A battle of the season counted with its result, decided at `when`."""
    battle = seasons.schedule_battle(season, a, b)
    condition = "shackle" if kind == "victory" else ""
    recording.record_result(battle, kind=kind, winner=winner, condition=condition, **extra)
    Battle.objects.filter(pk=battle.pk).update(decided_at=when, first_decided_at=when)
    battle.refresh_from_db()
    return battle


def points_of(general):
    return [(p.period, round(p.rating, 6), round(p.deviation, 6), p.battles, p.score)
            for p in RatingPoint.objects.filter(general=general).order_by("period")]


def test_a_victory_a_stalemate_and_a_resolve_are_rated_a_forfeit_is_not():
    _, season, (ada, bo, cy, dee) = league()
    play(season, ada, bo, winner=ada)
    play(season, ada, cy, "stalemate")
    play(season, bo, cy, "resolve")
    play(season, cy, dee, "forfeit", forfeited_by=dee)  # Dee never fought: no battle to rate

    summary = recompute_all()

    assert (summary.generals, summary.periods, summary.battles) == (3, 1, 3)
    week = date(2026, 1, 5)
    ada_point = RatingPoint.objects.get(general=ada)
    assert (ada_point.period, ada_point.battles, ada_point.score) == (week, 2, 1.5)
    assert ada_point.rating == pytest.approx(rate(Rating(), [(Rating(), 1), (Rating(), 0.5)]).rating)
    cy_point = RatingPoint.objects.get(general=cy)
    assert (cy_point.battles, cy_point.score) == (2, 1.0)  # a Stalemate and a Resolve: 0.5 each
    assert cy_point.rating == pytest.approx(1500)  # two draws against new generals
    assert not RatingPoint.objects.filter(general=dee).exists()


def test_unrated_and_hidden_events_are_not_rated_and_playoffs_are():
    _, unrated_season, (ada, bo, *_) = league("friendly", rated=False)
    _, hidden_season, _ = league("backroom", published=False)
    play(unrated_season, ada, bo, winner=ada)
    play(hidden_season, ada, bo, winner=ada)
    assert recompute_all().battles == 0 and not RatingPoint.objects.exists()

    _, season, _ = league("rated")
    playoff = play(season, ada, bo, winner=bo)
    Battle.objects.filter(pk=playoff.pk).update(playoff=True)  # a playoff is a real battle (R24, R98)
    assert recompute_all().battles == 1
    assert RatingPoint.objects.get(general=bo).rating > 1500 > RatingPoint.objects.get(general=ada).rating


def test_a_correction_re_rates_every_later_week():
    event, season, (ada, bo, cy, dee) = league()
    first = play(season, ada, bo, winner=ada, when=MONDAY)
    play(season, bo, cy, winner=bo, when=MONDAY + WEEK)
    play(season, cy, ada, winner=cy, when=MONDAY + 2 * WEEK)
    play(season, dee, bo, winner=dee, when=MONDAY + 3 * WEEK)
    recompute_all()
    before = {general.name: points_of(general) for general in (ada, bo, cy, dee)}
    assert len(before["Bo"]) == 3

    # The organizer corrects the first week's battle: Bo won it. It stays in the week it first counted (R98).
    recording.record_result(first, kind="victory", winner=bo, condition="shackle", reason="Slip misread")
    assert Battle.objects.get(pk=first.pk).first_decided_at == MONDAY
    recompute_all()
    after = {general.name: points_of(general) for general in (ada, bo, cy, dee)}

    first_week, later_weeks = date(2026, 1, 5), {date(2026, 1, 12), date(2026, 1, 19), date(2026, 1, 26)}
    assert [p for p in after["Bo"] if p[0] == first_week][0][3:] == (1, 1.0)  # Bo's Victory, in its own week
    assert [p for p in after["Ada"] if p[0] == first_week][0][3:] == (1, 0.0)
    assert len(after["Bo"]) == 3  # no new week: the battle did not move
    for name in ("Bo", "Cy", "Dee"):
        now = {point[0]: point for point in after[name]}
        changed = [point for point in before[name] if point[0] in later_weeks and now.get(point[0]) != point]
        assert changed, f"{name}'s later weeks were not rated again"


def test_a_result_of_a_rated_event_recomputes_after_the_commit(django_capture_on_commit_callbacks):
    _, season, (ada, bo, *_) = league()
    battle = seasons.schedule_battle(season, ada, bo)
    with django_capture_on_commit_callbacks(execute=True):
        recording.record_result(battle, kind="victory", winner=ada, condition="shackle")
    assert RatingPoint.objects.get(general=ada).rating > 1500

    _, friendly, _ = league("friendly", rated=False)
    battle = seasons.schedule_battle(friendly, ada, bo)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        recording.record_result(battle, kind="victory", winner=bo, condition="shackle")
    assert not any("ratings" in getattr(c, "__module__", "") for c in callbacks)


def test_unpublishing_a_rated_event_takes_its_battles_out(django_capture_on_commit_callbacks):
    event, season, (ada, bo, *_) = league()
    play(season, ada, bo, winner=ada)
    recompute_all()
    with django_capture_on_commit_callbacks(execute=True):
        services.change_details(event, actor=None, published=False)
    assert not RatingPoint.objects.exists()


def test_rated_is_chosen_before_the_event_starts():
    event = services.create_event(name="Spring Open", slug="spring-open")
    services.change_rules(event, rated=True)
    event.refresh_from_db()
    assert event.rated
    entry = AuditEntry.objects.filter(event=event, action="rules changed").latest("at")
    assert (entry.before["rated"], entry.after["rated"]) == (False, True)
    _, season, _ = league("started")
    with pytest.raises(Conflict, match="whether it is rated"):
        services.change_rules(season.event, rated=False)


def test_an_imported_rated_event_is_rated_as_the_original(django_capture_on_commit_callbacks):
    event, season, (ada, bo, cy, _) = league()
    play(season, ada, bo, winner=ada, when=MONDAY)
    play(season, bo, cy, "stalemate", when=MONDAY + WEEK)
    recompute_all()
    original = {g.name: [(p[0], p[1], p[3], p[4]) for p in points_of(g)] for g in (ada, bo, cy)}
    archive = build_archive(event)
    event.delete()  # battles go with it; the generals stay
    recompute_all()
    assert not RatingPoint.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        imported = import_archive(archive, slug="pier-again")
    generals = {r.general.name: r.general for r in imported.registrations.select_related("general")}
    again = {name: [(p[0], p[1], p[3], p[4]) for p in points_of(generals[name])] for name in original}
    assert again == original


def test_the_command_rates_and_says_how_much(capsys):
    _, season, (ada, bo, cy, _) = league()
    play(season, ada, bo, winner=ada)
    play(season, ada, cy, winner=cy, when=MONDAY + WEEK)
    call_command("rate")
    assert "Rated 2 battle(s) of 3 general(s) over 2 week(s): 4 rating point(s) written." in capsys.readouterr().out


def test_the_queries_the_pages_and_seeding_read():
    _, season, (ada, bo, cy, dee) = league()
    play(season, ada, bo, winner=ada, when=MONDAY)
    play(season, ada, cy, winner=ada, when=MONDAY + WEEK)
    recompute_all()
    today = date(2026, 3, 4)  # a Wednesday: six whole weeks went by since the week of 12 January

    current = queries.rating_of(ada, today=today)
    last = RatingPoint.objects.filter(general=ada).latest("period")
    assert (current.rating, current.deviation, current.period, current.battles) == (
        last.rating, last.deviation, date(2026, 1, 12), 2)
    assert current.deviation_now == pytest.approx(idle(Rating(last.rating, last.deviation, last.volatility), 6).deviation)
    assert current.provisional  # two battles say little: deviation far above 110
    assert queries.rating_of(dee) is None
    assert [p.period for p in queries.history_of(ada)] == [date(2026, 1, 5), date(2026, 1, 12)]

    seeding = queries.ratings_for([ada.pk, bo.pk, dee.pk], today=today)
    assert seeding[ada.pk].rating == current.rating and seeding[dee.pk] is None
    assert seeding[bo.pk].rating < 1500

    listed = queries.rating_list(today=today)
    assert [entry.general.name for entry in listed] == ["Ada", "Cy", "Bo"]
    assert [entry.rank for entry in listed] == [1, 2, 3]
    # Active in the last month: nobody by 4 March; in the last three: all; by 16 February, Ada and Cy (12 Jan).
    assert queries.rating_list(active_months=1, today=today) == []
    assert len(queries.rating_list(active_months=3, today=today)) == 3
    assert [e.general.name for e in queries.rating_list(active_months=1, today=date(2026, 2, 16))] == ["Ada", "Cy"]
    assert [e.general.name for e in queries.rating_list(search="  c Y ", today=today)] == ["Cy"]


def test_equal_ratings_share_a_rank():
    _, season, (ada, bo, cy, dee) = league()
    play(season, ada, bo, winner=ada)
    play(season, cy, dee, winner=cy)
    recompute_all()
    listed = queries.rating_list()
    assert [(e.rank, e.general.name) for e in listed] == [(1, "Ada"), (1, "Cy"), (3, "Bo"), (3, "Dee")]
