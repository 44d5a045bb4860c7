"""Standings benchmark (PostgreSQL): a league season's full standings against one SQL GROUP BY.

    .venv/bin/python bench/standings.py [--generals 10000] [--battles-per-general 100] [--seed 2026]
                                        [--repeats 5] [--group-size 64] [--group-repeats 300]
                                        [--curve 1000,10000,100000] [--no-curve]

Builds (once; later runs reuse it) a league season with G generals and 100 x G confirmed battles in
its own database `opp_bench_standings_<G>`, loaded with COPY, outcomes from a seeded RNG covering
every kind (victories by all seven conditions, Stalemate, Resolve, forfeits, battles not fought
after a disqualification). Then, interleaving the two so that machine noise hits both alike:

- baseline: one SQL aggregation over the season's battles, GROUP BY general (OPP by CASE per kind
  and condition, victories), fetched into Python;
- product: `tables.season_standings(season)`, what the pages, the API and `close_season` use:
  it reads the season's members (`SeasonMember`, R88) with their disqualification, has the
  database count every standings figure (`tournaments/standings/tallies.py`, one aggregation whose figures
  come from the domain's own counting) and ranks them with
  the domain's `rank_tallies` (OPP and all seven tie-breakers, places and shared places).

The two must agree on every general's OPP and victories (checked). Goal (issue #16; #8 asked
<= 2): product time <= 1.5 x baseline. Also a 64-general round-robin group (2,016 decided battles):
`group_standings` median over many runs, goal <= 3 ms (#8: < 5 ms), with the same SQL for that
group as its baseline and the product's two statements timed alone (the counting; the members with
their disqualification), so that the database's share shows beside the rest; and the growth curve over
1k / 10k / 100k generals.
Loading the 100k season (10,000,000 battles) takes a few minutes the first time.
"""
from __future__ import annotations

import argparse
import gc
import random
import resource
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TABLE_HEAD, copy_rows, machine, median_time, setup_django, verdict  # noqa: E402

CONDITIONS = ("overpower", "crush", "shackle", "paralyze", "blunt", "forced_surrender", "voluntary_surrender")
CONDITION_OPP = {"overpower": 1, "crush": 3, "shackle": 5, "paralyze": 3, "blunt": 2, "forced_surrender": 1,
                 "voluntary_surrender": 1}  # R21, spelled out again in SQL on purpose: the baseline is plain SQL
BATTLE_COLUMNS = ("event_id", "group_id", "season_id", "round", "number", "general_a_id", "general_b_id",
                  "playoff", "kind", "winner_id", "condition", "forfeited_by_id", "decided_at", "facts")

BASELINE_SQL = """
WITH sides AS (
    SELECT general_a_id AS general, kind, condition, winner_id, forfeited_by_id
      FROM tournaments_battle WHERE season_id = %(season)s AND NOT playoff AND kind <> ''
    UNION ALL
    SELECT general_b_id, kind, condition, winner_id, forfeited_by_id
      FROM tournaments_battle WHERE season_id = %(season)s AND NOT playoff AND kind <> ''
)
SELECT general,
       SUM(CASE
             WHEN kind = 'victory' AND winner_id = general THEN CASE condition {conditions} ELSE 0 END
             WHEN kind = 'forfeit' AND winner_id = general THEN %(forfeit_opp)s
             WHEN kind = 'stalemate' THEN -1
             WHEN kind = 'resolve' THEN -10
             WHEN kind = 'unplayed_dq' AND forfeited_by_id <> general THEN 1
             ELSE 0 END) AS opp,
       COUNT(*) FILTER (WHERE winner_id = general AND (kind = 'victory' OR (kind = 'forfeit' AND %(forfeit_victory)s)))
         AS victories
  FROM sides
 GROUP BY general
 ORDER BY opp DESC, victories DESC, general
""".format(conditions=" ".join(f"WHEN '{c}' THEN {v}" for c, v in CONDITION_OPP.items()))


def outcome(rng: random.Random, a: int, b: int, disqualified: set[int]):
    """(kind, winner_id, condition, forfeited_by_id) as record_result stores them."""
    dq = a if a in disqualified else (b if b in disqualified else None)
    if dq is not None and rng.random() < 0.5:
        return "unplayed_dq", None, "", dq  # R23: the disqualified general is kept in forfeited_by
    r = rng.random()
    if r < 0.80:
        return "victory", (a if rng.random() < 0.5 else b), rng.choice(CONDITIONS), None
    if r < 0.88:
        return "stalemate", None, "", None
    if r < 0.93:
        return "resolve", None, "", None
    loser = a if rng.random() < 0.5 else b
    return "forfeit", (b if loser == a else a), "", loser  # record_result stores the opponent as winner


def load_season(generals: int, battles: int, seed: int):
    """The league event and its season, created (directly, not step by step through the services:
    a million audit entries would measure the audit trail) unless this database holds them already."""
    from django.db import connection, transaction

    from tournaments.models import Disqualification, Event, General, Registration, Season

    slug = f"bench-league-{generals}-{battles}-{seed}"
    season = Season.objects.filter(event__slug=slug).select_related("event").first()
    if season is not None:
        _add_members(season)
        return season, False
    started = time.perf_counter()
    rng = random.Random(seed)
    with transaction.atomic():
        event = Event.objects.create(name=f"Bench League {generals}", slug=slug, kind=Event.Kind.LEAGUE)
        season = Season.objects.create(event=event, number=1, name="Season 1")
        created = General.objects.bulk_create(
            [General(name=f"General {index:06d}") for index in range(generals)], batch_size=10_000)
        ids = [general.pk for general in created]
        Registration.objects.bulk_create(
            [Registration(event=event, general_id=pk, number=index + 1) for index, pk in enumerate(ids)],
            batch_size=10_000)
        disqualified = set(rng.sample(ids, max(1, generals // 1000)))
        Disqualification.objects.bulk_create(
            [Disqualification(event=event, general_id=pk, reason=Disqualification.Reason.CONDUCT) for pk in
             sorted(disqualified)])

        def rows():
            for index in range(battles):
                a, b = rng.sample(ids, 2)
                kind, winner, condition, forfeited_by = outcome(rng, a, b, disqualified)
                yield (event.pk, None, season.pk, 1 + index // 32_000, 1 + index % 32_000, a, b, "f", kind,
                       winner, condition, forfeited_by, "2026-01-01 00:00:00+00", "{}")

        with connection.cursor() as cursor:
            copy_rows(cursor.cursor, "tournaments_battle", BATTLE_COLUMNS, rows(), rows_per_write=200_000)
        _add_members(season)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE tournaments_battle")
    print(f"  loaded {generals:,} generals and {battles:,} battles in {time.perf_counter() - started:.1f} s")
    return Season.objects.select_related("event").get(pk=season.pk), True


def _add_members(season) -> None:
    """The season holds its league's registered generals (R88), as `open_season` records them: without
    `SeasonMember` rows its table would find every general through the battles instead (databases
    loaded before the members existed get them here)."""
    from tournaments.models import Registration, SeasonMember

    if not SeasonMember.objects.filter(season=season).exists():
        SeasonMember.objects.bulk_create(
            [SeasonMember(season=season, general_id=pk) for pk in
             Registration.objects.filter(event_id=season.event_id).values_list("general_id", flat=True)],
            batch_size=10_000)


def load_group(size: int, seed: int):
    """A tournament qualifying group of `size` generals, every round-robin battle decided."""
    from django.db import connection, transaction

    from tournaments.models import Battle, Event, General, Group, GroupMember

    slug = f"bench-group-{size}-{seed}"
    group = Group.objects.filter(event__slug=slug).select_related("event").first()
    if group is not None:
        return group
    rng = random.Random(seed)
    with transaction.atomic():
        event = Event.objects.create(name=f"Bench Group {size}", slug=slug, state=Event.State.QUALIFYING)
        group = Group.objects.create(event=event, stage=Group.Stage.QUALIFYING, index=0, name="Group A")
        generals = General.objects.bulk_create([General(name=f"Grouped {index:03d}") for index in range(size)])
        GroupMember.objects.bulk_create(
            [GroupMember(group=group, general=general, position=index) for index, general in enumerate(generals)])
        battles = []
        for number, (first, second) in enumerate(combinations(generals, 2), 1):
            kind, winner, condition, forfeited_by = outcome(rng, first.pk, second.pk, set())
            battles.append(Battle(event=event, group=group, round=1 + number % (size - 1), number=number,
                                  general_a=first, general_b=second, kind=kind, winner_id=winner,
                                  condition=condition, forfeited_by_id=forfeited_by))
        Battle.objects.bulk_create(battles, batch_size=5_000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_battle")  # as autovacuum would: the planner sees the group's battles
    return group


def baseline(season_id: int, forfeit_opp: int = 1, forfeit_victory: bool = True, *, group_id=None):
    from django.db import connection

    sql = BASELINE_SQL
    params = {"season": season_id, "forfeit_opp": forfeit_opp, "forfeit_victory": forfeit_victory}
    if group_id is not None:
        sql = sql.replace("season_id = %(season)s", "group_id = %(group)s")
        params["group"] = group_id
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def product(season_id: int):
    from tournaments.models import Season
    from tournaments.standings.tables import season_standings

    return season_standings(Season.objects.select_related("event").get(pk=season_id))


def check_agree(base_rows, table) -> None:
    by_general = {str(general): (opp, victories) for general, opp, victories in base_rows}
    ours = {row.general: (row.opp, row.victories) for row in table.rows}
    missing = {g: v for g, v in ours.items() if g not in by_general}
    assert all(v == (0, 0) for v in missing.values()), "a general without battles has figures"
    for general, figures in by_general.items():
        assert ours[general] == figures, f"general {general}: product {ours[general]} != SQL {figures}"


def measure_season(generals: int, per_general: int, seed: int, repeats: int, *, product_repeats=None):
    setup_db = f"opp_bench_standings_{generals}"
    from django.db import connections

    connections.close_all()
    connections["default"].settings_dict["NAME"] = setup_db
    from _common import ensure_database

    ensure_database(setup_db)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    season, _ = load_season(generals, generals * per_general, seed)
    award = season.event.forfeit_award
    base_rows = baseline(season.pk, award.opp, award.counts_as_victory)  # warm the cache for both
    table = product(season.pk)
    check_agree(base_rows, table)
    del table
    base_times, product_times = [], []
    for index in range(max(repeats, product_repeats or repeats)):
        gc.collect()
        base_times.append(median_time(lambda: baseline(season.pk, award.opp, award.counts_as_victory), 1)[0])
        if product_repeats is None or index < product_repeats:
            gc.collect()
            product_times.append(median_time(lambda: product(season.pk), 1)[0])
    base_times.sort()
    product_times.sort()
    return season, base_times[len(base_times) // 2], product_times[len(product_times) // 2]


def measure_group(size: int, seed: int, repeats: int):
    """Medians of the product and the baseline, and of the product's two statements alone (each run as
    `group_standings` runs it, with its Python): {"product", "baseline", "counting", "members"} in seconds."""
    from tournaments.models import Group
    from tournaments.standings.tables import _read_members, group_standings
    from tournaments.standings.tallies import count_in_database

    group = load_group(size, seed)
    award = group.event.forfeit_award
    check_agree(baseline(0, award.opp, award.counts_as_victory, group_id=group.pk), group_standings(group))
    group = Group.objects.select_related("event").get(pk=group.pk)
    keys = list(_read_members("group", "default", scope=group.pk, event_id=group.event_id))
    runs = {
        "product": lambda: group_standings(group),
        "baseline": lambda: baseline(0, award.opp, award.counts_as_victory, group_id=group.pk),
        "counting": lambda: count_in_database(generals=keys, forfeit_award=award, group_id=group.pk, add_unknown=True),
        "members": lambda: _read_members("group", "default", scope=group.pk, event_id=group.event_id),
    }
    for run in runs.values():
        for _ in range(20):
            run()  # warm
    gc.collect()
    # Alternating blocks of 10 runs, so that a change in the machine's load hits all alike.
    times = {name: [] for name in runs}
    for _ in range(max(1, repeats // 10)):
        for name, run in runs.items():
            times[name] += median_time(run, 10)[1]
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generals", type=int, default=10_000)
    parser.add_argument("--battles-per-general", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--group-size", type=int, default=64)
    parser.add_argument("--group-repeats", type=int, default=300)
    parser.add_argument("--curve", default="1000,10000,100000", help="generals per point of the growth curve")
    parser.add_argument("--no-curve", action="store_true")
    args = parser.parse_args()

    setup_django(f"opp_bench_standings_{args.generals}")
    print(f"machine: {machine()}")
    print(f"season: {args.generals:,} generals, {args.generals * args.battles_per_general:,} confirmed battles "
          f"(seed {args.seed}); database opp_bench_standings_{args.generals}")
    _, base, prod = measure_season(args.generals, args.battles_per_general, args.seed, args.repeats)
    load_before = Path("/proc/loadavg").read_text().split()[0]
    group = measure_group(args.group_size, args.seed, args.group_repeats)
    group_base, group_prod = group["baseline"], group["product"]
    battles_in_group = args.group_size * (args.group_size - 1) // 2

    rows = [
        verdict(f"full standings, {args.generals:,} generals / {args.generals * args.battles_per_general:,} "
                "battles (median)", f"{prod * 1000:,.0f} ms", f"{base * 1000:,.0f} ms (SQL GROUP BY)",
                prod / base, "ratio <= 1.5", prod / base <= 1.5),
        verdict(f"group standings, {args.group_size} generals / {battles_in_group:,} battles (median of "
                f"{args.group_repeats})", f"{group_prod * 1000:.2f} ms", f"{group_base * 1000:.2f} ms (SQL GROUP BY)",
                group_prod / group_base, "<= 3 ms", group_prod <= 0.003),
    ]
    print(TABLE_HEAD)
    print("\n".join(rows))
    print(f"\nthe group's table, part by part (medians, same runs; load average {load_before} before, "
          f"{Path('/proc/loadavg').read_text().split()[0]} after):")
    print("| part | time | of the product |\n|---|---|---|")
    for name, label in (("counting", "the counting statement (`count_in_database`)"),
                        ("members", "the members with their disqualification (`_read_members`)"),
                        ("baseline", "the baseline SQL, for comparison")):
        print(f"| {label} | {group[name] * 1000:.2f} ms | {group[name] / group_prod:.0%} |")
    rest = group_prod - group["counting"] - group["members"]
    print(f"| the rest: ranking (`rank_tallies`), the table | {rest * 1000:.2f} ms | {rest / group_prod:.0%} |")

    if not args.no_curve:
        print(f"\ngrowth (battles = generals x {args.battles_per_general}; product median of 3 (1 from 5M "
              f"battles on), baseline median of {args.repeats}):")
        print("| generals | battles | baseline SQL | product | ratio | peak RSS so far |\n|---|---|---|---|---|---|")
        for generals in [int(g) for g in args.curve.split(",")]:
            battles = generals * args.battles_per_general
            _, base, prod = measure_season(generals, args.battles_per_general, args.seed, args.repeats,
                                           product_repeats=1 if battles >= 5_000_000 else 3)
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"| {generals:,} | {battles:,} | {base * 1000:,.0f} ms | {prod * 1000:,.0f} ms | "
                  f"{prod / base:.1f} | {rss:,.0f} MiB |", flush=True)

    print(f"reproduce: .venv/bin/python bench/standings.py --generals {args.generals} --battles-per-general "
          f"{args.battles_per_general} --seed {args.seed} --repeats {args.repeats} --group-size {args.group_size} "
          f"--group-repeats {args.group_repeats}" + (" --no-curve" if args.no_curve else f" --curve {args.curve}"))


if __name__ == "__main__":
    main()
