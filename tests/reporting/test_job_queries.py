"""The statements one adjudication job sends, pinned so they cannot creep back (issues 16 and 28;
docs/performance.md, section 4). Each job below runs with its after-commit notifications, as a worker
runs it; in a test the transactions are savepoints (SAVEPOINT and RELEASE counted where a worker's
BEGIN and COMMIT are)."""
import pytest
from django.db import connection

from tournaments.models import Adjudication, AuditEntry, Notification, Report
from tournaments.results import adjudication

from .conftest import held_report

pytestmark = pytest.mark.django_db

# On PostgreSQL (production), issue 28: a checked report costs the job 7 statements (BEGIN and COMMIT
# included; 14 before, 27 at the start of issue 16): taking the job with everything it reads (1,
# `results.job_sql`), the verdict's transaction (BEGIN, the verdict and the status change in 1, the mails'
# savepoint, their INSERT, its release, COMMIT). A disputed one 9: the audit entry and the organizers (for
# the dispute mail) besides. Since mail is a job of its own (issue 27, docs/mail.md), the mail job runs
# here too (tests run jobs at once; a worker runs it apart from the adjudication): its claim (one UPDATE),
# reading the claimed mails with their addresses, and one UPDATE a mail sent (each is marked sent at once,
# so a job killed mid-batch sends again only the mail it was sending): 2 mails for a checked report, 3 for
# a disputed one (the two generals and the organizer). SQLite (development) takes the ORM's path: 3 more.
JOB = {"postgresql": {"checked": 7, "disputed": 9}, "sqlite": {"checked": 10, "disputed": 12}}


def pinned(outcome):
    mails = {"checked": 2, "disputed": 3}[outcome]
    return JOB[connection.vendor][outcome] + 2 + mails


@pytest.fixture
def mailed_day(event_day):
    """The event day with email addresses, so that the job's mails are part of the count."""
    event, organizer, battle = event_day
    for user in (organizer, battle.general_a.user, battle.general_b.user):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return event, organizer, battle


def held_job(battle, callbacks, condition):
    """The job of Ada's report of a victory by `condition` (the Shackle example replay), not run yet."""
    return Adjudication.objects.get(report=held_report(battle, callbacks, condition))


@pytest.fixture
def run_job(django_assert_max_num_queries, django_capture_on_commit_callbacks):
    """Runs a job as a worker runs it, its after-commit notifications included, and fails the test if
    it sends more statements than allowed."""
    def run(job, statements):
        with django_assert_max_num_queries(statements), django_capture_on_commit_callbacks(execute=True):
            return adjudication.adjudicate(job.pk)
    return run


def test_a_checked_report_costs_at_most_its_pinned_statements(mailed_day, run_job, mailoutbox,
                                                              django_capture_on_commit_callbacks):
    event, organizer, battle = mailed_day
    a, b = battle.general_a, battle.general_b
    job = held_job(battle, django_capture_on_commit_callbacks, "shackle")
    mailoutbox.clear()
    assert run_job(job, pinned("checked")) == "checked"
    assert sorted(m.to[0] for m in mailoutbox) == sorted([a.user.email, b.user.email])  # counted above
    assert Notification.objects.filter(sent=True, key__startswith=f"report:{job.report_id}:").count() == 2
    # Run twice (a redelivered message): nothing is written again, one statement to know it.
    assert run_job(job, 1) == "already done"
    assert Report.objects.get(pk=job.report_id).status == Report.Status.CHECKED
    assert len(mailoutbox) == 2


def test_a_disputed_report_costs_at_most_its_pinned_statements(mailed_day, run_job, mailoutbox,
                                                               django_capture_on_commit_callbacks):
    event, organizer, battle = mailed_day
    a, b = battle.general_a, battle.general_b
    job = held_job(battle, django_capture_on_commit_callbacks, "crush")  # the replay shows a Shackle
    mailoutbox.clear()
    assert run_job(job, pinned("disputed")) == "disputed"
    assert sorted(m.to[0] for m in mailoutbox) == sorted([a.user.email, b.user.email, organizer.email])
    assert AuditEntry.objects.filter(event=event, action="report disputed by the engine").count() == 1
    assert run_job(job, 1) == "already done"
    assert AuditEntry.objects.filter(event=event, action="report disputed by the engine").count() == 1


def prepared_job_statements():
    """{statement: times PostgreSQL ran it} of this connection's prepared statements of the job
    (`results.job_sql`: both open with the `relaxed` CTE)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements "
                       "WHERE statement LIKE %s", ["%WITH relaxed AS MATERIALIZED%"])
        return dict(cursor.fetchall())


def test_the_jobs_two_statements_are_prepared_on_the_server_once(require_postgres, mailed_day, run_job,
                                                                 django_capture_on_commit_callbacks):
    """Planning the job's twelve-relation read cost more than running it (docs/performance.md, section 4),
    so both statements are prepared once a connection and then run by name. Django opens connections with
    psycopg's prepared statements off, which silently ignored the request to prepare: a job then planned
    both afresh each time."""
    event, organizer, battle = mailed_day
    before = prepared_job_statements()
    assert run_job(held_job(battle, django_capture_on_commit_callbacks, "shackle"), pinned("checked")) == "checked"
    after_one = prepared_job_statements()
    assert len(after_one) == 2, list(after_one)  # taking the job, writing its verdict
    assert all(after_one[text] == before.get(text, 0) + 1 for text in after_one), (before, after_one)

    job = Adjudication.objects.get(report__battle=battle)
    assert run_job(job, 1) == "already done"  # taking it again runs the prepared statement; nothing new
    after_two = prepared_job_statements()
    assert set(after_two) == set(after_one)
    assert sum(after_two.values()) == sum(after_one.values()) + 1
