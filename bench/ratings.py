"""Ratings benchmark (PostgreSQL): the whole Glicko-2 recomputation (R98) against the algorithm alone.

    .venv/bin/python bench/ratings.py [--generals 1000] [--battles 20000] [--seed 2026] [--repeats 5]
                                      [--database opp_bench_ratings]

Builds (once; later runs with the same sizes and seed reuse it) one published, rated league event
with G generals and N rated battles in its own database (default `opp_bench_ratings`), loaded with
bulk_create and COPY, not through the services. Outcomes come from a seeded RNG: about 86 % Victories
(the stronger of two hidden strengths wins more often), 9 % Stalemates and 5 % Resolves, plus
forfeits (5 % more battles, which are not rated, R98) on top of the N. The battles are spread over
52 ISO weeks in the event's time zone (Europe/Berlin): `decided_at` and `first_decided_at` are set,
and 2 % were corrected a few days after they first counted (their week stays the first one). Events
of other sizes left in the database are deleted first, so `recompute_all` reads exactly this one.

Then, interleaved (one run of each per round, the garbage collector emptied before each, so that
machine noise hits all alike), the median of `--repeats` rounds of:

- baseline: the pure `tournaments.domain.ratings.histories(games)` over the rated games, already
  in memory: the algorithm's own cost (Glicko-2 per general and week);
- reading: `list(rated_games())`, the battles read from the database and turned into games;
- product: `tournaments.ratings.recompute.recompute_all()`, what the debounced job runs after every
  result of a rated event: read the battles, compute, delete and rewrite `RatingPoint`, in one
  transaction. Writing is product minus reading minus baseline.

The product's summary must agree with the baseline (battles rated, points written; checked).
Goal: a recompute of a year of a large club's results (the default sizes) stays under 2 s, so the
debounced job after each result is cheap. Printed as met or not; never asserted in a test.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TABLE_HEAD, copy_rows, machine, setup_django, verdict  # noqa: E402

DB_NAME = "opp_bench_ratings"
TIME_ZONE = "Europe/Berlin"
FIRST_MONDAY = date(2025, 1, 6)  # the first week; the 52nd starts on 2025-12-29
WEEKS = 52
GOAL_SECONDS = 2.0
SLUG_PREFIX = "bench-rated-"
BATTLE_COLUMNS = ("event_id", "season_id", "round", "number", "general_a_id", "general_b_id", "playoff", "kind",
                  "winner_id", "condition", "forfeited_by_id", "decided_at", "first_decided_at", "facts")
CONDITIONS = ("overpower", "crush", "shackle", "paralyze", "blunt", "forced_surrender", "voluntary_surrender")


def moment_in(rng: random.Random, zone: ZoneInfo) -> datetime:
    """A club evening of one of the 52 weeks, 10:00-21:59 local time (so it falls in that ISO week
    in the event's zone whatever the offset), in UTC as the database stores it."""
    day = FIRST_MONDAY + timedelta(days=rng.randrange(WEEKS * 7))
    local = datetime(day.year, day.month, day.day, rng.randrange(10, 22), rng.randrange(60), tzinfo=zone)
    return local.astimezone(ZoneInfo("UTC"))


def outcome(rng: random.Random, a: int, b: int, strength: dict[int, float]):
    """(kind, winner_id, condition, forfeited_by_id) of one rated battle, as record_result stores them."""
    r = rng.random()
    if r < 0.86:
        a_wins = rng.random() < 1.0 / (1.0 + 10 ** ((strength[b] - strength[a]) / 400.0))
        return "victory", (a if a_wins else b), rng.choice(CONDITIONS), None
    return ("stalemate" if r < 0.95 else "resolve"), None, "", None


def battle_rows(rng: random.Random, event_id: int, season_id: int, ids: list[int], battles: int):
    """N rated battles, and forfeits (not rated) on top: one for every 20 rated battles."""
    zone = ZoneInfo(TIME_ZONE)
    strength = {pk: rng.gauss(1500.0, 200.0) for pk in ids}
    total = battles + battles // 20
    forfeits = set(rng.sample(range(total), total - battles))
    for index in range(total):
        a, b = rng.sample(ids, 2)
        if index in forfeits:
            loser = a if rng.random() < 0.5 else b
            kind, winner, condition, forfeited_by = "forfeit", (b if loser == a else a), "", loser
        else:
            kind, winner, condition, forfeited_by = outcome(rng, a, b, strength)
        first = moment_in(rng, zone)
        decided = first + timedelta(days=rng.randrange(1, 5)) if rng.random() < 0.02 else first
        yield (event_id, season_id, 1 + index // 32_000, 1 + index % 32_000, a, b, "f", kind, winner, condition,
               forfeited_by, decided.isoformat(), first.isoformat(), "{}")


def load_event(generals: int, battles: int, seed: int):
    """The rated league event, created unless this database holds it already; bench events of other
    sizes are deleted first, so that the recomputation reads this one alone."""
    from django.db import connection, transaction

    from tournaments.models import Battle, Event, General, RatingPoint, Registration, Season

    slug = f"{SLUG_PREFIX}{generals}-{battles}-{seed}"
    event = Event.objects.filter(slug=slug).first()
    if event is not None:
        return event, False
    started = time.perf_counter()
    rng = random.Random(seed)
    with transaction.atomic():
        others = Event.objects.filter(slug__startswith=SLUG_PREFIX)
        RatingPoint.objects.all().delete()
        Battle.objects.filter(event__in=others).delete()
        others.delete()
        event = Event.objects.create(name=f"Bench Rated League {generals}", slug=slug, kind=Event.Kind.LEAGUE,
                                     state=Event.State.IN_SEASON, published=True, rated=True, time_zone=TIME_ZONE,
                                     confirmation_minutes=3 * 24 * 60)
        season = Season.objects.create(event=event, number=1, name="Season 1")
        created = General.objects.bulk_create(
            [General(name=f"Rated General {seed}-{index:06d}") for index in range(generals)], batch_size=10_000)
        ids = [general.pk for general in created]
        Registration.objects.bulk_create(
            [Registration(event=event, general_id=pk, number=index + 1) for index, pk in enumerate(ids)],
            batch_size=10_000)
        with connection.cursor() as cursor:
            copy_rows(cursor.cursor, "tournaments_battle", BATTLE_COLUMNS, battle_rows(rng, event.pk, season.pk, ids, battles))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE tournaments_battle")
    print(f"  loaded {generals:,} generals and {battles + battles // 20:,} battles in "
          f"{time.perf_counter() - started:.1f} s")
    return event, True


def timed(run) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generals", type=int, default=1_000)
    parser.add_argument("--battles", type=int, default=20_000, help="rated battles (forfeits come on top)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--database", default=DB_NAME)
    args = parser.parse_args()
    if args.generals < 2 or args.battles < 1 or args.repeats < 1:
        parser.error("--generals needs at least 2, --battles and --repeats at least 1")

    setup_django(args.database)
    from tournaments.domain.ratings import histories
    from tournaments.models import Battle, RatingPoint
    from tournaments.ratings.recompute import rated_games, recompute_all

    print(f"machine: {machine()}")
    load_start = os.getloadavg()
    print(f"load average at the start: {load_start[0]:.1f} / {load_start[1]:.1f} / {load_start[2]:.1f}")
    event, _ = load_event(args.generals, args.battles, args.seed)
    decided = Battle.objects.filter(event=event).count()
    print(f"event: one published rated league, {args.generals:,} generals, {decided:,} decided battles "
          f"({args.battles:,} rated, {decided - args.battles:,} forfeits not rated) over {WEEKS} ISO weeks "
          f"({TIME_ZONE}), seed {args.seed}; database {args.database}")

    games = list(rated_games())
    by_general = histories(games)  # warms both, and is what the product must agree with
    expected_points = sum(len(history) for history in by_general.values())
    summary = recompute_all()
    assert summary.battles == len(games) == args.battles, (summary, len(games))
    assert summary.points == expected_points == RatingPoint.objects.count(), (summary, expected_points)
    print(f"rated: {summary.battles:,} battles, {summary.generals:,} generals, {summary.periods} weeks, "
          f"{summary.points:,} rating points (generals x weeks played)")
    del by_general

    base_times, read_times, product_times = [], [], []
    for _ in range(args.repeats):
        base_times.append(timed(lambda: histories(games))[0])
        read_times.append(timed(lambda: list(rated_games()))[0])
        elapsed, summary = timed(recompute_all)
        assert summary.points == expected_points, summary
        product_times.append(elapsed)
    base, read, product = (statistics.median(times) for times in (base_times, read_times, product_times))
    write = max(0.0, product - read - base)
    load_end = os.getloadavg()

    print(f"\nmedians of {args.repeats} interleaved rounds:")
    print(f"  baseline histories(games): {base * 1000:,.0f} ms, {args.battles / base:,.0f} battles/s "
          f"(runs: {', '.join(f'{t * 1000:.0f}' for t in base_times)} ms)")
    print(f"  reading list(rated_games()): {read * 1000:,.0f} ms "
          f"(runs: {', '.join(f'{t * 1000:.0f}' for t in read_times)} ms)")
    print(f"  product recompute_all(): {product * 1000:,.0f} ms, {args.battles / product:,.0f} battles/s "
          f"(runs: {', '.join(f'{t * 1000:.0f}' for t in product_times)} ms)")
    print(f"  share of the product: compute {base / product:.0%}, read {read / product:.0%}, "
          f"write (delete + COPY of {expected_points:,} points, by difference) {write / product:.0%}")
    print(f"  ratio product / baseline: {product / base:.2f}")
    print(TABLE_HEAD)
    print(verdict(f"recompute_all, {args.generals:,} generals / {args.battles:,} rated battles / {WEEKS} weeks "
                  f"(median of {args.repeats})", f"{product * 1000:,.0f} ms ({args.battles / product:,.0f} battles/s)",
                  f"{base * 1000:,.0f} ms (histories alone, {args.battles / base:,.0f} battles/s)", product / base,
                  "< 2 s: a year of a large club's results, so the debounced job after each result is cheap",
                  product < GOAL_SECONDS))
    print(f"load average at the end: {load_end[0]:.1f} / {load_end[1]:.1f} / {load_end[2]:.1f}")
    print(f"reproduce: .venv/bin/python bench/ratings.py --generals {args.generals} --battles {args.battles} "
          f"--seed {args.seed} --repeats {args.repeats}"
          + ("" if args.database == DB_NAME else f" --database {args.database}"))


if __name__ == "__main__":
    main()
