"""`manage.py readjudicate`: every stored replay through the engine again, changed verdicts listed."""
import io

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Adjudication


def run(*args):
    out = io.StringIO()
    call_command("readjudicate", *args, stdout=out)
    return out.getvalue()


def test_unchanged_verdicts_are_counted_and_not_listed(adjudicated):
    event, adjudication = adjudicated
    output = run("--event", event.slug)
    assert "1 replays re-adjudicated, 0 verdict(s) changed, 0 failed." in output
    assert "CHANGED" not in output


def test_a_changed_verdict_is_listed_and_the_old_one_kept(adjudicated):
    event, adjudication = adjudicated
    stored = dict(adjudication.verdict, condition="crush")  # as an older engine release had decided
    Adjudication.objects.filter(pk=adjudication.pk).update(verdict=stored)
    output = run()
    assert f"CHANGED {event.slug} battle {adjudication.report.battle_id}" in output
    winner = adjudication.report.battle.general_a.name  # the replay's p1, named
    assert f"victory {winner} by crush -> victory {winner} by shackle" in output and " p1 " not in output
    adjudication.refresh_from_db()
    assert adjudication.previous_verdict == stored and adjudication.verdict["condition"] == "shackle"


def test_an_unknown_event_is_refused(adjudicated):
    with pytest.raises(CommandError, match="No event has the slug 'nope'"):
        run("--event", "nope")
