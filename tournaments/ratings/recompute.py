"""`recompute_all`: the whole rating table rewritten from the record (R98).

Ratings are never updated in place: every recomputation reads every counted battle of the rated
events and runs the pure `tournaments.domain.ratings.histories`, so a correction, an override, a
late result or an imported event re-rates every week after it, and the table always follows from
the battles on record, whatever order they arrived in.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from django.db import connection, transaction

from tournaments.domain.ratings import RATED_KINDS, RatedGame, histories, period_of, score_of
from tournaments.models import Battle, RatingPoint
from tournaments.timezones import zone_of

# Two recomputations at once would both delete and then both insert the same rows; the second waits
# for the first (PostgreSQL; SQLite writes one transaction at a time anyway) and then reads its result.
_ADVISORY_KEY = (0x0B5E55ED, 98)


@dataclass(frozen=True)
class Summary:
    generals: int
    periods: int
    battles: int
    points: int


def rated_battles():
    """The battles that enter ratings (R98): decided as a Victory, a Stalemate or a Resolve (a forfeit
    and a battle not fought are not a battle played), playoffs included, in a published event marked
    rated (a hidden event's battles could not be checked by those they rate)."""
    return Battle.objects.filter(event__rated=True, event__published=True, kind__in=list(RATED_KINDS),
                                 decided_at__isnull=False)


def rated_games():
    """The rated battles as the pure function takes them. Read as plain rows, not model objects: a
    year of a large club is tens of thousands of battles, and the recomputation runs after each result
    (bench/ratings.py)."""
    rows = rated_battles().values_list("general_a_id", "general_b_id", "winner_id", "kind", "first_decided_at",
                                       "decided_at", "event__time_zone")
    zones = {}
    for a, b, winner, kind, first_decided_at, decided_at, zone_name in rows.iterator(chunk_size=5000):
        zone = zones.get(zone_name) or zones.setdefault(zone_name, zone_of(SimpleNamespace(time_zone=zone_name)))
        # The week the result first counted: a correction re-rates that week and every one after it.
        yield RatedGame(period=period_of(first_decided_at or decided_at, zone), a=a, b=b,
                        score_a=score_of(kind, a_won=winner == a))


POINT_COLUMNS = ("general_id", "period", "rating", "deviation", "volatility", "battles", "score")


def _rewrite(rows):
    """Replaces the whole table by `rows` (tuples in POINT_COLUMNS order), inside the caller's
    transaction. PostgreSQL takes them by COPY, several times faster than INSERTs of model objects."""
    RatingPoint.objects.all().delete()
    if connection.vendor != "postgresql":
        RatingPoint.objects.bulk_create((RatingPoint(**dict(zip(POINT_COLUMNS, row, strict=True))) for row in rows),
                                        batch_size=1000)
        return
    table = connection.ops.quote_name(RatingPoint._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(RatingPoint._meta.get_field(name).column) for name in POINT_COLUMNS)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


@transaction.atomic
def recompute_all() -> Summary:
    """Rewrites every general's rating history from the record, in one transaction."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(_ADVISORY_KEY))
    games = list(rated_games())
    by_general = histories(games)
    rows = [(general_id, point.period, point.rating, point.deviation, point.volatility, point.battles, point.score)
            for general_id, history in sorted(by_general.items()) for point in history]
    _rewrite(rows)
    return Summary(generals=len(by_general), periods=len({row[1] for row in rows}), battles=len(games),
                   points=len(rows))
