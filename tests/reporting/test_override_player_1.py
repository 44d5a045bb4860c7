"""An organizer's override of a report the engine disputed keeps what the replay proves: Player-1."""
import pytest

from tournaments.models import Report
from tournaments.results import reporting

from .conftest import replay_between

pytestmark = pytest.mark.django_db


def test_an_override_of_an_engine_disputed_report_takes_player_1_from_the_replay(
        event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=b.user, kind="victory", winner=b, condition="crush",
                                         replay=replay_between("victory-shackle", a, b))
    report.refresh_from_db()
    assert report.status == Report.Status.DISPUTED and report.player_1 == a  # the log's sides, when reported (R92)
    reporting.override_report(report, user=organizer, reason="The replay is right.", kind="victory", winner=a,
                              condition="shackle")
    battle.refresh_from_db()
    assert battle.winner == a and battle.player_1 == a  # the replay names a as p1
