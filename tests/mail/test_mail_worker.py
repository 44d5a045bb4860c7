"""Mail jobs on a real Celery worker over Redis: the step hands its mails to the worker, which sends them
to a real SMTP server; refused at first, they arrive once the beat's sweep (`tournaments.send_due_mails`)
runs after the pause."""
import pytest
from celery import Celery

from tests.reporting.test_workers import wait_for, workers  # noqa: F401 - `workers` is a fixture
from tournaments.events import services
from tournaments.mailing import outbox
from tournaments.models import Notification

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mail_jobs_over_redis(redis_url, monkeypatch):
    """Mail jobs go to the test Redis, as from a web process with workers."""
    client = Celery("test-client", broker=redis_url, backend=redis_url)
    monkeypatch.setattr(outbox, "run_later", lambda task, *args: client.send_task(task.name, args=list(args)))
    return client


def test_a_worker_sends_the_mails_once_and_the_sweep_sends_those_refused(
        smtp_server, four_players, workers, mail_jobs_over_redis):  # noqa: F811
    workers("mail", EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(smtp_server.port), EMAIL_TIMEOUT="1", OPP_MAIL_RETRY_SECONDS="60")
    event, organizer = four_players
    smtp_server.mode = "refuse"
    services.form_groups(event, 2, "random", seed=9, actor=organizer)
    wait_for(lambda: Notification.objects.filter(attempts=1, sent=False).count() == 4, 60, "the refused first try")
    assert smtp_server.received == []

    smtp_server.mode = "accept"
    # The pause is a minute: move the mails' next try to now rather than wait, then the beat's sweep runs.
    Notification.objects.update(next_attempt_at=Notification.objects.order_by("pk").first().at)
    mail_jobs_over_redis.send_task("tournaments.send_due_mails")
    wait_for(lambda: len(smtp_server.received) == 4, 60, "the mails after the sweep")
    mail_jobs_over_redis.send_task("tournaments.send_due_mails")  # again: nothing is due any more
    mail_jobs_over_redis.send_task("tournaments.send_mails", args=[list(Notification.objects.values_list(
        "pk", flat=True))])  # and the first job delivered twice
    # One worker takes the jobs in order: once it answers a ping, both are done.
    assert mail_jobs_over_redis.send_task("opp.ping").get(timeout=60) == "pong"
    assert Notification.objects.filter(sent=True).count() == 4
    assert sorted(recipient for recipient, _ in smtp_server.received) == [
        "ada@example.org", "ben@example.org", "cyd@example.org", "dov@example.org"]
    assert set(smtp_server.arrivals().values()) == {1}
