"""The grown shape (issue #28): two web processes and two Celery workers (and beat) started by the documented
commands (`scripts/run`, the Procfile) on PostgreSQL and Redis with production settings. An event is run
through the API alone, each request to the web processes in turn; both workers adjudicate the reports; after
each change both web processes answer the same live revision and the same scoreboard. Mid-run one worker is
killed (kill -9) while it holds a job, and one web process while a report is in flight to it, which its client
sends again to the other with the same Idempotency-Key. Afterwards nothing is lost and nothing is doubled:
every report the API accepted has one verdict and is counted once, and results and standings are those the
example replays' own verdict files give (../shared/examples/replays: an oracle independent of the site).

It needs PostgreSQL, Redis and real worker processes: where services are mandatory (CI) a missing one fails
it; elsewhere it is skipped loudly (tests/conftest.py)."""
import copy
import json
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.conf import settings

from tests.conftest import missing_service, tcp_answers
from tests.deploy.grown_site import Api, GrownSite, SiteFailed, expect, free_ports, token_of, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples" / "replays"
# On the event's 7 x 7 board: a Victory for Player-1, one for Player-2, and a Resolve.
PLAYED = ("victory-shackle", "victory-blunt", "resolve")
PLAYERS = ("Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal")
SLUG = "grown-open"
TASK = "tournaments.adjudicate_report"

# Short job limits (README, "Settings") so that a killed worker's job is taken over within seconds; the
# visibility timeout stays above the hard limit, as in production, so a healthy job is never handed out twice.
SOFT_LIMIT, HARD_LIMIT, VISIBILITY = 5, 7, 9
# The doomed worker holds each job this long (OPP_ADJUDICATION_DELAY), so that it can be killed holding one.
DOOMED_DELAY = 3.0
BURST = 3  # reports sent at once, so that the doomed worker, when idle, surely takes one
SCOREBOARD_SECONDS = 1.0  # a change shows on every web process's scoreboard within this (README, "REST API")


@pytest.fixture
def postgres_server():
    """The PostgreSQL server the suite runs on (its DATABASE_URL); the site gets a database of its own there."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        missing_service("the grown shape runs on PostgreSQL but the suite runs on "
                        f"{db['ENGINE'].rsplit('.', 1)[-1]}; set DATABASE_URL=postgres://postgres@127.0.0.1:5432/opp.")
    host, port = db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)
    if not tcp_answers(host, port):
        missing_service(f"PostgreSQL does not answer at {host}:{port}.")
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{host}:{port}/postgres"


@pytest.fixture
def examples():
    """{name: (replay document, its verdict)} of the played examples."""
    found = {}
    for name in PLAYED:
        replay, verdict = EXAMPLES / f"{name}.json", EXAMPLES / f"{name}.verdict.json"
        if not (replay.exists() and verdict.exists()):
            pytest.fail(f"the shared example {replay} (and its verdict file) is missing: the grown shape's "
                        f"results are checked against it", pytrace=False)
        found[name] = (json.loads(replay.read_text()), json.loads(verdict.read_text()))
    return found


@pytest.fixture
def site(tmp_path, redis_url, postgres_server):
    grown = GrownSite(tmp_path, redis_url, postgres_server)
    grown.create_database()
    try:
        yield grown
    finally:
        grown.stop_all()
        grown.drop_database()


class Plan:
    """For each battle: who is Player-1, which example log they played, who reports it, and what the
    example's verdict file says counts; and each general's OPP and Victories summed from those files."""

    def __init__(self, battles, examples):
        self.battles = []
        self.opp, self.victories = Counter(), Counter()
        for index, battle in enumerate(battles):
            a, b = battle["general_a"], battle["general_b"]
            side = dict(zip(("p1", "p2"), (a, b) if index % 2 == 0 else (b, a), strict=True))
            name = PLAYED[index % len(PLAYED)]
            document, verdict = copy.deepcopy(examples[name][0]), examples[name][1]
            for key, general in side.items():
                document["generals"][key]["name"] = general["name"]
                self.opp[general["id"]] += verdict["opp"][key]
            winner = side[verdict["winner"]] if verdict["winner"] else None
            if winner:
                self.victories[winner["id"]] += 1
            reporter = winner or side["p1"]
            self.battles.append({
                "id": battle["id"], "example": name, "reporter": reporter["id"],
                "opponent": next(g["id"] for g in side.values() if g is not reporter),
                "body": {"kind": verdict["outcome"], "winner": winner["id"] if winner else None,
                         "condition": verdict["condition"] or "", "player_1": side["p1"]["id"], "replay": document},
                "expected": {"kind": verdict["outcome"], "winner": winner["id"] if winner else None,
                             "condition": verdict["condition"], "player_1": side["p1"]["id"],
                             "opp": {str(general["id"]): verdict["opp"][key] for key, general in side.items()}},
            })


class Run:
    """The event as its organizer and players drive it through the API, and what the test saw."""

    def __init__(self, site, tokens):
        self.site, self.tokens = site, tokens
        self.generals = {}  # general id: the username of its player
        self.anonymous = Api(site)
        self.turn = 0
        self.accepted = {}  # report id: its battle's plan
        self.confirmed = set()
        self.revisions = []  # (live revision, scoreboard ETag) after each change
        self.scoreboard_lag = 0.0  # the longest wait for every web process to answer a changed scoreboard

    def as_user(self, username):
        return Api(self.site, self.tokens[username])

    def as_general(self, general_id):
        return self.as_user(self.generals[general_id])

    def next_web(self):
        """The web processes in turn (the survivor alone once one is killed)."""
        webs = sorted(self.site.webs)
        self.turn += 1
        return webs[self.turn % len(webs)]

    def post(self, username, path, body=None, status=201):
        """A POST with a fresh Idempotency-Key, as the API's clients send them, to the next web process."""
        return expect(self.as_user(username).post(self.next_web(), path, body, key=str(uuid.uuid4())), status)

    def same_revision_everywhere(self):
        """Every web process answers one live revision (/live/events/<slug>/) at once, and one scoreboard ETag
        within its documented second (each process keeps the scoreboard's head that long,
        tournaments/api/scoreboard.py); both differ from those seen before the change."""
        live = {requests.get(f"{self.site.webs[web]}/live/events/{SLUG}/", timeout=30).headers.get("ETag")
                for web in self.site.webs}
        assert len(live) == 1 and None not in live, f"the web processes answer different live revisions: {live}"
        live = live.pop()
        before = self.revisions[-1] if self.revisions else (None, None)
        assert live != before[0], "a change did not change the live revision"
        asked = time.monotonic()

        def one_new_scoreboard():
            tags = set()
            for web in self.site.webs:
                answer = self.anonymous.get(web, f"events/{SLUG}/scoreboard/")
                expect(answer, 200)
                tags.add(answer.headers["ETag"])
            return len(tags) == 1 and before[1] not in tags and tags.pop()

        board = wait_until(one_new_scoreboard, SCOREBOARD_SECONDS + 2,
                           "every web process to answer the changed scoreboard", interval=0.1)
        self.scoreboard_lag = max(self.scoreboard_lag, time.monotonic() - asked)
        self.revisions.append((live, board))

    def report(self, battle, web, key=None):
        answer = self.as_general(battle["reporter"]).post(web, f"battles/{battle['id']}/reports/", battle["body"],
                                                          key=key or str(uuid.uuid4()))
        self.accepted[expect(answer, 201)["id"]] = battle

    def confirm_checked(self):
        """The opponent confirms each report the engine checked; every web process then answers the change."""
        for report_id, battle in self.accepted.items():
            if report_id in self.confirmed:
                continue
            report = expect(self.as_general(battle["reporter"]).get(self.next_web(), f"reports/{report_id}/"), 200)
            if report["status"] != "checked":
                continue
            confirmed = self.post(self.generals[battle["opponent"]], f"reports/{report_id}/confirm/", status=200)
            assert confirmed["status"] == "confirmed", confirmed
            self.confirmed.add(report_id)
            self.same_revision_everywhere()


def start_the_grown_shape(site):
    """2 web processes, 2 workers (one doomed: slow, to be killed holding a job) and beat, by scripts/run."""
    webs = [site.start_web(name, port, WEB_CONCURRENCY=2) for name, port in zip(("web-a", "web-b"), free_ports(2),
                                                                                  strict=True)]
    limits = {"CELERY_TASK_SOFT_TIME_LIMIT": SOFT_LIMIT, "CELERY_TASK_TIME_LIMIT": HARD_LIMIT,
              "CELERY_VISIBILITY_TIMEOUT": VISIBILITY, "WORKER_CONCURRENCY": 1}
    steady = site.start("worker", "worker-steady", CELERY_NODENAME="steady@%h", **limits)
    doomed = site.start("worker", "worker-doomed", CELERY_NODENAME="doomed@%h", OPP_ADJUDICATION_DELAY=DOOMED_DELAY,
                        **limits)
    # Beat's sweep sends a job whose request died between its commit and handing the job over.
    site.start("beat", "beat", CELERY_BEAT_SCHEDULE=site.workdir / "celerybeat-schedule", OPP_SWEEP_SECONDS=5,
               **limits)
    site.wait_healthy(["steady@", "doomed@"], timeout=60)
    return webs, steady, doomed


def set_up_accounts(site, password):
    """Accounts as staff make them (there is no sign-up mail to verify here); the organizer holds the role."""
    names = ", ".join(repr(name.lower()) for name in PLAYERS)
    site.manage("shell", "-c", (
        "from django.contrib.auth import get_user_model\n"
        "from tournaments.events.membership import grant_organizer_role\n"
        "User = get_user_model()\n"
        f"grant_organizer_role(User.objects.create_user('olga', password={password!r}))\n"
        f"for name in ({names},):\n"
        f"    User.objects.create_user(name, password={password!r})\n"))


def open_the_event(run):
    """The organizer creates and publishes the event, the players join, the qualifying groups are formed."""
    run.post("olga", "events/", {"name": "Grown Open", "slug": SLUG, "published": True})
    run.same_revision_everywhere()
    for name in PLAYERS:
        joined = run.post(name.lower(), f"events/{SLUG}/join/", {"name": name})
        run.generals[joined["general"]["id"]] = name.lower()
        run.same_revision_everywhere()
    run.post("olga", f"events/{SLUG}/close-registration/", status=200)
    run.same_revision_everywhere()
    run.post("olga", f"events/{SLUG}/form-groups/", {"group_count": 2, "seed": 28}, status=200)
    run.same_revision_everywhere()
    battles = expect(run.anonymous.get(run.next_web(), f"battles/?event={SLUG}&page_size=200"), 200)["results"]
    assert len(battles) == 12, battles  # two qualifying groups of four, each a round robin
    return battles


def took_a_job_just_now(doomed, watch=1.0):
    """Whether the doomed worker takes a job within `watch` seconds; once it did, returns when it has marked
    the job running (0.3 s after taking it), well before its delay ends."""
    deadline = time.monotonic() + watch
    while time.monotonic() < deadline:
        held_for = [time.time() - received for received in doomed.held_jobs(TASK).values()]
        if held_for and max(held_for) <= DOOMED_DELAY - 1.5:
            time.sleep(max(0.0, 0.3 - max(held_for)))
            return True
        time.sleep(0.05)
    return False


def report_at_once(run, battles):
    """Reports sent at the same moment, each to the next web process: their jobs reach Redis together, so
    every idle worker takes one (a worker asks for its next job only once it finished the last)."""
    with ThreadPoolExecutor(len(battles)) as pool:
        for sent in [pool.submit(run.report, battle, run.next_web()) for battle in battles]:
            sent.result()


def kill_the_doomed_worker_holding_a_job(site, run, steady, doomed, todo):
    """Reports in bursts until the doomed worker, having finished a job, takes another; kill -9 then.
    Returns the job's adjudication, its attempts then, and when it was killed."""
    while True:
        if len(todo) < BURST + 2:
            raise SiteFailed("the doomed worker never took a job after finishing one; its log ends:\n"
                             + doomed.log_text()[-3000:])
        report_at_once(run, [todo.pop(0) for _ in range(BURST)])
        if doomed.succeeded(TASK) >= 1 and took_a_job_just_now(doomed):
            break
        wait_until(lambda: not doomed.held_jobs(TASK), DOOMED_DELAY + SOFT_LIMIT, "the doomed worker to be idle")
        run.same_revision_everywhere()
        run.confirm_checked()
    site.kill(doomed)
    killed_at = time.monotonic()
    with site.connect() as db:
        def only_the_orphan_left():
            """(orphan, its attempts before any takeover, whether it is still waiting) once the steady worker
            finished every other job. On a slow machine the orphan's message may already have come back
            (after the visibility timeout) and been run by the steady worker: then it is the one job run
            twice, and it had one attempt fewer before."""
            unfinished = db.execute("SELECT id, attempts FROM tournaments_adjudication WHERE state <> 'done'"
                                    ).fetchall()
            if len(unfinished) == 1:
                return (*unfinished[0], True)
            again = db.execute("SELECT id, attempts FROM tournaments_adjudication WHERE attempts > 1").fetchall()
            if not unfinished and len(again) == 1:
                return again[0][0], again[0][1] - 1, False
            return None

        try:
            orphan, attempts, waiting = wait_until(only_the_orphan_left, VISIBILITY + 3 * HARD_LIMIT,
                                                   "every job but the killed worker's to be done")
        except SiteFailed as failure:
            rows = db.execute("SELECT id, state, attempts, started_at, finished_at FROM tournaments_adjudication "
                              "WHERE state <> 'done' OR attempts <> 1 ORDER BY id").fetchall()
            raise SiteFailed(f"{failure}; the jobs not done once: {rows}; the steady worker holds "
                             f"{steady.held_jobs(TASK)}; its log ends:\n{steady.log_text()[-3000:]}") from None
    if waiting:
        assert site.jobs_in_redis(TASK) == 1, "the killed worker's job is not kept in Redis for another worker"
    run.same_revision_everywhere()  # the report just sent is a change too
    return orphan, attempts, killed_at


def kill_web_a_with_a_report_in_flight(site, run, web_a, battle):
    """A report in flight to web-a when it is killed: the test holds the event's row lock, so the request
    waits inside its step, its Idempotency-Key claimed; web-a is killed; its client sends the report again,
    with the same key, to web-b, which must record it (once)."""
    key, first_try = str(uuid.uuid4()), {}

    def send_to_web_a():
        try:
            first_try["answer"] = run.as_general(battle["reporter"]).post(
                "web-a", f"battles/{battle['id']}/reports/", battle["body"], key=key, timeout=60)
        except requests.RequestException as error:  # the connection is cut: what the client sees
            first_try["error"] = error

    with site.connect() as holder, site.connect() as watcher, holder.transaction():
        holder.execute("SELECT id FROM tournaments_event WHERE slug = %s FOR UPDATE", [SLUG])
        sender = threading.Thread(target=send_to_web_a)
        sender.start()
        wait_until(lambda: watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [site.database]).fetchone()[0], 20, "the report to web-a to wait inside its step")
        site.kill(web_a)
        sender.join(timeout=20)
    # The lock is released: the dead request's database session ends with nothing done.
    assert "error" in first_try, f"the request to the killed web process was answered: {first_try}"
    again = run.as_general(battle["reporter"]).post("web-b", f"battles/{battle['id']}/reports/", battle["body"],
                                                    key=key)
    assert again.status_code == 201, (
        f"the report sent again with its Idempotency-Key after its web process was killed mid-request was "
        f"answered {again.status_code}, not recorded: {again.text[:500]}")
    run.accepted[again.json()["id"]] = battle


def db_value(site, sql, params=()):
    with site.connect() as db:
        row = db.execute(sql, params).fetchone()
    return row[0] if row else None


def test_the_grown_shape_loses_nothing_when_a_web_process_and_a_worker_are_killed(site, examples, record_property):
    started = time.monotonic()
    site.manage("migrate", "--noinput")
    password = str(uuid.uuid4())
    set_up_accounts(site, password)
    booting = time.monotonic()
    (web_a, _web_b), steady, doomed = start_the_grown_shape(site)
    startup = time.monotonic() - booting

    # The organizer and the players sign in through the API, each at the web process whose turn it is.
    webs = sorted(site.webs)
    usernames = ["olga", *(name.lower() for name in PLAYERS)]
    run = Run(site, {name: token_of(site, webs[i % 2], name, password) for i, name in enumerate(usernames)})
    plan = Plan(open_the_event(run), examples)
    todo = list(plan.battles)

    orphan, attempts_then, killed_at = kill_the_doomed_worker_holding_a_job(site, run, steady, doomed, todo)
    kill_web_a_with_a_report_in_flight(site, run, web_a, todo.pop(0))
    while todo:  # the rest of the event on the surviving web process
        run.report(todo.pop(0), run.next_web())
        run.same_revision_everywhere()
        run.confirm_checked()
    takeover = wait_until(lambda: db_value(site, "SELECT attempts FROM tournaments_adjudication WHERE id = %s",
                                           [orphan]) > attempts_then and time.monotonic(),
                          4 * HARD_LIMIT, "another worker to take the killed worker's job", interval=0.2) - killed_at
    wait_until(lambda: run.confirm_checked() or len(run.confirmed) == len(plan.battles), 60,
               "every report checked by the engine and confirmed by its opponent", interval=0.3)

    # Nothing lost, nothing doubled: every report accepted is stored once, adjudicated once, counted once.
    with site.connect() as db:
        rows = db.execute(
            "SELECT r.id, r.battle_id, r.status, a.state, a.attempts, a.verdict IS NOT NULL "
            "FROM tournaments_report r JOIN tournaments_adjudication a ON a.report_id = r.id "
            "JOIN tournaments_battle b ON b.id = r.battle_id JOIN tournaments_event e ON e.id = b.event_id "
            "WHERE e.slug = %s ORDER BY r.id", [SLUG]).fetchall()
        unfinished = db.execute("SELECT count(*) FROM tournaments_report WHERE status IN ('queued', 'adjudicating')"
                                ).fetchone()[0]
    assert sorted(row[0] for row in rows) == sorted(run.accepted), "the reports stored are not those accepted"
    assert Counter(row[1] for row in rows) == Counter(b["id"] for b in plan.battles), "a battle reported twice"
    assert all(row[2:4] == ("confirmed", "done") and row[5] for row in rows), rows
    orphan_report = db_value(site, "SELECT report_id FROM tournaments_adjudication WHERE id = %s", [orphan])
    assert {row[0]: row[4] for row in rows if row[4] != 1} == {orphan_report: attempts_then + 1}, \
        "only the killed worker's job was run twice"
    assert unfinished == 0 and site.jobs_in_redis(TASK) == 0, "a job was left in the queue"

    survivor = next(iter(site.webs))
    olga = run.as_user("olga")
    decided = expect(run.anonymous.get(survivor, f"battles/?event={SLUG}&page_size=200"), 200)["results"]
    for battle in plan.battles:
        result = next(row for row in decided if row["id"] == battle["id"])["result"]
        assert {name: result[name] for name in battle["expected"]} == battle["expected"], battle["example"]
    audit = expect(olga.get(survivor, f"events/{SLUG}/audit/?page_size=200"), 200)["results"]
    counted = Counter(entry["subject"] for entry in audit if entry["action"] == "result recorded")
    assert len(counted) == len(plan.battles) and set(counted.values()) == {1}, counted
    assert not [entry for entry in audit if entry["action"] == "result corrected"]

    # The standings the surviving web process shows are those the examples' verdict files give.
    tables = expect(run.anonymous.get(survivor, f"events/{SLUG}/standings/"), 200)["tables"]
    qualifying = [table for table in tables if table["stage"] == "qualifying"]  # the Final Group starts afresh
    shown = {line["general"]["id"]: (line["opp"], line["victories"]) for table in qualifying for line in table["rows"]}
    assert shown == {general: (plan.opp[general], plan.victories[general]) for general in run.generals}

    # Both workers adjudicated (their logs' "succeeded" lines), the doomed one before it was killed.
    assert doomed.succeeded(TASK) >= 1 and steady.succeeded(TASK) >= 1
    record_property("measured_grown_startup", f"2 web processes, 2 workers and beat answering /healthz ok "
                                              f"{startup:.1f} s after they were started; the whole run "
                                              f"{time.monotonic() - started:.1f} s")
    record_property("measured_grown_takeover", f"the killed worker's job was taken by the other {takeover:.1f} s "
                                               f"after the kill (hard limit {HARD_LIMIT} s, visibility timeout "
                                               f"{VISIBILITY} s); jobs done: steady {steady.succeeded(TASK)}, "
                                               f"doomed {doomed.succeeded(TASK)}")
    record_property("measured_grown_scoreboard", f"every web process answered a changed scoreboard within "
                                                 f"{run.scoreboard_lag:.2f} s of the change at worst "
                                                 f"({len(run.revisions)} changes)")
