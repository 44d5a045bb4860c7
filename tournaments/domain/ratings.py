"""Every general's rating history from the rated games (R98), as a pure function of the set of games.

A rating period is an ISO week (Monday to Sunday) of the day a battle's result first counted, in its event's
time zone. Periods are rated in order; within one, each general is rated once, from all their games
of the week against each opponent's rating as it stood at the start of the week, so the order in
which games arrived (or events were imported) never matters. Between two weeks a general played in,
the deviation grows one Glicko-2 step 6 per idle week (capped at a new player's 350).

Games are summed in a fixed order (by opponent, then score) so that the same set of games gives the
same numbers to the last bit, whatever order they are given in.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from tournaments.domain import glicko2
from tournaments.domain.outcomes import Kind

# R98: the points of a battle for the general on side a, by its kind; kinds absent are not rated.
# A Resolve is a defeat for both generals under the rules, but one game cannot score both sides as
# losers (the scores of a game add up to 1), so it counts as a draw, like a Stalemate.
RATED_KINDS = (Kind.VICTORY, Kind.STALEMATE, Kind.RESOLVE)
NOT_RATED_KINDS = (Kind.FORFEIT, Kind.UNPLAYED_DQ)


def score_of(kind: str, a_won: bool = False) -> float | None:
    """The score of side a in a counted battle (R98): 1 or 0 for a Victory (by who won), 0.5 for a
    Stalemate or a Resolve; None for a battle that is not rated (a forfeit, a battle not fought)."""
    if kind == Kind.VICTORY:
        return 1.0 if a_won else 0.0
    if kind in (Kind.STALEMATE, Kind.RESOLVE):
        return 0.5
    return None


def period_of(moment: datetime, zone: tzinfo) -> date:
    """The rating period of a moment: the Monday of its ISO week in the given zone (R98)."""
    day = moment.astimezone(zone).date()
    return day - timedelta(days=day.weekday())


def weeks_between(earlier: date, later: date) -> int:
    return (later - earlier).days // 7


@dataclass(frozen=True)
class RatedGame:
    period: date  # a Monday (`period_of`)
    a: Hashable  # general keys: any values that sort among themselves (ids)
    b: Hashable
    score_a: float  # 1, 0.5 or 0 (`score_of`)


@dataclass(frozen=True)
class PeriodRating:
    """A general's rating after a week they played in."""

    period: date
    rating: float
    deviation: float
    volatility: float
    battles: int
    score: float

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


def at_start_of(history: list[PeriodRating], period: date) -> glicko2.Rating:
    """A general's rating as it stands at the start of `period`: a new general's default, or the
    latest point grown for the weeks since (the week of the point itself not counted)."""
    if not history:
        return glicko2.Rating()
    last = history[-1]
    return glicko2.idle(last.glicko, periods=weeks_between(last.period, period) - 1)


def histories(games: Iterable[RatedGame], tau: float = glicko2.DEFAULT_TAU) -> dict[Hashable, list[PeriodRating]]:
    """Per general, the points of the weeks they played in, in order."""
    by_period: dict[date, dict[Hashable, list[tuple[Hashable, float]]]] = defaultdict(lambda: defaultdict(list))
    for game in games:
        if game.a == game.b:
            raise ValueError(f"A game needs two generals; {game.a!r} cannot play itself.")
        if game.score_a not in (0.0, 0.5, 1.0):
            raise ValueError(f"A game's score is 1, 0.5 or 0, not {game.score_a!r}.")
        by_period[game.period][game.a].append((game.b, game.score_a))
        by_period[game.period][game.b].append((game.a, 1.0 - game.score_a))

    result: dict[Hashable, list[PeriodRating]] = defaultdict(list)
    for period in sorted(by_period):
        played = by_period[period]
        start = {general: at_start_of(result[general], period) for general in played}
        for general in sorted(played):
            games_of_week = sorted(played[general])
            rated = glicko2.rate(start[general], [(start[opponent], score) for opponent, score in games_of_week],
                                 tau=tau)
            result[general].append(PeriodRating(
                period=period, rating=rated.rating, deviation=rated.deviation, volatility=rated.volatility,
                battles=len(games_of_week), score=sum(score for _, score in games_of_week)))
    return dict(result)


def grown_to(point: PeriodRating, today: date) -> float:
    """The deviation of a general whose latest point is `point` as it stands today: grown for every
    whole week since that point's week, the current week not counted as it is not over (R98)."""
    return at_start_of([point], period_of_day(today)).deviation


def period_of_day(day: date) -> date:
    """The Monday of the ISO week of a day."""
    return day - timedelta(days=day.weekday())
