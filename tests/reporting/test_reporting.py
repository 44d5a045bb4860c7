"""Players report, opponents confirm or dispute, replays are adjudicated, organizers decide."""
import pytest
from django.db import OperationalError

from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.models import Adjudication, AuditEntry, Battle, Report
from tournaments.results import adjudication, outbox, reporting
from tournaments.standings import tables

from .conftest import held_report, replay_between, reported, reported_shackle


def test_a_replay_that_agrees_is_checked_and_still_waits_for_the_opponent(event_day,
                                                                          django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    # A legal replay proves the battle is legal, not that it was played (R75): the opponent confirms.
    assert created.status == Report.Status.CHECKED
    assert created.status_reason == f"Checked by the engine, waiting for {b.name}."
    assert not battle.kind and tables.group_standings(battle.group).pending_results == 1
    reporting.confirm_report(created, user=b.user)
    battle.refresh_from_db()
    assert battle.kind == Battle.Kind.VICTORY and battle.winner == a and battle.condition == "shackle"
    assert battle.player_1 == a  # taken from the replay
    job = created.adjudication
    assert job.state == Adjudication.State.DONE and job.agrees
    assert job.verdict["opp"] == {"p1": 5, "p2": 0}
    assert job.engine_version and job.engine_ms is not None and job.finished_at
    row = next(r for r, g in tables.group_standings(battle.group).entries() if g == a)
    assert row.opp == 5


def test_a_report_the_replay_contradicts_is_disputed_with_the_reason(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reported(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                       condition="crush", replay=replay_between("victory-shackle", a, b))
    assert created.status == Report.Status.DISPUTED
    assert created.status_reason == f"The report says {a.name} by Crush; the replay gives {a.name} by Shackle."
    assert not battle.kind  # standings count confirmed results only
    assert tables.group_standings(battle.group).pending_results == 1
    assert created in reporting.open_reports(event)


def test_an_invalid_log_is_disputed_with_the_engines_sentence_and_turn(event_day,
                                                                         django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reported(battle, b.user, django_capture_on_commit_callbacks, kind="victory", winner=b,
                       condition="blunt", replay=replay_between("invalid-not-enough-ma", a, b))
    assert created.status == Report.Status.DISPUTED
    assert created.dispute_turn == 2
    assert "at turn 2, order 1, action 2" in created.status_reason and "MA" in created.status_reason


def test_a_replay_of_other_generals_is_refused_before_the_engine_runs(event_day,
                                                                       django_capture_on_commit_callbacks):  # R92
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    document = replay_between("victory-shackle", a, b)
    document["generals"]["p2"]["name"] = "Somebody Else"
    with pytest.raises(DomainError, match="Somebody Else") as refusal:
        reported(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                 condition="shackle", replay=document)
    assert refusal.value.field == "replay"
    assert not battle.reports.exists() and not Adjudication.objects.exists() and not battle.kind


def test_a_replay_with_other_variants_than_the_events_is_refused(event_day,
                                                                  django_capture_on_commit_callbacks):  # R73
    event, organizer, battle = event_day
    event.variants = ["double_time"]
    event.save()
    with pytest.raises(DomainError) as refusal:
        reported_shackle(battle, django_capture_on_commit_callbacks)
    sentence = str(refusal.value)
    assert "was played with Core Rules only, but" in sentence
    assert "elected Double Time" in sentence and "double_time" not in sentence
    assert not battle.reports.exists()


def test_general_ids_in_meta_map_the_generals(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    document = replay_between("victory-crush", a, b)
    document["generals"]["p1"]["name"], document["generals"]["p2"]["name"] = "", ""
    document["meta"] = {"general_ids": {"p1": a.pk, "p2": b.pk}}
    created = reported(battle, b.user, django_capture_on_commit_callbacks, kind="victory", winner=b,
                       condition="crush", replay=document)
    assert created.status == Report.Status.CHECKED and created.player_1 == a
    # Names the log gives must be the generals the ids name (R92).
    document["generals"]["p1"]["name"], document["generals"]["p2"]["name"] = "Nick A", "Nick B"
    with pytest.raises(DomainError, match="the log names Nick A"):
        reported(battle, b.user, django_capture_on_commit_callbacks, kind="victory", winner=b,
                 condition="crush", replay=document)


def test_a_duplicate_delivery_leaves_one_verdict_and_one_status_change(event_day,
                                                                        django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    assert adjudication.adjudicate(created.adjudication.pk) == "already done"
    assert Adjudication.objects.filter(report=created).count() == 1
    created.refresh_from_db()
    assert created.status == Report.Status.CHECKED


def test_a_message_redelivered_while_the_first_run_was_lost_finishes_once(event_day,
                                                                           django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    created = held_report(battle, django_capture_on_commit_callbacks)
    # A worker took the job and died: the row says running, nothing was written.
    Adjudication.objects.filter(report=created).update(state=Adjudication.State.RUNNING, attempts=1)
    assert adjudication.adjudicate(created.adjudication.pk) == "checked"
    assert adjudication.adjudicate(created.adjudication.pk) == "already done"
    created.adjudication.refresh_from_db()
    assert created.adjudication.attempts == 2


def test_a_job_that_keeps_failing_ends_as_failed_and_the_report_stays(event_day, monkeypatch,
                                                                     django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a = battle.general_a
    calls = []

    def database_gone(text):
        calls.append(text)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(adjudication, "run_engine", database_gone)
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    assert created.status == Report.Status.FAILED
    assert "server closed the connection" in created.adjudication.last_error
    assert created.adjudication.state == Adjudication.State.FAILED
    assert len(calls) == 6  # the first attempt and five retries with back-off
    assert created.kind == "victory" and created.replay  # what the player entered is kept
    reporting.confirm_report(created, user=organizer)
    battle.refresh_from_db()
    assert battle.winner == a


def test_one_pending_job_per_battle(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    held_report(battle, django_capture_on_commit_callbacks)
    with pytest.raises(Conflict, match="being adjudicated"):
        reporting.submit_report(battle, user=a.user, kind="stalemate")
    assert battle.reports.count() == 1
    # The opponent does not wait for the engine: their report answers (here, disputes) at once.
    answer = reporting.submit_report(battle, user=b.user, kind="stalemate")
    assert answer.status == Report.Status.DISPUTED


def test_the_opponent_confirms_a_report_without_replay(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt")
    assert created.status == Report.Status.AWAITING_OPPONENT
    with pytest.raises(NotAllowed):
        reporting.confirm_report(created, user=a.user)  # not your own report
    reporting.confirm_report(created, user=b.user)
    battle.refresh_from_db()
    assert battle.kind == "victory" and battle.condition == "blunt"


def test_the_opponent_disputes_and_the_organizer_overrides_with_a_reason(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle")
    with pytest.raises(DomainError, match="Say what is wrong"):
        reporting.dispute_report(created, user=b.user, reason=" ")
    reporting.dispute_report(created, user=b.user, reason="It was a stalemate, we both stalled out.")
    created.refresh_from_db()
    assert created.status == Report.Status.DISPUTED
    with pytest.raises(NotAllowed):
        reporting.override_report(created, user=b.user, reason="mine", kind="stalemate")
    with pytest.raises(DomainError, match="needs a reason"):
        reporting.override_report(created, user=organizer, reason="", kind="stalemate")
    reporting.override_report(created, user=organizer, reason="Judge saw the board", kind="stalemate",
                              winner=None, condition="")
    battle.refresh_from_db()
    created.refresh_from_db()
    assert battle.kind == "stalemate" and created.status == Report.Status.OVERRIDDEN
    entry = AuditEntry.objects.get(event=event, action="report overridden", actor=organizer)
    assert entry.reason == "Judge saw the board" and entry.after["kind"] == "stalemate"


def test_only_the_battles_generals_and_organizers_report(event_day):
    event, organizer, battle = event_day
    outsider = next(m.general for g in event.groups.all() for m in g.members.all() if not battle.involves(m.general))
    with pytest.raises(NotAllowed):
        reporting.submit_report(battle, user=outsider.user, kind="stalemate")
    assert not battle.reports.exists()


def test_an_organizers_report_without_replay_counts_at_once(event_day):
    event, organizer, battle = event_day
    reporting.submit_report(battle, user=organizer, kind="resolve")
    battle.refresh_from_db()
    assert battle.kind == "resolve"


@pytest.mark.parametrize(("upload", "says"), [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "one JSON object"),
    (b"\xff\xfe", "not UTF-8"),
    ("{" + " " * (1024 * 1024) + "}", "limit is 1,048,576"),
])
def test_bad_uploads_are_refused_before_anything_is_stored(event_day, upload, says):
    event, organizer, battle = event_day
    a = battle.general_a
    with pytest.raises(DomainError, match=says) as refused:
        reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="crush", replay=upload)
    assert refused.value.field == "replay"
    assert not Report.objects.exists() and not Adjudication.objects.exists()


def test_a_forfeit_report_cannot_carry_a_replay(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    with pytest.raises(DomainError, match="no replay"):
        reporting.submit_report(battle, user=a.user, kind="forfeit", forfeited_by=b,
                                replay=replay_between("victory-shackle", a, b))


def _recruited_victory():
    import rules_engine

    for seed in range(1, 200):
        replay = rules_engine.generate_game(seed, variants=("army_recruiting",))
        verdict = rules_engine.adjudicate(replay).to_dict()
        if verdict.get("outcome") == "victory":
            return replay, verdict
    raise AssertionError("no recruited victory among the first 200 seeds")


@pytest.mark.parametrize("count_matches", [True, False])
def test_a_variant_event_checks_the_recruited_army_size(event_day, django_capture_on_commit_callbacks,
                                                       count_matches):  # R73
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    replay, verdict = _recruited_victory()
    size = len(replay["armies"]["p1"])
    event.variants, event.battalion_count = ["army_recruiting"], size if count_matches else size + 1
    event.save()
    replay["generals"]["p1"]["name"], replay["generals"]["p2"]["name"] = a.name, b.name
    winner = a if verdict["winner"] == "p1" else b
    if count_matches:
        created = reported(battle, winner.user, django_capture_on_commit_callbacks, kind="victory",
                           winner=winner, condition=verdict["condition"], replay=replay)
        assert created.status == Report.Status.CHECKED
    else:  # refused when reported, before the engine runs
        with pytest.raises(DomainError, match=f"army has {size} battalions, but Quay Cup recruits armies of "
                                              f"{size + 1}"):
            reported(battle, winner.user, django_capture_on_commit_callbacks, kind="victory", winner=winner,
                     condition=verdict["condition"], replay=replay)


def test_a_broker_that_does_not_answer_keeps_the_report_queued(event_day, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command
    from kombu.exceptions import OperationalError as BrokerError

    from tournaments.results import tasks

    event, organizer, battle = event_day

    def broker_down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.adjudicate_report, "delay", broker_down)
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    assert created.status == Report.Status.QUEUED and "did not answer" in created.status_reason
    monkeypatch.undo()
    out = StringIO()
    call_command("adjudicate_pending", stdout=out)
    assert "1 adjudication(s) sent" in out.getvalue()
    created.refresh_from_db()
    assert created.status == Report.Status.CHECKED


def test_adjudicate_pending_says_when_the_queue_does_not_answer_and_fails(event_day, monkeypatch,
                                                                          django_capture_on_commit_callbacks):
    from django.core.management import CommandError, call_command

    from tournaments.results import tasks

    event, organizer, battle = event_day
    monkeypatch.setattr(tasks.adjudicate_report, "delay", lambda *args: (_ for _ in ()).throw(
        ConnectionRefusedError(111, "Connection refused")))
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    assert created.status == Report.Status.QUEUED and created.adjudication.sent_at is None
    monkeypatch.setattr(outbox, "queue_problem", lambda: "Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with pytest.raises(CommandError, match=r"does not answer .*nothing was sent and 1 adjudication\(s\) still wait"):
        call_command("adjudicate_pending")
    created.refresh_from_db()
    assert created.status == Report.Status.QUEUED


def test_the_sweep_sends_jobs_never_sent_and_jobs_no_worker_took_for_long(event_day, settings,
                                                                         django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.results import outbox

    event, organizer, battle = event_day
    created = held_report(battle, django_capture_on_commit_callbacks)
    job = created.adjudication
    Adjudication.objects.filter(pk=job.pk).update(sent_at=timezone.now())
    assert list(outbox.waiting(resend_after=settings.OPP_RESEND_AFTER_SECONDS)) == []  # sent just now: it waits
    Adjudication.objects.filter(pk=job.pk).update(
        sent_at=timezone.now() - timedelta(seconds=settings.OPP_RESEND_AFTER_SECONDS + 1))
    assert outbox.sweep() == (1, 0)  # sent long ago and never taken (a Redis restarted empty): sent again
    created.refresh_from_db()
    assert created.status == Report.Status.CHECKED
