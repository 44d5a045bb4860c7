"""The mail outbox without a mail server: a mail is a row written with its step, claimed by one job,
tried again after a doubling pause, given up after the last try; what the admin shows and does."""
import smtplib
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from tournaments import notifications
from tournaments.events import services
from tournaments.mailing import outbox, sending
from tournaments.models import Battle, Notification
from tournaments.results import reporting

pytestmark = pytest.mark.django_db


class CountingBackend(BaseEmailBackend):
    """Records each message; `fail` (a class attribute, set by a test) is raised instead for those whose
    recipient it names, or for every message with the key "*"."""

    sent = []
    tries = 0
    fail = {}

    def send_messages(self, messages):
        for message in messages:
            CountingBackend.tries += 1
            error = self.fail.get(message.to[0]) or self.fail.get("*")
            if error is not None:
                raise error
            CountingBackend.sent.append(message)
        return len(messages)


@pytest.fixture
def backend(settings):
    settings.EMAIL_BACKEND = "tests.mail.test_mail_outbox.CountingBackend"
    settings.OPP_MAIL_RETRY_SECONDS, settings.OPP_MAIL_RETRY_MAX_SECONDS, settings.OPP_MAIL_MAX_ATTEMPTS = 60, 300, 4
    CountingBackend.sent, CountingBackend.tries, CountingBackend.fail = [], 0, {}
    return CountingBackend


def queued(*names):
    """A mail queued (not sent: outside any job) to each of `names`, as a step queues them."""
    User = get_user_model()
    users = [User.objects.create_user(name, email=f"{name}@example.org") for name in names]
    mails = [(Notification(user=user, kind="pairings", key=f"test:{user.pk}", subject=f"Hello {user}"), "Body")
             for user in users]
    return outbox.queue_mails(mails)


def test_the_pause_doubles_up_to_the_cap(settings):
    settings.OPP_MAIL_RETRY_SECONDS, settings.OPP_MAIL_RETRY_MAX_SECONDS = 60, 300
    assert [sending.retry_delay(n).total_seconds() for n in range(1, 7)] == [60, 120, 240, 300, 300, 300]


def test_a_mail_is_claimed_once_and_again_only_when_its_lease_ends(backend, settings):
    note, = queued("ada")
    now = timezone.now()
    assert [n.pk for n in sending.claim([note.pk], now)] == [note.pk]
    assert sending.claim([note.pk], now) == []  # a second job (or the sweep) finds nothing due
    assert sending.due_ids(now + timedelta(seconds=settings.OPP_MAIL_LEASE_SECONDS - 1)) == []
    later = now + timedelta(seconds=settings.OPP_MAIL_LEASE_SECONDS + 1)  # the first job died
    assert [n.attempts for n in sending.claim([note.pk], later)] == [2]


def test_a_failing_mail_is_tried_after_each_pause_and_given_up_after_the_last_try(backend):
    note, = queued("ada")
    backend.fail = {"*": smtplib.SMTPServerDisconnected("the mail server hung up")}
    now = timezone.now()
    pauses = []
    for _ in range(4):
        assert sending.send_due_mails(now).failed == 1
        note.refresh_from_db()
        if note.next_attempt_at is None:
            break
        pauses.append((note.next_attempt_at - now).total_seconds())
        assert not sending.send_due_mails(note.next_attempt_at - timedelta(seconds=1))  # not before
        now = note.next_attempt_at
    assert pauses == [60, 120, 240]
    assert (note.sent, note.attempts, note.next_attempt_at) == (False, 4, None)
    assert note.error.startswith("Given up after 4 tries: SMTPServerDisconnected")
    assert outbox.state_of(note) == outbox.GIVEN_UP
    assert not sending.send_due_mails(now + timedelta(days=1)) and backend.tries == 4


def test_the_batch_stops_at_a_server_failure_and_goes_on_after_one_refused_address(backend):
    notes = queued("ada", "ben", "cyd")
    backend.fail = {"ada@example.org": smtplib.SMTPServerDisconnected("Connection unexpectedly closed: timed out")}
    assert sending.send_mails([n.pk for n in notes]).failed == 3
    assert backend.tries == 1  # ben and cyd wait for the next try instead of each paying the timeout
    assert all(n.next_attempt_at is not None and "timed out" in n.error for n in Notification.objects.all())

    backend.fail = {"ada@example.org": smtplib.SMTPRecipientsRefused({"ada@example.org": (550, b"No such user")})}
    assert sending.send_due_mails(timezone.now() + timedelta(minutes=2)).sent == 2
    assert sorted(m.to[0] for m in backend.sent) == ["ben@example.org", "cyd@example.org"]
    ada = Notification.objects.get(user__username="ada")
    assert ada.next_attempt_at is None and ada.error.startswith(sending.REFUSED)  # a 5xx: never again


def test_a_step_rolled_back_writes_no_mail(four_players, django_capture_on_commit_callbacks):
    event, organizer = four_players
    with django_capture_on_commit_callbacks() as handed_off, pytest.raises(RuntimeError), transaction.atomic():
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
        assert Notification.objects.count() == 4  # written with the step, inside its transaction
        raise RuntimeError("the step fails after the groups were formed")
    assert Notification.objects.count() == 0 and handed_off == [] and mail.outbox == []


def test_a_fault_while_composing_never_breaks_the_step(four_players, monkeypatch, caplog,
                                                         django_capture_on_commit_callbacks):
    event, organizer = four_players

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a mail's text")

    monkeypatch.setattr(notifications, "zone_of", broken)
    with django_capture_on_commit_callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    assert event.battles.count() == 2 and Notification.objects.count() == 0
    assert "notification pairings_made" in caplog.text and "a bug in a mail's text" in caplog.text


def test_a_request_to_confirm_answered_before_it_went_is_withdrawn(four_players, backend,
                                                                   django_capture_on_commit_callbacks):
    event, organizer = four_players
    with django_capture_on_commit_callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    battle = event.battles.select_related("general_a__user", "general_b__user").first()
    backend.fail = {"*": smtplib.SMTPServerDisconnected("down")}
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=battle.general_a.user, kind=Battle.Kind.STALEMATE)
    waiting = Notification.objects.get(key=f"report:{report.pk}:waiting")
    assert outbox.state_of(waiting) == outbox.WAITING and "down" in waiting.error
    with django_capture_on_commit_callbacks(execute=True):
        reporting.confirm_report(report, user=battle.general_b.user)
    waiting.refresh_from_db()
    assert outbox.state_of(waiting) == outbox.WITHDRAWN_STATE and waiting.next_attempt_at is None
    backend.fail = {}
    sending.send_due_mails(timezone.now() + timedelta(hours=1))
    assert not any("Confirm" in m.subject for m in backend.sent)  # the server is back: still not sent


def test_the_admin_shows_each_mails_state_and_sends_a_given_up_one_again(backend, client,
                                                                         django_capture_on_commit_callbacks):
    waiting, given_up, sent = queued("ada", "ben", "cyd")
    Notification.objects.filter(pk=given_up.pk).update(next_attempt_at=None, attempts=10,
                                                       error="Given up after 10 tries: SMTPServerDisconnected")
    Notification.objects.filter(pk=sent.pk).update(sent=True, sent_at=timezone.now(), next_attempt_at=None)
    client.force_login(get_user_model().objects.create_superuser("root", password="pw"))
    page = client.get("/admin/tournaments/notification/").content.decode()
    assert "given up" in page and "waiting" in page and "Given up after 10 tries" in page
    filtered = client.get("/admin/tournaments/notification/?state=given+up").content.decode()
    assert "Hello ben" in filtered and "Hello ada" not in filtered and "Hello cyd" not in filtered

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/tournaments/notification/", {
            "action": "send_again_now", "_selected_action": [given_up.pk, sent.pk]}, follow=True)
    assert "1 mail(s) handed to the mail job" in response.content.decode()
    given_up.refresh_from_db()
    assert given_up.sent and given_up.attempts == 1  # a fresh count of tries; sent at once in tests
    assert [m.to for m in backend.sent] == [["ben@example.org"]]  # not the one already sent


def test_a_key_mailed_before_is_skipped_and_the_other_mails_of_the_happening_still_queued(backend):
    ada, = queued("ada")
    ben = get_user_model().objects.create_user("ben", email="ben@example.org")

    def happening():  # one INSERT for both: ada's key is taken, so the happening runs again row by row
        outbox.queue_mails([(Notification(user=ada.user, kind="pairings", key=ada.key, subject="Again"), "Body"),
                            (Notification(user=ben, kind="pairings", key="test:ben", subject="New"), "Body")])

    outbox.compose_safely(happening)
    assert sorted(Notification.objects.values_list("user__username", "subject")) == [("ada", "Hello ada"),
                                                                                       ("ben", "New")]
