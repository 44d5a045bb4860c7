"""Qualifying groups formed by rating (R25's sizes unchanged): snake order across the groups from the
ratings when the groups are formed, unrated generals after the rated ones in registration order."""
from datetime import date

import pytest

from tests.tournaments.helpers import make_tournament
from tournaments.domain import assign_snake, rating_order
from tournaments.events import services
from tournaments.models import AuditEntry, RatingPoint


def test_rated_first_by_rating_then_the_unrated_in_registration_order():
    entries = [("u1", None), ("a", 1500.0), ("u2", None), ("b", 1720.0), ("c", 1500.0), ("d", 1610.0)]
    assert rating_order(entries) == ["b", "d", "a", "c", "u1", "u2"]


def test_snake_order_balances_the_groups_of_a_worked_example():
    # Eight generals rated 2000, 1900, ..., 1300: two groups of four by snake order are
    # A: 2000, 1700, 1600, 1300 and B: 1900, 1800, 1500, 1400 -- both average 1650.
    ratings = {f"g{i}": 2000.0 - 100 * i for i in range(8)}
    groups = assign_snake(rating_order(list(ratings.items())), 2)
    assert groups == [["g0", "g3", "g4", "g7"], ["g1", "g2", "g5", "g6"]]
    assert [sum(ratings[k] for k in group) / 4 for group in groups] == [1650.0, 1650.0]


@pytest.mark.django_db
def test_forming_groups_by_rating_records_and_shows_the_seeds(client):
    event, generals = make_tournament(8, slug="rated-open")
    for index, general in enumerate(generals[:6]):  # the last two have never played a rated battle
        RatingPoint.objects.create(general=general, period=date(2026, 11, 2), rating=1400.0 + 50 * index,
                                   deviation=80.0, volatility=0.06, battles=3, score=1.5)
    services.close_registration(event)
    services.form_groups(event, 2, method="rating")
    groups = [[m.general.name for m in group.members.order_by("position")] for group in event.groups.order_by("index")]
    # Seeds: Farah 1650, Emil 1600, Dana 1550, Chen 1500, Bruno 1450, Alice 1400, then Goran, Hana unrated.
    assert groups == [["Farah", "Chen", "Bruno", "Hana"], ["Emil", "Dana", "Alice", "Goran"]]
    seeds = {r.general.name: (r.seed, r.seed_rating) for r in event.registrations.all()}
    assert seeds["Farah"] == (1, 1650.0) and seeds["Goran"] == (7, None) and seeds["Hana"] == (8, None)
    entry = AuditEntry.objects.get(event=event, action="groups formed")
    assert entry.after["method"] == "rating" and entry.after["seeding"][0] == ["Farah", 1650]
    body = client.get(f"/events/{event.slug}/").content.decode()
    assert "Groups by rating" in body and "Seeds by rating" in body
    assert "<td>7</td><td>Goran</td><td>unrated</td>" in body
