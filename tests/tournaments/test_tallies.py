"""The database's counting (tournaments/tallies.py) agrees with the domain's pure counting on
seasons with every kind of result, including custom forfeit awards and disqualifications."""
import random

import pytest

from tournaments import services
from tournaments.domain import ForfeitAward, compute_standings
from tournaments.models import Battle, Event, General, Registration, Season
from tournaments.tallies import count_in_database

pytestmark = pytest.mark.django_db
CONDITIONS = [c for c, _ in Battle.Condition.choices]


def random_season(seed, award):
    rng = random.Random(seed)
    event = Event.objects.create(name=f"L{seed}", slug=f"l{seed}", kind="league", forfeit_award_opp=award.opp,
                                 forfeit_counts_as_victory=award.counts_as_victory)
    season = Season.objects.create(event=event, number=1, name="S")
    generals = [General.objects.create(name=f"G{seed}-{i}") for i in range(7)]
    for number, general in enumerate(generals, start=1):
        Registration.objects.create(event=event, general=general, number=number)
    for number in range(1, 60):
        a, b = rng.sample(generals, 2)
        kind = rng.choice(["victory", "victory", "stalemate", "resolve", "forfeit", "unplayed_dq", ""])
        fields = {}
        if kind == "victory":
            fields = {"winner": rng.choice([a, b]), "condition": rng.choice(CONDITIONS)}
        elif kind in ("forfeit", "unplayed_dq"):
            loser = rng.choice([a, b])
            fields = {"forfeited_by": loser, "winner": (b if loser == a else a) if kind == "forfeit" else None}
        Battle.objects.create(event=event, season=season, number=number, general_a=a, general_b=b, kind=kind,
                              playoff=rng.random() < 0.1, **fields)
    return event, season, generals


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("award", [ForfeitAward(), ForfeitAward(opp=3, counts_as_victory=False)])
def test_database_counting_equals_the_domain(seed, award):
    event, season, generals = random_season(seed, award)
    keys = [g.key for g in generals]
    expected = compute_standings(keys, services.results_of(season.battles.all()), forfeit_award=award)
    tallies = count_in_database(generals=keys, forfeit_award=award, season_id=season.pk)
    for row in expected:
        assert {name: row.figure(name) for name in tallies[row.general]} == tallies[row.general], row.general
    assert services.season_standings(season).rows == expected
