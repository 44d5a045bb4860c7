"""The demo: a complete event built with the same services organizers use.

Demo Spring Qualifier: 8 generals drawn into 2 qualifying groups of 4 with a recorded seed;
Group A is finished (its winner has advanced), Group B is half played, with a forfeit and a
stalemate among the results so the tie-break columns have something to show. Two Group B battles
are reported by their generals with replay logs: one the rules engine checked, waiting for the
opponent's confirmation with its countdown; one it disputes (the report names the wrong victory
condition), waiting in the organizer's queue. Demo Winter League: a league season with recorded
battles and one a member reported, waiting for the opponent. The demo loads once, so both events
keep a confirmation window of 30 days (the longest allowed) instead of the defaults (30 minutes, 3
days): the waiting reports and their countdowns stay to be seen. The players registered themselves
(their consent); everyone signs in with the password below.

Demo Warlord CCG Open (Swiss, top 4 after three rounds): the organizer's card pool, six decks of
which one breaks two construction rules (shown with its sentences, then accepted by the organizer with
a reason), two Swiss rounds played, the third to pair. Demo Reaper Skirmish: registration open, the
organizer's model list and two checked army lists of 1000 points or less.
"""
import json
from pathlib import Path

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from tournaments.events import services
from tournaments.leagues import seasons
from tournaments.lists import services as lists
from tournaments.models import Battle, Event, General
from tournaments.results import arranged, recording, reporting
from tournaments.swiss import rounds as swiss

DEMO_PASSWORD = "warline-demo"
DEMO_EVENT_SLUG = "demo-spring-qualifier"
DEMO_LEAGUE_SLUG = "demo-winter-league"
DEMO_CCG_SLUG = "demo-warlord-ccg-open"
DEMO_REAPER_SLUG = "demo-reaper-skirmish"
DATA = Path(__file__).parent / "demo_data"
DEMO_GROUP_SEED = 20261121
DEMO_CONFIRMATION_MINUTES = 30 * 24 * 60  # the demo loads once: its waiting reports stay waiting a while
PLAYERS = [
    ("alice", "Alice Ashford"), ("bruno", "Bruno Brandt"), ("chen", "Chen Wei"), ("dana", "Dana Dufresne"),
    ("emil", "Emil Eriksen"), ("farah", "Farah Fadel"), ("goran", "Goran Golub"), ("hana", "Hana Horvat"),
]

# Results by (group index, battle number), naming generals by their table position in the group.
# Group A: every battle decided. Group B: half of them, the rest still to play.
SCRIPT = {
    (0, 1): dict(kind="victory", winner=1, condition="shackle"),
    (0, 2): dict(kind="victory", winner=2, condition="crush"),
    (0, 3): dict(kind="stalemate"),
    (0, 4): dict(kind="victory", winner=1, condition="blunt"),
    (0, 5): dict(kind="victory", winner=0, condition="overpower"),
    (0, 6): dict(kind="victory", winner=1, condition="paralyze"),
    (1, 1): dict(kind="victory", winner=0, condition="crush"),
    (1, 2): dict(kind="forfeit", forfeited_by=1),
    (1, 3): dict(kind="victory", winner=1, condition="forced_surrender"),
}


def _user(username, *, staff=False):
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=username)
    user.is_staff = user.is_superuser = staff
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def _generals():
    generals = []
    for username, name in PLAYERS:
        user = _user(username)
        general, _ = General.objects.get_or_create(user=user, defaults={"name": name})
        generals.append(general)
    return generals


def _play_script(event, organizer):
    for group in event.groups.order_by("index"):
        members = [m.general for m in group.members.order_by("position")]
        for battle in group.battles.filter(playoff=False).order_by("number"):
            step = SCRIPT.get((group.index, battle.number))
            if step is None:
                continue
            pair = [battle.general_a, battle.general_b]
            # Positions in the script are read relative to the battle's two generals, in table order.
            pair.sort(key=members.index)
            result = dict(step)
            for field in ("winner", "forfeited_by"):
                if field in result:
                    result[field] = pair[min(result[field], 1)]
            result.setdefault("player_1", pair[battle.number % 2])
            recording.record_result(battle, actor=organizer, **result)


def _victory_replays():
    """Seeded legal games from the engine's generator that end in a victory, with their verdicts."""
    import rules_engine
    from rules_engine.generator import generate_game

    seed = 0
    while True:
        seed += 1
        replay = generate_game(seed)
        verdict = rules_engine.adjudicate(replay).to_dict()
        if verdict.get("outcome") == "victory":
            yield replay, verdict


def _report_with_replays(event):
    """Battles 4 and 5 of Group B: reported by a general with the replay; the second report names
    another condition than the replay gives, so the engine disputes it."""
    group = event.groups.get(index=1)
    replays = _victory_replays()
    for number, honest in ((4, True), (5, False)):
        battle = group.battles.get(number=number)
        replay, verdict = next(replays)
        sides = {"p1": battle.general_a, "p2": battle.general_b}
        for side, general in sides.items():
            replay["generals"][side]["name"] = general.name
        replay["meta"] = {"event": event.name, "battle": f"{group.name} battle {number}"}
        winner = sides[verdict["winner"]]
        condition = verdict["condition"] if honest else ("crush" if verdict["condition"] != "crush" else "blunt")
        reporting.submit_report(battle, user=winner.user, kind=Battle.Kind.VICTORY, winner=winner,
                                condition=condition, player_1=battle.general_a, replay=replay)


def load_demo():
    """Creates the demo once; returns the demo event. Running it again changes nothing."""
    existing = Event.objects.filter(slug=DEMO_EVENT_SLUG).first()
    if existing:
        return existing
    organizer = _user("organizer", staff=True)
    generals = _generals()
    event = services.create_event(name="Demo Spring Qualifier", slug=DEMO_EVENT_SLUG, actor=organizer, rated=True,
                                  confirmation_minutes=DEMO_CONFIRMATION_MINUTES, venue="The Keep, Hall 2", time_zone="Europe/Berlin",
                                  description="Eight generals, two qualifying groups of four, then the final "
                                              "group: a one-day qualifier with the Core Rules.")
    for general in generals:
        services.register(event, general, actor=general.user)  # self-registration: the player's consent
    services.close_registration(event, actor=organizer)
    services.form_groups(event, 2, "random", seed=DEMO_GROUP_SEED, actor=organizer)
    _play_script(event, organizer)
    _report_with_replays(event)

    league = services.create_event(name="Demo Winter League", slug=DEMO_LEAGUE_SLUG, kind=Event.Kind.LEAGUE,
                                   confirmation_minutes=DEMO_CONFIRMATION_MINUTES, rated=True,
                                   actor=organizer, time_zone="Europe/Berlin",
                                   description="Battles arranged between members all winter; a season's "
                                               "standings crown its champion.")
    for general in generals[:6]:
        services.register(league, general, actor=general.user)
    season = seasons.open_season(league, "Winter 2026", actor=organizer)
    a, b, c, d, e, f = generals[:6]
    arranged.record_arranged_battle(season, a, d, kind=Battle.Kind.VICTORY, winner=a, condition="crush",
                                    actor=organizer)
    arranged.record_arranged_battle(season, b, e, kind=Battle.Kind.VICTORY, winner=e, condition="shackle",
                                    actor=organizer)
    arranged.record_arranged_battle(season, c, f, kind=Battle.Kind.RESOLVE, actor=organizer)
    scheduled = seasons.schedule_battle(season, a, e, actor=organizer)
    reporting.submit_report(scheduled, user=e.user, kind=Battle.Kind.VICTORY, winner=e, condition="blunt")
    _warlord_ccg_event(organizer, generals)
    _reaper_event(organizer, generals)
    # Addresses last, so building the demo mails nobody; from here on the console shows the emails.
    for user in get_user_model().objects.filter(username__in=["organizer", *(name for name, _ in PLAYERS)]):
        user.email = f"{user.username}@demo.warline.invalid"
        user.save(update_fields=["email"])
        # Recorded as verified, as a confirmed sign-up's would be: the demo logins sign in by username or email.
        EmailAddress.objects.update_or_create(user=user, email=user.email,
                                              defaults={"verified": True, "primary": True})
    event.refresh_from_db()
    return event


def _demo_lists():
    return json.loads((DATA / "lists.json").read_text(encoding="utf-8"))


def _warlord_ccg_event(organizer, generals):
    """Six players, their decks checked against the pool (Farah's has 4 copies of a card and an Epic
    card twice), two Swiss rounds played and counted, the third to pair."""
    decks = _demo_lists()
    event = services.create_event(
        name="Demo Warlord CCG Open", slug=DEMO_CCG_SLUG, actor=organizer, game="warlord-ccg-4e", top_cut=4,
        swiss_rounds=3, confirmation_minutes=DEMO_CONFIRMATION_MINUTES, time_zone="Europe/Berlin",
        venue="The Keep, Hall 3", description="Warlord: Saga of the Storm, 4th edition: three Swiss rounds with "
                                             "decks checked against the event's card pool, then a top 4.")
    lists.set_pool(event, user=organizer, csv_text=(DATA / "warlord_ccg_pool.csv").read_text(encoding="utf-8"))
    players = generals[:6]
    for index, general in enumerate(players):
        services.register(event, general, actor=general.user)
        deck = decks["too_many"] if index == 5 else decks["dwarves" if index % 2 == 0 else "elves"]
        lists.submit(event, general, user=general.user, text=json.dumps(deck, ensure_ascii=False))
    lists.accept(event, players[5], user=organizer, version=1,
                 reason="Played as registered at the venue's league night; fixed for the next event.")
    services.close_registration(event, actor=organizer)
    for _round in range(2):
        paired = swiss.pair_next_round(event, actor=organizer)
        for battle in paired.battles.order_by("number"):
            if battle.number == 3 and paired.number == 2:
                recording.record_result(battle, kind="draw", facts={"status": "unfinished", "turns": 7})
            else:
                recording.record_result(battle, kind="victory", winner=battle.general_a,
                                        facts={"status": "finished"})
    return event


def _reaper_event(organizer, generals):
    """Registration open: the model list, two checked armies, a points limit of 1000 (RQ:126)."""
    armies = _demo_lists()
    event = services.create_event(
        name="Demo Reaper Skirmish", slug=DEMO_REAPER_SLUG, actor=organizer, game="reaper-warlord",
        time_zone="Europe/Berlin", venue="The Keep, Hall 1",
        description="Reaper's Warlord: 1000-point armies checked against the event's model list, Swiss rounds.")
    lists.set_pool(event, user=organizer,
                   csv_text=(DATA / "reaper_warlord_models.csv").read_text(encoding="utf-8"))
    lists.set_rules(event, user=organizer, visibility=event.ListVisibility.OPEN, options={"points_limit": 1000})
    for general, army in zip(generals[6:8], ("crusaders", "necropolis"), strict=True):
        services.register(event, general, actor=general.user)
        lists.submit(event, general, user=general.user, text=json.dumps(armies[army], ensure_ascii=False))
    return event
