"""Ratings as the pages, the API and group seeding read them (R98).

A general's current rating is their latest `RatingPoint`; its deviation is shown grown for the whole
weeks since (`deviation_now`), as Glicko-2 step 6 grows it for a player who does not play, so a
rating not defended for months reads as the uncertain figure it has become.

A rating is *provisional* while that deviation is above 110 points (the threshold lichess uses):
about 95% of the time a general's strength lies within two deviations of the rating, and above 110
that band is wider than 440 points, too wide to say much. A new general starts at 350.
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date

from django.db.models import F, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from tournaments.domain.ratings import PeriodRating, grown_to, period_of_day
from tournaments.models import General, RatingPoint, name_key

PROVISIONAL_DEVIATION = 110.0
ACTIVE_MONTHS_CHOICES = (3, 6, 12)


@dataclass(frozen=True)
class CurrentRating:
    general_id: int
    rating: float
    deviation: float  # after the latest week played
    volatility: float
    period: date  # the Monday of the latest week played
    deviation_now: float  # `deviation` grown for the weeks since
    battles: int  # rated battles in all

    provisional_above = PROVISIONAL_DEVIATION

    @property
    def provisional(self) -> bool:
        return self.deviation_now > PROVISIONAL_DEVIATION

    @property
    def low(self) -> float:
        """Two deviations below the rating: the strength is above this about 97.5% of the time."""
        return self.rating - 2 * self.deviation_now

    @property
    def high(self) -> float:
        return self.rating + 2 * self.deviation_now


def _latest(field):
    return Subquery(RatingPoint.objects.filter(general=OuterRef("pk")).order_by("-period").values(field)[:1])


def _total_battles():
    return Subquery(RatingPoint.objects.filter(general=OuterRef("pk")).order_by().values("general")
                    .annotate(total=Sum("battles")).values("total")[:1])


def with_ratings(generals):
    """A General queryset annotated with each general's latest point and rated battles (one query);
    `current_of` reads them."""
    return generals.annotate(
        rating_value=_latest("rating"), rating_deviation=_latest("deviation"),
        rating_volatility=_latest("volatility"), rating_period=_latest("period"), rated_battles=_total_battles())


def current_of(general, today: date | None = None) -> CurrentRating | None:
    """The current rating of a general read through `with_ratings`; None for a general never rated."""
    if getattr(general, "rating_period", None) is None:
        return None
    point = PeriodRating(period=general.rating_period, rating=general.rating_value,
                         deviation=general.rating_deviation, volatility=general.rating_volatility,
                         battles=0, score=0.0)
    return CurrentRating(general_id=general.pk, rating=point.rating, deviation=point.deviation,
                         volatility=point.volatility, period=point.period,
                         deviation_now=grown_to(point, today or timezone.localdate()),
                         battles=general.rated_battles or 0)


def rating_of(general, today: date | None = None) -> CurrentRating | None:
    """A general's current rating, or None when no rated battle of theirs is on record."""
    annotated = with_ratings(General.objects.filter(pk=getattr(general, "pk", general))).first()
    return current_of(annotated, today) if annotated else None


def ratings_for(general_ids, today: date | None = None) -> dict[int, CurrentRating | None]:
    """{general id: current rating or None} for the given generals, in one query (group seeding)."""
    ids = list(general_ids)
    found = {general.pk: current_of(general, today)
             for general in with_ratings(General.objects.filter(pk__in=ids))}
    return {general_id: found.get(general_id) for general_id in ids}


def history_of(general) -> list[RatingPoint]:
    """A general's points, oldest week first: one per week they played in rated events."""
    return list(RatingPoint.objects.filter(general=getattr(general, "pk", general)).order_by("period"))


def months_before(day: date, months: int) -> date:
    """The same day `months` calendar months earlier (the month's last day when it is shorter)."""
    month_index = day.year * 12 + day.month - 1 - months
    year, month = divmod(month_index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


@dataclass(frozen=True)
class ListedRating:
    rank: int
    general: General
    rating: CurrentRating


def rating_list(active_months: int | None = None, search: str | None = None,
                today: date | None = None) -> list[ListedRating]:
    """The rating list: every rated general's current rating, best first. Equal ratings (to the whole
    point shown) share a rank and are listed by name. `active_months`: only generals who played a
    rated battle in a week that ends within the last that many months; `search`: a part of the name,
    ignoring case and spaces."""
    today = today or timezone.localdate()
    generals = with_ratings(General.objects.all()).filter(rating_period__isnull=False)
    if active_months:
        generals = generals.filter(rating_period__gte=period_of_day(months_before(today, active_months)))
    key = name_key(search or "")
    if key:
        generals = generals.filter(Q(name_key__contains=key))
    generals = generals.order_by(F("rating_value").desc(), "name", "pk")
    listed, rank, previous = [], 0, None
    for position, general in enumerate(generals, start=1):
        current = current_of(general, today)
        shown = round(current.rating)
        if shown != previous:
            rank, previous = position, shown
        listed.append(ListedRating(rank=rank, general=general, rating=current))
    return listed
