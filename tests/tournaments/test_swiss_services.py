"""Swiss events through their services (tournaments/swiss, tournaments/events/services.py), as an
organizer, a rival organizer and a player trying their luck would use them: when a round may be paired,
byes, drops, late entries, the top cut, and the settings a Swiss event refuses at creation."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, Event, General, Registration, SwissRound
from tournaments.results import recording
from tournaments.swiss import rounds, standings

pytestmark = pytest.mark.django_db

WARLORD = "warlord-ccg-4e"
REAPER = "reaper-warlord"
NAMES = ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def organizer(username):
    return grant_organizer_role(get_user_model().objects.create_user(username))


def player(name):
    return General.objects.create(name=name, user=get_user_model().objects.create_user(name.lower()))


def swiss_event(count, *, slug="storm-swiss", close=True, **settings):
    """Olga's Warlord CCG Swiss event with `count` players who entered themselves; Oscar organizes
    another event."""
    olga = organizer("olga")
    oscar = organizer("oscar")
    services.create_event(name="Rival", slug="rival", game=WARLORD, actor=oscar)
    event = services.create_event(name="Storm Swiss", slug=slug, game=WARLORD, actor=olga, **settings)
    generals = [player(name) for name in NAMES[:count]]
    for general in generals:
        services.register(event, general, actor=general.user)
    if close:
        services.close_registration(event, actor=olga)
    return Event.objects.get(pk=event.pk), olga, oscar, generals


def fresh(event):
    return Event.objects.get(pk=event.pk)


def round_battles(swiss_round):
    return list(Battle.objects.filter(swiss_round=swiss_round).order_by("number"))


def pairs_of(swiss_round):
    return {frozenset((b.general_a_id, b.general_b_id)) for b in round_battles(swiss_round)}


def play_round(swiss_round, olga, strength=None):
    """Every undecided battle of the round won by the player earlier in `strength` (ids), or by the first
    listed, recorded by the organizer."""
    for battle in round_battles(swiss_round):
        if battle.kind:
            continue
        if strength:
            winner = min((battle.general_a, battle.general_b), key=lambda g: strength.index(g.pk))
        else:
            winner = battle.general_a
        recording.record_result(battle, kind="victory", winner=winner, actor=olga)


def rows_by_id(event):
    return {row.id: row for row in standings.compute(fresh(event))}


# --- when a round may be paired ----------------------------------------------------------------------------

def test_a_round_is_not_paired_before_registration_closes():
    event, olga, _oscar, _generals = swiss_event(4, close=False)
    with pytest.raises(Conflict, match="Close registration"):
        rounds.pair_next_round(event, actor=olga)
    assert not SwissRound.objects.filter(event=event).exists()


def test_the_next_round_waits_for_every_result_of_the_current_one():
    event, olga, _oscar, _generals = swiss_event(4, swiss_rounds=3)
    first = rounds.pair_next_round(event, actor=olga)
    one, other = round_battles(first)
    recording.record_result(one, kind="victory", winner=one.general_a, actor=olga)
    with pytest.raises(Conflict, match="1 battle of the current round has no counted result"):
        rounds.pair_next_round(event, actor=olga)
    assert SwissRound.objects.filter(event=event).count() == 1
    recording.record_result(other, kind="draw", actor=olga)
    assert rounds.pair_next_round(event, actor=olga).number == 2


def test_no_round_is_paired_after_the_planned_rounds():
    event, olga, _oscar, _generals = swiss_event(4, swiss_rounds=2, top_cut=4)
    for _ in range(2):
        play_round(rounds.pair_next_round(event, actor=olga), olga)
    with pytest.raises(Conflict, match="All 2 Swiss rounds are paired"):
        rounds.pair_next_round(event, actor=olga)
    assert rounds.swiss_rounds(event).count() == 2


def test_the_planned_rounds_follow_the_field_when_the_organizer_sets_none():
    event, olga, _oscar, _generals = swiss_event(5)
    rounds.pair_next_round(event, actor=olga)
    assert fresh(event).swiss_rounds == 3  # ceil(log2 5)


@pytest.mark.parametrize("who", ["player", "oscar"])
def test_a_player_or_another_events_organizer_cannot_pair_or_start_the_cut(who):
    event, olga, oscar, generals = swiss_event(4, swiss_rounds=1, top_cut=4)
    user = generals[0].user if who == "player" else oscar
    with pytest.raises(NotAllowed):
        rounds.pair_next_round(event, actor=user)
    assert not SwissRound.objects.filter(event=event).exists()
    play_round(rounds.pair_next_round(event, actor=olga), olga)
    with pytest.raises(NotAllowed):
        rounds.start_top_cut(event, actor=user)
    assert not SwissRound.objects.filter(event=event, stage="top_cut").exists()


def test_a_round_of_a_groups_event_is_refused():
    olga = organizer("olga")
    event = services.create_event(name="Harbour", slug="harbour", actor=olga)  # WARLINE groups
    services.close_registration(event, actor=olga)
    with pytest.raises(Conflict, match="Organized Play groups"):
        rounds.pair_next_round(event, actor=olga)


# --- byes -----------------------------------------------------------------------------------------------------

def test_an_odd_field_gets_a_bye_each_round_and_nobody_gets_two_while_avoidable():
    event, olga, _oscar, generals = swiss_event(5, swiss_rounds=3)
    ids = {g.pk for g in generals}
    byes, met = [], set()
    for _ in range(3):
        swiss_round = rounds.pair_next_round(event, actor=olga)
        assert swiss_round.bye_id is not None
        paired = [g for pair in pairs_of(swiss_round) for g in pair]
        assert sorted(paired + [swiss_round.bye_id]) == sorted(ids)  # everyone once: a table or the bye
        assert not pairs_of(swiss_round) & met and swiss_round.rematches == 0  # no rematch in 5 players, 3 rounds
        met |= pairs_of(swiss_round)
        byes.append(swiss_round.bye_id)
        play_round(swiss_round, olga)
    assert len(set(byes)) == 3
    rows = rows_by_id(event)
    assert all(rows[bye].byes == 1 for bye in byes)
    assert sum(row.byes for row in rows.values()) == 3


def test_three_players_over_three_rounds_each_get_exactly_one_bye():
    event, olga, _oscar, generals = swiss_event(3, swiss_rounds=3)
    byes = []
    for _ in range(3):
        swiss_round = rounds.pair_next_round(event, actor=olga)
        byes.append(swiss_round.bye_id)
        play_round(swiss_round, olga)
    assert sorted(byes) == sorted(g.pk for g in generals)


def test_a_bye_scores_the_events_bye_points():
    event, olga, _oscar, _generals = swiss_event(3, swiss_rounds=1, scoring={"bye": 2})
    swiss_round = rounds.pair_next_round(event, actor=olga)
    play_round(swiss_round, olga)
    assert rows_by_id(event)[swiss_round.bye_id].score == 2


# --- drops ----------------------------------------------------------------------------------------------------

def test_a_dropped_player_is_never_paired_again_and_stays_in_the_standings():
    event, olga, _oscar, generals = swiss_event(6, swiss_rounds=4)
    first = rounds.pair_next_round(event, actor=olga)
    play_round(first, olga)
    leaver = round_battles(first)[0].general_a  # a winner: 3 points
    rounds.drop(event, leaver, actor=leaver.user)
    assert fresh(event).registrations.get(general=leaver).dropped_after_round == 1
    for _ in range(3):
        swiss_round = rounds.pair_next_round(event, actor=olga)
        assert leaver.pk not in {g for pair in pairs_of(swiss_round) for g in pair}
        assert swiss_round.bye_id != leaver.pk
        assert swiss_round.bye_id is not None  # five left: a bye every round
        play_round(swiss_round, olga)
    row = rows_by_id(event)[leaver.pk]
    assert row.dropped and row.score == 3 and row.wins == 1
    assert len(rows_by_id(event)) == 6


def test_only_the_player_or_an_organizer_drops_a_player_and_only_once():
    event, olga, oscar, generals = swiss_event(4, swiss_rounds=2)
    ada, ben = generals[0], generals[1]
    for user in (ben.user, oscar):
        with pytest.raises(NotAllowed):
            rounds.drop(event, ada, actor=user)
    assert fresh(event).registrations.get(general=ada).dropped_after_round is None
    rounds.drop(event, ada, actor=olga)
    with pytest.raises(Conflict, match="already"):
        rounds.drop(event, ada, actor=ada.user)


def test_a_disqualified_player_is_never_paired_again():
    """R23 keeps a disqualified general's place marked; in a Swiss event they must leave the field like a
    drop, or their next battle could never be recorded and the event would stall."""
    event, olga, _oscar, generals = swiss_event(4, swiss_rounds=3)
    first = rounds.pair_next_round(event, actor=olga)
    play_round(first, olga)
    cheat = generals[0]
    services.disqualify(event, cheat, reason="other", details="Marked cards.", actor=olga)
    second = rounds.pair_next_round(event, actor=olga)
    assert cheat.pk not in {g for pair in pairs_of(second) for g in pair} and second.bye_id != cheat.pk
    play_round(second, olga)
    assert rows_by_id(event)[cheat.pk].dropped


# --- late entries ---------------------------------------------------------------------------------------------

def test_an_organizer_enters_a_latecomer_between_rounds_who_plays_from_the_next_round_with_no_points():
    event, olga, _oscar, generals = swiss_event(4, swiss_rounds=3)
    first = rounds.pair_next_round(event, actor=olga)
    play_round(first, olga)
    late = player("Kim")
    with pytest.raises(Conflict):
        services.register(event, late, actor=late.user)  # the latecomer cannot enter themselves
    walk_in = General.objects.create(name="Lou")
    entry = services.register(event, walk_in, actor=olga)
    assert entry.status == Registration.Status.ACTIVE
    assert walk_in.pk not in {g for pair in pairs_of(first) for g in pair}
    row = rows_by_id(event)[walk_in.pk]
    assert (row.score, row.wins, row.losses, row.byes) == (0, 0, 0, 0)
    second = rounds.pair_next_round(event, actor=olga)
    assert walk_in.pk in {g for pair in pairs_of(second) for g in pair} | {second.bye_id}
    assert second.bye_id is not None  # five in the field now


def test_no_late_entry_once_the_top_cut_started():
    event, olga, _oscar, _generals = swiss_event(4, swiss_rounds=1, top_cut=4)
    play_round(rounds.pair_next_round(event, actor=olga), olga)
    rounds.start_top_cut(event, actor=olga)
    with pytest.raises(Conflict):
        services.register(event, General.objects.create(name="Lou"), actor=olga)


# --- the top cut ----------------------------------------------------------------------------------------------

def test_the_top_cut_seeds_the_four_best_still_in_the_field_1v4_2v3_and_crowns_its_winner():
    event, olga, _oscar, generals = swiss_event(8, swiss_rounds=3, top_cut=4)
    strength = [g.pk for g in generals]  # Ada beats everyone, then Ben, ...
    with pytest.raises(Conflict, match="once every Swiss round"):
        rounds.start_top_cut(event, actor=olga)
    for _ in range(3):
        play_round(rounds.pair_next_round(event, actor=olga), olga, strength)
    table = standings.compute(fresh(event))
    leader = table[0].id
    leaver = General.objects.get(pk=leader)
    rounds.drop(event, leaver, actor=leaver.user)  # the leader leaves before the cut
    seeds = [row.id for row in standings.compute(fresh(event)) if not row.dropped][:4]
    assert leader not in seeds

    rounds.start_top_cut(event, actor=olga)
    semis = SwissRound.objects.get(event=event, stage="top_cut", number=1)
    battles = round_battles(semis)
    assert [(b.general_a_id, b.general_b_id) for b in battles] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    assert fresh(event).state == Event.State.FINAL

    with pytest.raises(DomainError, match="single elimination") as refused:
        recording.record_result(battles[0], kind="draw", actor=olga)
    assert refused.value.field == "kind"
    swiss_battle = Battle.objects.filter(event=event, swiss_round__stage="swiss").first()
    with pytest.raises(Conflict, match="top cut was seeded"):
        recording.record_result(swiss_battle, kind="victory", winner=swiss_battle.general_b, actor=olga,
                                reason="Misreported.")

    recording.record_result(battles[0], kind="victory", winner=battles[0].general_b, actor=olga)  # seed 4 wins
    recording.record_result(battles[1], kind="forfeit", forfeited_by=battles[1].general_b, actor=olga)
    final = SwissRound.objects.get(event=event, stage="top_cut", number=2)
    (match,) = round_battles(final)
    assert (match.general_a_id, match.general_b_id) == (seeds[3], seeds[1])
    with pytest.raises(Conflict, match="next top-cut round was paired"):
        recording.record_result(battles[0], kind="victory", winner=battles[0].general_a, actor=olga,
                                reason="Misreported.")
    recording.record_result(match, kind="victory", winner=match.general_b, actor=olga)
    done = fresh(event)
    assert (done.state, done.victor_id) == (Event.State.COMPLETE, seeds[1])
    with pytest.raises(Conflict):
        rounds.pair_next_round(event, actor=olga)


def test_a_top_cut_needs_enough_players_still_in_the_field():
    event, olga, _oscar, generals = swiss_event(4, swiss_rounds=1, top_cut=4)
    play_round(rounds.pair_next_round(event, actor=olga), olga)
    rounds.drop(event, generals[3], actor=olga)
    with pytest.raises(Conflict, match="needs 4 players"):
        rounds.start_top_cut(event, actor=olga)
    assert not SwissRound.objects.filter(event=event, stage="top_cut").exists()


def test_a_disqualified_semi_finalists_opponent_goes_on_to_the_final():
    """The semi-final of a general disqualified during the cut is not fought (R23); its other player
    advances, and the final is paired between two real players."""
    event, olga, _oscar, generals = swiss_event(4, swiss_rounds=1, top_cut=4)
    play_round(rounds.pair_next_round(event, actor=olga), olga)
    rounds.start_top_cut(event, actor=olga)
    first, second = round_battles(SwissRound.objects.get(event=event, stage="top_cut", number=1))
    services.disqualify(event, first.general_a, reason="other", details="Marked cards.", actor=olga)
    recording.record_result(second, kind="victory", winner=second.general_a, actor=olga)
    (final,) = round_battles(SwissRound.objects.get(event=event, stage="top_cut", number=2))
    assert {final.general_a_id, final.general_b_id} == {first.general_b_id, second.general_a_id}


def test_without_a_top_cut_the_leader_after_the_last_round_wins():
    event, olga, _oscar, generals = swiss_event(4, swiss_rounds=2)
    strength = [g.pk for g in generals]
    for _ in range(2):
        play_round(rounds.pair_next_round(event, actor=olga), olga, strength)
    done = fresh(event)
    assert (done.state, done.victor_id) == (Event.State.COMPLETE, generals[0].pk)


# --- closing registration and creating a Swiss event ----------------------------------------------------------

def test_closing_a_swiss_event_with_an_odd_field_eliminates_nobody():
    """R71's odd-number rule is for Organized Play groups: a Swiss field gives the odd one a bye."""
    event, olga, _oscar, generals = swiss_event(5, close=False)
    assert services.close_registration(event, actor=olga) is None
    statuses = set(fresh(event).registrations.values_list("status", flat=True))
    assert statuses == {Registration.Status.ACTIVE}
    groups = services.create_event(name="Harbour", slug="harbour", actor=olga)
    for name in ("P1", "P2", "P3"):
        services.register(groups, General.objects.create(name=name), actor=olga)
    assert services.close_registration(groups, actor=olga).general.name == "P3"  # R71 still applies there


@pytest.mark.parametrize(("settings", "field"), [
    ({"game": WARLORD, "format": "groups"}, "format"),
    ({"game": REAPER, "format": "groups"}, "format"),
    ({"game": WARLORD, "rated": True}, "rated"),
    ({"game": REAPER, "rated": True}, "rated"),
    ({"game": WARLORD, "tie_breakers": ["points_destroyed"]}, "tie_breakers"),
    ({"game": WARLORD, "tie_breakers": ["omw", "omw"]}, "tie_breakers"),
    ({"game": "warline", "format": "swiss", "tie_breakers": ["points_destroyed"]}, "tie_breakers"),
    ({"game": WARLORD, "top_cut": 6}, "top_cut"),
    ({"game": WARLORD, "swiss_rounds": 0}, "swiss_rounds"),
    ({"game": WARLORD, "scoring": {"win": True}}, "scoring"),
    ({"game": WARLORD, "scoring": {"jackpot": 5}}, "scoring"),
    ({"game": "chess"}, "game"),
])
def test_settings_the_game_does_not_allow_are_refused_and_nothing_is_created(settings, field):
    olga = organizer("olga")
    with pytest.raises(DomainError) as refused:
        services.create_event(name="Nope", slug="nope", actor=olga, **settings)
    assert refused.value.field == field and str(refused.value)
    assert not Event.objects.filter(slug="nope").exists()


def test_a_swiss_league_is_refused():
    olga = organizer("olga")
    with pytest.raises(DomainError, match="Swiss rounds are for tournaments") as refused:
        services.create_event(name="Nope", slug="nope", kind=Event.Kind.LEAGUE, actor=olga, game=WARLORD)
    assert refused.value.field == "format"


def test_the_settings_a_game_allows_are_kept():
    olga = organizer("olga")
    reaper = services.create_event(name="Reaper", slug="reaper", actor=olga, game=REAPER,
                                   tie_breakers=["points_destroyed", "sos"])
    assert (reaper.format, reaper.tie_breakers) == ("swiss", ["points_destroyed", "sos"])
    warline = services.create_event(name="Rated", slug="rated", actor=olga, rated=True)
    assert warline.rated and warline.format == "groups"
