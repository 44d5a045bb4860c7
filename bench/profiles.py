"""cProfile of the paths whose goals are not met: where the time goes.

    .venv/bin/python bench/profiles.py engine|standings|group|scoreboard|job [--top 25]

- engine: `rules_engine.adjudicate` over the engine benchmark's corpus (200 games, seed 2026, 120 turns);
- standings: `season_standings` of the 10,000-general season (run bench/standings.py first to load it);
- group: `group_standings` of the 64-general group, 200 times (same database);
- scoreboard: 500 GET requests of the scoreboard (warm cache) through Django's test client on the API
  benchmark's database and Redis (run bench/api.py first), 250 plain, 250 with If-None-Match;
- job: `adjudication.adjudicate` (the whole job, in process) for 199 reports after one not profiled (the jobs
  benchmark's database, OPP_BENCH_JOBS_DATABASE).

Prints the top functions by cumulative time and by own time.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_django  # noqa: E402


def engine():
    from rules_engine import adjudicate, generate_game, load_replay

    replays = [load_replay(generate_game(2026 + n, max_turns=120)) for n in range(200)]
    return lambda: [adjudicate(replay) for replay in replays]


def standings():
    setup_django("opp_bench_standings_10000", migrate=False)
    from tournaments.models import Season
    from tournaments.standings.tables import season_standings

    season = Season.objects.select_related("event").get(event__slug="bench-league-10000-1000000-2026")
    return lambda: season_standings(season)


def group():
    setup_django("opp_bench_standings_10000", migrate=False)
    from tournaments.models import Group
    from tournaments.standings.tables import group_standings

    the_group = Group.objects.select_related("event").get(event__slug="bench-group-64-2026")
    return lambda: [group_standings(the_group) for _ in range(200)]


def scoreboard():
    os.environ["SECURE_SSL_REDIRECT"] = "false"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    setup_django("opp_bench_api", redis_url="redis://127.0.0.1:6379/14", migrate=False)
    from django.test import Client

    client = Client()
    url = "/api/v1/events/demo-spring-qualifier/scoreboard/"
    etag = client.get(url, HTTP_X_FORWARDED_FOR="10.0.0.1")["ETag"]

    def run():
        for n in range(500):
            extra = {"HTTP_IF_NONE_MATCH": etag} if n % 2 else {}
            client.get(url, HTTP_X_FORWARDED_FOR=f"10.{random.randrange(256)}.{random.randrange(256)}.{n % 250}",
                       **extra)
    return run


def job():
    import jobs

    jobs.setup()  # a fresh database (OPP_BENCH_JOBS_DATABASE) is migrated first; a migrated one costs nothing

    import rules_engine

    replays = [rules_engine.generate_game(1 + n) for n in range(200)]
    verdicts = [rules_engine.adjudicate(json.dumps(replay)).to_dict() for replay in replays]
    ids = jobs.prepare("profile", replays, verdicts)

    from tournaments.results import adjudication

    adjudication.adjudicate(ids[0])  # warm: the first job imports what the mails' links need (the URLconf)
    return lambda: [adjudication.adjudicate(i) for i in ids[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=["engine", "standings", "group", "scoreboard", "job"])
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    run = globals()[args.target]()
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order)
        stats.print_stats(args.top)
        text = out.getvalue()
        print(f"== by {order} ==")
        print(text[text.index("ncalls"):] if "ncalls" in text else text)
    print(f"reproduce: .venv/bin/python bench/profiles.py {args.target} --top {args.top}")


if __name__ == "__main__":
    main()
