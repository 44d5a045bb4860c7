"""The embedded default (no workers): the step answers without waiting for the receiver, and the
delivery goes on the process's background thread after the commit. With workers, the task and the beat
sweep are Celery's."""
import threading
import time

import pytest

from tournaments.models import Battle, WebhookDelivery, WebhookEndpoint
from tournaments.results import recording
from tournaments.webhooks import services


@pytest.fixture
def committed_day(transactional_db):
    from tests.reporting.conftest import build_event_day

    return build_event_day()


def test_a_slow_receiver_does_not_hold_the_step_and_still_gets_the_delivery(committed_day, receiver, settings):
    from opp.background import drain, stop

    settings.OPP_WEBHOOKS_ALLOW_HTTP = settings.OPP_WEBHOOKS_ALLOW_PRIVATE = True
    settings.OPP_BACKGROUND_INLINE = False  # the real path: the background thread
    settings.OPP_WEBHOOKS_TIMEOUT = 3
    release = threading.Event()

    def slow(handler):
        release.wait(2)
        handler.send_response(204)
        handler.end_headers()

    event, organizer, battle = committed_day
    found = receiver(slow)
    endpoint = services.register(organizer, event, url=found.url, kinds=[WebhookEndpoint.Kind.RESULT_COUNTED])
    started = time.monotonic()
    recording.record_result(battle, kind=Battle.Kind.VICTORY, winner=battle.general_a, condition="shackle",
                            actor=organizer)
    assert time.monotonic() - started < 1.0  # the step did not wait for the receiver's 2 s
    release.set()
    drain()
    stop()  # no sweep of this test's settings runs on into the next tests
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert (delivery.state, delivery.response_code) == ("delivered", 204) and len(found.requests) == 1


def test_celery_runs_the_task_and_beat_runs_the_sweep():
    from opp.celery import app

    app.loader.import_default_modules()
    assert {"tournaments.deliver_webhook", "tournaments.send_due_webhooks"} <= set(app.tasks)
    assert "tournaments.send_due_webhooks" in {entry["task"] for entry in app.conf.beat_schedule.values()}
