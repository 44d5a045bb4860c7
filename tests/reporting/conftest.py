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


def reported(battle, user, callbacks, **fields):
    """A player's report with its after-commit jobs run at once (adjudication, notices), as a worker
    would run them; the report and its battle are read back. `callbacks` is pytest-django's
    django_capture_on_commit_callbacks."""
    from tournaments.results import reporting

    with callbacks(execute=True):
        created = reporting.submit_report(battle, user=user, **fields)
    created.refresh_from_db()
    battle.refresh_from_db()
    return created


def reported_shackle(battle, callbacks):
    """The battle's first general reports the Shackle victory the example replay shows, its jobs run."""
    a, b = battle.general_a, battle.general_b
    return reported(battle, a.user, callbacks, kind="victory", winner=a, condition="shackle",
                    replay=replay_between("victory-shackle", a, b))


def held_report(battle, callbacks, condition="shackle"):
    """The battle's first general reports a victory by `condition` with the Shackle example replay;
    the job its commit would send is held back, not run."""
    from tournaments.results import reporting

    a, b = battle.general_a, battle.general_b
    with callbacks(execute=False):
        return reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition=condition,
                                       replay=replay_between("victory-shackle", a, b))


def upload_shackle_on_the_page(client, battle, callbacks):
    """The battle's first general, signed in on `client`, reports the Shackle victory on the battle
    page with the example replay as a file upload; its jobs run. Returns the page's answer."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    a, b = battle.general_a, battle.general_b
    upload = SimpleUploadedFile("battle.json", json.dumps(replay_between("victory-shackle", a, b)).encode())
    with callbacks(execute=True):
        return client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": a.pk,
                                                             "condition": "shackle", "replay_file": upload})


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


@pytest.fixture
def adjudicated(event_day, django_capture_on_commit_callbacks):
    """(event, adjudication) of a checked victory report on the event day's battle."""
    from tournaments.models import Adjudication
    from tournaments.results import reporting

    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle",
                                         replay=replay_between("victory-shackle", a, b))
    return event, Adjudication.objects.get(report=report)
