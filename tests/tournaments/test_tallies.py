"""The database's counting (tournaments/standings/tallies.py) agrees with the domain's pure counting on
seasons with every kind of result, including custom forfeit awards and disqualifications."""
import random
from dataclasses import FrozenInstanceError

import pytest
from django.db import connection

from tournaments.domain import COUNTERS, ForfeitAward, StandingRow, compute_standings
from tournaments.domain.standings import _new_row, tally
from tournaments.models import Battle, Event, General, Group, Registration, Season
from tournaments.standings import tables, tallies
from tournaments.standings.tallies import count_in_database

pytestmark = pytest.mark.django_db
CONDITIONS = [c for c, _ in Battle.Condition.choices]


def add_random_battles(rng, generals, count, kinds, **place):
    """Battles numbered 1 to `count` between random pairs of the generals, each result drawn from
    `kinds` ("" leaves it unplayed) with the winner, condition or forfeiting general it needs; about a
    tenth are playoffs. `place` says where they belong (event and season or group)."""
    for number in range(1, count + 1):
        a, b = rng.sample(generals, 2)
        kind = rng.choice(kinds)
        fields = {}
        if kind == "victory":
            fields = {"winner": rng.choice([a, b]), "condition": rng.choice(CONDITIONS)}
        elif kind in ("forfeit", "unplayed_dq"):
            loser = rng.choice([a, b])
            fields = {"forfeited_by": loser, "winner": (b if loser == a else a) if kind == "forfeit" else None}
        Battle.objects.create(**place, number=number, general_a=a, general_b=b, kind=kind,
                              playoff=rng.random() < 0.1, **fields)


def random_season(seed, award):
    rng = random.Random(seed)
    event = Event.objects.create(name=f"L{seed}", slug=f"l{seed}", kind="league", forfeit_award_opp=award.opp,
                                 forfeit_counts_as_victory=award.counts_as_victory)
    season = Season.objects.create(event=event, number=1, name="S")
    generals = [General.objects.create(name=f"G{seed}-{i}") for i in range(7)]
    for number, general in enumerate(generals, start=1):
        Registration.objects.create(event=event, general=general, number=number)
    kinds = ["victory", "victory", "stalemate", "resolve", "forfeit", "unplayed_dq", ""]
    add_random_battles(rng, generals, 59, kinds, event=event, season=season)
    return event, season, generals


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("award", [ForfeitAward(), ForfeitAward(opp=3, counts_as_victory=False)])
def test_database_counting_equals_the_domain(seed, award):
    event, season, generals = random_season(seed, award)
    keys = [g.key for g in generals]
    expected = compute_standings(keys, tables.results_of(season.battles.all()), forfeit_award=award)
    tallies = count_in_database(generals=keys, forfeit_award=award, season_id=season.pk)
    for row in expected:
        assert {name: row.figure(name) for name in tallies[row.general]} == tallies[row.general], row.general
    assert tables.season_standings(season).rows == expected


# --- the packed counting (issue 16): classes of sides, several counts to one aggregate -------------------


def random_group(seed, award, size=6, battles=40):
    """A qualifying group with random results (every kind, playoffs, pending) and no registrations."""
    rng = random.Random(seed)
    event = Event.objects.create(name=f"T{seed}", slug=f"t{seed}-{award.opp}-{int(award.counts_as_victory)}",
                                 forfeit_award_opp=award.opp, forfeit_counts_as_victory=award.counts_as_victory)
    group = Group.objects.create(event=event, stage=Group.Stage.QUALIFYING, index=0, name="Group A")
    generals = [General.objects.create(name=f"T{seed}-{i}") for i in range(size)]
    kinds = ["victory", "victory", "victory", "stalemate", "resolve", "forfeit", "unplayed_dq", ""]
    add_random_battles(rng, generals, battles, kinds, event=event, group=group)
    return group, [g.key for g in generals]


AWARDS = [ForfeitAward(), ForfeitAward(opp=3, counts_as_victory=False), ForfeitAward(opp=0, counts_as_victory=True),
          ForfeitAward(opp=-2, counts_as_victory=False), ForfeitAward(opp=5, counts_as_victory=True)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("award", AWARDS, ids=lambda a: f"opp{a.opp}-{a.counts_as_victory}")
@pytest.mark.parametrize("field_bits", [tallies.FIELD_BITS, 6, 2])
def test_packed_counting_equals_the_domain(seed, award, field_bits, monkeypatch):
    """Whatever the forfeit award and however wide a packed field (6 bits: six counts to a sum; 2 bits:
    a general has more sides than a field holds, so the table is counted again unpacked), the database
    gives every general the domain's figures, and the table the domain's rows."""
    monkeypatch.setattr(tallies, "FIELD_BITS", field_bits)
    group, keys = random_group(seed, award)
    results = tables.results_of(group.battles.all())
    expected = tally(keys, results, forfeit_award=award)
    assert count_in_database(generals=keys, forfeit_award=award, group_id=group.pk) == expected
    assert tables.group_standings(group).rows == compute_standings(keys, results, forfeit_award=award)


@pytest.mark.parametrize("award", AWARDS[:2], ids=lambda a: f"opp{a.opp}-{a.counts_as_victory}")
def test_packed_and_unpacked_statements_agree(award):
    """Both forms of the statement, run as they are, give every general the same sides and figures."""
    group, _keys = random_group(7, award, size=5, battles=60)

    def run(packed, bits=tallies.FIELD_BITS):
        counting = tallies._counting("group_id", award.opp, award.counts_as_victory, packed, bits)
        with connection.cursor() as cursor:
            cursor.execute(counting.sql, [group.pk, False, group.pk, False])
            return sorted((general, side_count, counting.figures(side_count, *counts))
                          for general, side_count, *counts in cursor.fetchall())

    assert run(True) == run(False) == run(True, 6) == run(True, 5)


def test_every_side_of_a_battle_has_the_domains_figures():
    """The per-class figures come from the domain's own counting of one battle, so a class holds only
    sides that give the same figures, and the disqualified general's unplayed battle counts nothing."""
    vectors = tallies._side_vectors(ForfeitAward())
    zero = (0,) * len(COUNTERS)
    assert vectors["unplayed_dq", True, None] == zero
    won_by = {c: dict(zip(COUNTERS, vectors["victory", True, c], strict=True)) for c in CONDITIONS}
    assert won_by["shackle"]["shackle_victories"] == 1 and won_by["shackle"]["opp"] == 5
    assert vectors["forfeit", False, None] == vectors["victory", True, "overpower"]  # R22 default: 1 OPP, a Victory


def test_fast_rows_are_standing_rows():
    """rank_tallies builds its rows without the frozen dataclass's __init__; they are the same rows."""
    values = dict(general="7", place=2, shared=True, disqualified=False, **{name: 3 for name in COUNTERS})
    fast = _new_row(values)
    assert fast == StandingRow(**values) and hash(fast) == hash(StandingRow(**values))
    assert repr(fast) == repr(StandingRow(**values))
    with pytest.raises(FrozenInstanceError):
        fast.opp = 4
