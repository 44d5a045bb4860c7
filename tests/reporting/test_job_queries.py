"""The statements one adjudication job sends, pinned so they cannot creep back (issue 16;
docs/performance.md, section 4). Each job below runs with its after-commit notifications, as a worker
runs it; in a test the transactions are savepoints (SAVEPOINT and RELEASE counted where a worker's
BEGIN and COMMIT are)."""
import pytest

from tournaments.models import Adjudication, AuditEntry, Notification, Report
from tournaments.results import reporting

from .conftest import replay_between

pytestmark = pytest.mark.django_db

# A worker: 15 statements for a checked report (BEGIN and COMMIT included), 17 for one the engine
# disputes; issue 16 started from 27 for each.
CHECKED = 15
DISPUTED = 17


@pytest.fixture
def mailed_day(event_day):
    """The event day with email addresses, so that the job's mails are part of the count."""
    event, organizer, battle = event_day
    for user in (organizer, battle.general_a.user, battle.general_b.user):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return event, organizer, battle


def held_job(battle, user, callbacks, **fields):
    """A report whose job is not run yet (the on-commit send held back)."""
    with callbacks(execute=False):
        report = reporting.submit_report(battle, user=user, **fields)
    return Adjudication.objects.get(report=report)


def test_a_checked_report_costs_at_most_its_pinned_statements(mailed_day, django_assert_max_num_queries,
                                                              django_capture_on_commit_callbacks, mailoutbox):
    event, organizer, battle = mailed_day
    a, b = battle.general_a, battle.general_b
    adjudication = held_job(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                            condition="shackle", replay=replay_between("victory-shackle", a, b))
    mailoutbox.clear()
    with django_assert_max_num_queries(CHECKED), django_capture_on_commit_callbacks(execute=True):
        assert reporting.adjudicate(adjudication.pk) == "checked"
    assert sorted(m.to[0] for m in mailoutbox) == sorted([a.user.email, b.user.email])  # counted above
    assert Notification.objects.filter(sent=True, key__startswith=f"report:{adjudication.report_id}:").count() == 2
    # Run twice (a redelivered message): nothing is written again, one statement to know it.
    with django_assert_max_num_queries(1), django_capture_on_commit_callbacks(execute=True):
        assert reporting.adjudicate(adjudication.pk) == "already done"
    assert Report.objects.get(pk=adjudication.report_id).status == Report.Status.CHECKED
    assert len(mailoutbox) == 2


def test_a_disputed_report_costs_at_most_its_pinned_statements(mailed_day, django_assert_max_num_queries,
                                                               django_capture_on_commit_callbacks, mailoutbox):
    event, organizer, battle = mailed_day
    a, b = battle.general_a, battle.general_b
    adjudication = held_job(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                            condition="crush", replay=replay_between("victory-shackle", a, b))
    mailoutbox.clear()
    with django_assert_max_num_queries(DISPUTED), django_capture_on_commit_callbacks(execute=True):
        assert reporting.adjudicate(adjudication.pk) == "disputed"
    assert sorted(m.to[0] for m in mailoutbox) == sorted([a.user.email, b.user.email, organizer.email])
    assert AuditEntry.objects.filter(event=event, action="report disputed by the engine").count() == 1
    with django_assert_max_num_queries(1), django_capture_on_commit_callbacks(execute=True):
        assert reporting.adjudicate(adjudication.pk) == "already done"
    assert AuditEntry.objects.filter(event=event, action="report disputed by the engine").count() == 1
