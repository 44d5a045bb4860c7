import json
from pathlib import Path

import pytest

REPLAYS = Path(__file__).parent / "replays"


def replay_between(name, p1, p2, **changes):
    """A stored example replay with its generals renamed to the battle's generals. The examples are
    played on boards from 7 x 4 to 7 x 10, and an event fixes its board (R92, R109): the events both
    generals play in are set to the example's board, as their organizer would have chosen it."""
    from tournaments.models import Event

    document = json.loads((REPLAYS / f"{name}.json").read_text())
    document["generals"]["p1"]["name"] = p1.name
    document["generals"]["p2"]["name"] = p2.name
    document.update(changes)
    board = document["rules"].get("board", {})
    if getattr(p1, "pk", None) is not None and getattr(p2, "pk", None) is not None:
        Event.objects.filter(registrations__general=p1).filter(registrations__general=p2).update(
            board_width=board.get("width", 7), board_height=board.get("height", 7))
    return document


@pytest.fixture
def event_day(db):
    """A 4-general tournament in its Qualifying Stage; every general has an account."""
    return build_event_day()


@pytest.fixture
def event_day_committed(transactional_db):
    """The same, committed, so that worker processes see it."""
    return build_event_day()


def build_event_day():
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role
    from tournaments.models import General

    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw"))
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer)
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password="pw")
        services.register(event, General.objects.create(name=name, user=user), actor=user)  # their consent
    services.form_groups(event, 2, "random", seed=9, actor=organizer)
    battle = event.battles.select_related("general_a", "general_b").first()
    return event, organizer, battle
