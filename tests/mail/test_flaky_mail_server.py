"""Issue 27, done when: against a real SMTP server that hangs, then refuses, then recovers, the action
answers fast and every mail arrives exactly once after the recovery. The jobs run as in the embedded
default (this process's background thread); the sweep is called with the clock moved past each pause."""
import time
from datetime import timedelta

import pytest

from opp import background
from tournaments.mailing import sending
from tournaments.models import Notification

PLAYERS = ["ada@example.org", "ben@example.org", "cyd@example.org", "dov@example.org"]


def form_groups_on_the_page(client, event, organizer):
    """The organizer forms the groups (a mail to each of the four players); the answer and its time."""
    client.force_login(organizer)
    started = time.monotonic()
    response = client.post(f"/events/{event.slug}/manage/", {"action": "form_groups", "group_count": 2,
                                                               "method": "random", "seed": 9, "confirm": "1"})
    return response, time.monotonic() - started


def mails():
    return list(Notification.objects.select_related("user").order_by("pk"))


@pytest.mark.django_db(transaction=True)  # the background thread sees only what is committed
def test_a_hanging_then_refusing_server_holds_no_request_and_every_mail_arrives_once(
        smtp_server, four_players, client, settings):
    settings.OPP_MAIL_RETRY_SECONDS, settings.OPP_MAIL_RETRY_MAX_SECONDS = 60, 3600
    event, organizer = four_players
    smtp_server.mode = "hang"

    response, took = form_groups_on_the_page(client, event, organizer)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/"
    assert took < 1.0, f"the step waited for the mail server: {took:.2f} s"
    assert sorted(note.user.email for note in mails()) == PLAYERS  # queued with the step

    started = time.monotonic()
    background.drain()  # the job tried while the server hung
    tried_for = time.monotonic() - started
    assert smtp_server.received == []
    assert smtp_server.tries == 1 and tried_for < 2 * settings.EMAIL_TIMEOUT + 1  # one timeout, not four
    for note in mails():
        assert (note.sent, note.attempts) == (False, 1) and "timed out" in note.error
    first_try = max(note.next_attempt_at for note in mails()) - timedelta(minutes=1)

    # The server refuses now. Before the first pause (1 minute) is over, nothing is tried.
    smtp_server.mode = "refuse"
    assert not sending.send_due_mails(now=first_try + timedelta(seconds=30))
    assert smtp_server.tries == 1
    second_try = first_try + timedelta(minutes=1, seconds=1)
    assert sending.send_due_mails(now=second_try).failed == 4
    assert smtp_server.received == [] and smtp_server.tries == 2  # the batch stopped at the refusal
    for note in mails():
        assert (note.sent, note.attempts) == (False, 2) and "421" in note.error
        assert note.next_attempt_at == second_try + timedelta(minutes=2)  # the pause doubled

    # The server is back: the next sweep after the pause sends each mail, once.
    smtp_server.mode = "accept"
    third_try = second_try + timedelta(minutes=2, seconds=1)
    assert sending.send_due_mails(now=third_try).sent == 4
    arrivals = smtp_server.arrivals()
    assert sorted(recipient for recipient, _subject in arrivals) == PLAYERS
    assert set(arrivals.values()) == {1}
    assert all(subject.startswith("[Harbour Cup] Your battle") for _recipient, subject in arrivals)

    # Later sweeps, and the first job delivered again (a worker lost), send nothing more.
    assert not sending.send_due_mails(now=third_try + timedelta(hours=5))
    assert not sending.send_mails([note.pk for note in mails()], now=third_try + timedelta(hours=5))
    assert set(smtp_server.arrivals().values()) == {1} and len(smtp_server.received) == 4
    for note in mails():
        assert note.sent and note.sent_at is not None and note.next_attempt_at is None and note.error == ""
        assert note.attempts == 3


@pytest.mark.django_db(transaction=True)
def test_the_background_thread_sends_after_the_answer_when_the_server_answers(smtp_server, four_players, client):
    event, organizer = four_players
    response, took = form_groups_on_the_page(client, event, organizer)
    assert response.status_code == 302
    background.drain()
    assert sorted(recipient for recipient, _subject in smtp_server.received) == PLAYERS
    assert all(note.sent and note.attempts == 1 for note in mails())
