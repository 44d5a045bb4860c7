"""Glicko-2 (tournaments.domain.glicko2) against Glickman's worked example, and the rating weeks of R98
(tournaments.domain.ratings): the same set of games gives the same numbers in any order."""
import math
import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.glicko2 import SCALE, Rating, idle, rate
from tournaments.domain.ratings import RatedGame, grown_to, histories, period_of, score_of


def test_glickmans_worked_example():
    """"Example of the Glicko-2 system" (2013): tau 0.5, a 1500/200/0.06 player beats a 1400/30, loses to
    a 1550/100 and to a 1700/300. The paper prints r' 1464.06, RD' 151.52, sigma' 0.05999; it rounds
    mu' to -0.2069 before converting back (exactly, r' is 1464.0507) and truncates sigma' (0.0599960)."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
                 tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.00005)  # the paper's mu'


def test_an_idle_period_grows_the_deviation_by_step_six():
    player = Rating(1620, 120, 0.06)
    after = idle(player)
    phi = 120 / SCALE
    assert after.deviation == pytest.approx(math.sqrt(phi ** 2 + 0.06 ** 2) * SCALE)  # 120 -> 121.4
    assert (after.rating, after.volatility) == (1620, 0.06)
    assert rate(player, []) == after  # a period without games is an idle one
    assert idle(player, 3).deviation == pytest.approx(idle(idle(idle(player))).deviation)
    assert idle(player, 10_000).deviation == 350  # never less sure than a new general
    assert idle(player, 0) == player


def test_a_draw_between_equals_keeps_the_rating_and_narrows_the_deviation():
    after = rate(Rating(), [(Rating(), 0.5)])
    assert after.rating == pytest.approx(1500)
    assert after.deviation < 350
    win, loss = rate(Rating(), [(Rating(), 1)]), rate(Rating(), [(Rating(), 0)])
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    assert win.rating > 1600  # a new general's first Victory moves a lot: 350 says "we know nothing yet"


def test_the_score_of_a_battle_by_its_kind():
    assert score_of("victory", a_won=True) == 1 and score_of("victory", a_won=False) == 0
    assert score_of("stalemate") == score_of("resolve") == 0.5  # a Resolve cannot make both sides losers
    assert score_of("forfeit", a_won=True) is None and score_of("unplayed_dq") is None and score_of("") is None


def test_a_rating_week_is_the_iso_week_in_the_events_zone():
    sunday_late_utc = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # a Sunday
    assert period_of(sunday_late_utc, ZoneInfo("UTC")) == date(2026, 11, 23)
    assert period_of(sunday_late_utc, ZoneInfo("Europe/Berlin")) == date(2026, 11, 30)  # Monday 00:30 there
    assert period_of(sunday_late_utc, ZoneInfo("America/New_York")) == date(2026, 11, 23)


WEEK_1, WEEK_2, WEEK_5 = date(2026, 1, 5), date(2026, 1, 12), date(2026, 2, 2)


def test_within_a_week_everyone_is_rated_against_the_ratings_at_its_start():
    """Ada beats Bo, then Bo beats Cy, in one week: Cy's defeat is against Bo as he started the week
    (a new general), not against the Bo who had just lost."""
    games = [RatedGame(WEEK_1, "ada", "bo", 1), RatedGame(WEEK_1, "bo", "cy", 1)]
    history = histories(games)
    assert history["cy"][0].rating == rate(Rating(), [(Rating(), 0)]).rating
    assert history["bo"][0].rating == rate(Rating(), [(Rating(), 0), (Rating(), 1)]).rating == pytest.approx(1500)
    assert (history["bo"][0].battles, history["bo"][0].score) == (2, 1.0)


def test_idle_weeks_between_two_weeks_played_grow_the_deviation_first():
    games = [RatedGame(WEEK_1, "ada", "bo", 1), RatedGame(WEEK_5, "ada", "cy", 0.5)]
    history = histories(games)
    first = history["ada"][0].glicko
    at_week_5 = idle(first, 3)  # weeks 2, 3 and 4 went by without a rated battle
    assert history["ada"][1].rating == rate(at_week_5, [(Rating(), 0.5)]).rating
    assert [p.period for p in history["ada"]] == [WEEK_1, WEEK_5]
    assert "bo" in history and len(history["bo"]) == 1
    assert grown_to(history["bo"][0], WEEK_2 + timedelta(days=6)) == history["bo"][0].deviation  # week not over
    assert grown_to(history["bo"][0], WEEK_5) == pytest.approx(idle(history["bo"][0].glicko, 3).deviation)


def test_a_general_cannot_play_themselves_and_a_score_is_a_game_score():
    with pytest.raises(ValueError, match="cannot play itself"):
        histories([RatedGame(WEEK_1, "ada", "ada", 1)])
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        histories([RatedGame(WEEK_1, "ada", "bo", 3)])


games_strategy = st.lists(
    st.tuples(st.integers(0, 6), st.integers(1, 7), st.integers(1, 7), st.sampled_from([0.0, 0.5, 1.0]))
    .filter(lambda game: game[1] != game[2]),
    min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(games=games_strategy, seed=st.integers(0, 2**32))
def test_the_same_games_in_any_order_give_the_same_histories(games, seed):
    """Whatever order results arrived or events were imported in (a week's games shuffled, weeks and
    events interleaved, a game listed from either side), every number is the same to the last bit."""
    rated = [RatedGame(WEEK_1 + timedelta(weeks=week), a, b, score) for week, a, b, score in games]
    shuffled = list(rated)
    random.Random(seed).shuffle(shuffled)
    flipped = [RatedGame(g.period, g.b, g.a, 1.0 - g.score_a) if i % 2 else g for i, g in enumerate(shuffled)]
    assert histories(flipped) == histories(rated)


@settings(max_examples=30, deadline=None)
@given(games=games_strategy, split=st.integers(0, 40))
def test_two_events_imported_in_either_order_rate_alike(games, split):
    rated = [RatedGame(WEEK_1 + timedelta(weeks=week), a, b, score) for week, a, b, score in games]
    first_event, second_event = rated[:split], rated[split:]
    assert histories(first_event + second_event) == histories(second_event + first_event)
