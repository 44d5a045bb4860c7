"""Adjudication in batches (issue 28): many ids in one message, each report still decided exactly once:
ids twice in a batch, a batch delivered twice, a report decided before its job ran, a batch that runs
out of time and hands the rest on; the sweep sends batches; re-adjudication in batches keeps one
previous verdict. Jobs run in this process, as Celery runs them without REDIS_URL."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from tournaments.models import Adjudication, AuditEntry, Notification, Report
from tournaments.results import adjudication, outbox, reporting, tasks

from .conftest import held_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_held_jobs(event_day, django_capture_on_commit_callbacks):
    """The event day's two battles, each with its first general's report of the Shackle victory the
    example replay shows, their jobs held back (not run). Every account has an email address."""
    from django.contrib.auth import get_user_model

    event, organizer, _battle = event_day
    for user in get_user_model().objects.all():
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    battles = list(event.battles.select_related("general_a", "general_b").order_by("pk")[:2])
    jobs = [Adjudication.objects.get(report=held_report(battle, django_capture_on_commit_callbacks))
            for battle in battles]
    return event, organizer, battles, jobs


def status_of(job):
    return Report.objects.get(pk=job.report_id).status


def verdict_mails(job):
    return Notification.objects.filter(key__startswith=f"report:{job.report_id}:").count()


def test_a_batch_decides_each_report_once_with_ids_twice_and_a_report_decided_before_its_job(
        two_held_jobs, django_capture_on_commit_callbacks):
    event, organizer, (first_battle, second_battle), (first, second) = two_held_jobs
    # An organizer decides the second battle before its job runs: the report no longer waits for a verdict.
    reporting.decide_battle(second_battle, user=organizer, reason="Seen at the table.", kind="victory",
                            winner=second_battle.general_a, condition="shackle")
    assert status_of(second) == Report.Status.SUPERSEDED

    with django_capture_on_commit_callbacks(execute=True):
        outcomes = tasks.adjudicate_batch.apply(args=[[first.pk, second.pk, first.pk, first.pk]]).get()

    assert outcomes == {"checked": 1, "report already decided": 1}
    assert status_of(first) == Report.Status.CHECKED
    assert Adjudication.objects.get(pk=first.pk).attempts == 1  # the duplicates did not take it again
    assert status_of(second) == Report.Status.SUPERSEDED  # the verdict is kept; the decision stands
    assert Adjudication.objects.get(pk=second.pk).state == Adjudication.State.DONE
    mails = verdict_mails(first)
    assert mails == 2  # Ben is asked to confirm (with the verdict), Ada hears the verdict

    # The same batch delivered again (a worker killed after finishing it, or two batches racing).
    with django_capture_on_commit_callbacks(execute=True):
        again = tasks.adjudicate_batch.apply(args=[[first.pk, second.pk]]).get()
    assert again == {"already done": 2}
    assert verdict_mails(first) == mails
    assert Adjudication.objects.get(pk=first.pk).attempts == 1


def test_a_disputing_verdict_in_a_batch_writes_its_audit_entry_once(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    job = Adjudication.objects.get(report=held_report(battle, django_capture_on_commit_callbacks, "crush"))
    for _delivery in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            tasks.adjudicate_batch.apply(args=[[job.pk, job.pk]])
    assert status_of(job) == Report.Status.DISPUTED
    assert AuditEntry.objects.filter(event=event, action="report disputed by the engine").count() == 1


def test_a_batch_out_of_time_hands_the_rest_on_as_a_batch(two_held_jobs, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    event, organizer, battles, (first, second) = two_held_jobs
    handed_on = []
    monkeypatch.setattr(tasks, "_batch_seconds", lambda: -1)  # every job after the first is over time
    monkeypatch.setattr(outbox, "send_batch", handed_on.append)
    with django_capture_on_commit_callbacks(execute=True):
        outcomes = tasks.adjudicate_batch.apply(args=[[first.pk, second.pk]]).get()
    assert outcomes == {"checked": 1, "handed on": 1}
    assert handed_on == [[second.pk]]
    assert status_of(first) == Report.Status.CHECKED and status_of(second) == Report.Status.QUEUED


def test_the_sweep_sends_waiting_jobs_in_batches(two_held_jobs, monkeypatch, django_capture_on_commit_callbacks):
    event, organizer, battles, (first, second) = two_held_jobs
    long_ago = timezone.now() - timedelta(seconds=settings.OPP_RESEND_AFTER_SECONDS + 1)
    Adjudication.objects.filter(pk=first.pk).update(sent_at=long_ago)  # sent, never taken (Redis restarted)
    messages = []
    run = tasks.adjudicate_batch.delay
    monkeypatch.setattr(tasks.adjudicate_batch, "delay", lambda ids: (messages.append(ids), run(ids)))
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox.sweep() == (2, 0)
    assert messages == [[first.pk, second.pk]]  # one message for both
    assert status_of(first) == status_of(second) == Report.Status.CHECKED

    monkeypatch.setattr(outbox, "BATCH_SIZE", 1)
    Adjudication.objects.filter(pk__in=[first.pk, second.pk]).update(state=Adjudication.State.QUEUED)
    Report.objects.filter(pk__in=[first.report_id, second.report_id]).update(status=Report.Status.QUEUED)
    messages.clear()
    assert outbox.send_waiting() == (2, 0)
    assert messages == [[first.pk], [second.pk]]


def test_a_queue_that_refuses_a_batch_keeps_its_reports_waiting_with_the_reason(two_held_jobs, monkeypatch):
    event, organizer, battles, (first, second) = two_held_jobs

    def refused(ids):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks.adjudicate_batch, "delay", refused)
    assert outbox.send_waiting() == (0, 2)
    for job in (first, second):
        report = Report.objects.get(pk=job.report_id)
        assert report.status == Report.Status.QUEUED and report.status_reason == outbox.QUEUE_DOWN_REASON


def test_re_adjudicating_a_batch_twice_keeps_the_verdict_it_replaced(adjudicated):
    event, job = adjudicated
    older = dict(job.verdict, condition="crush")  # as an older engine release had decided
    Adjudication.objects.filter(pk=job.pk).update(verdict=older)

    first = adjudication.readjudicate_many([job.pk, job.pk, 0])
    assert [item.get("changed") for item in first] == [True, None]
    assert first[1] == {"adjudication": 0, "error": "no such adjudication"}
    assert first[0]["before"] == older and first[0]["after"]["condition"] == "shackle"
    second = adjudication.readjudicate_many([job.pk])  # a batch racing the first, or delivered again
    assert second[0]["changed"] is False
    job.refresh_from_db()
    assert job.previous_verdict == older and job.verdict["condition"] == "shackle"


def test_the_sweep_sends_again_a_job_taken_long_ago_and_never_finished(two_held_jobs, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    """A worker died holding the job and its message is gone too (a Redis restarted without persistence)."""
    event, organizer, battles, (first, second) = two_held_jobs
    now = timezone.now()
    long_ago = now - timedelta(seconds=settings.OPP_RESEND_AFTER_SECONDS + 1)
    for job, started in ((first, long_ago), (second, now)):  # the second's worker may still be at it
        Adjudication.objects.filter(pk=job.pk).update(state=Adjudication.State.RUNNING, started_at=started,
                                                      sent_at=long_ago, attempts=1)
        Report.objects.filter(pk=job.report_id).update(status=Report.Status.ADJUDICATING)
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox.sweep() == (1, 0)
    assert status_of(first) == Report.Status.CHECKED and Adjudication.objects.get(pk=first.pk).attempts == 2
    assert status_of(second) == Report.Status.ADJUDICATING
