"""How far a Swiss event has come, and what follows a counted result: the next top-cut round or the
winner (`advance`, after every counted battle or table), and which corrections the later steps forbid.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from pairings.swiss import suggested_rounds
from pairings.top_cut import next_round
from tournaments import audit, locks
from tournaments.domain import Conflict
from tournaments.models import Battle, Event, Registration, SwissRound, Table
from tournaments.swiss import standings


def require_swiss(event):
    if event.format != Event.Format.SWISS:
        raise Conflict(_("%(event)s is played in Organized Play groups, not Swiss rounds.")
                       % {"event": event.name})


def swiss_rounds(event):
    return SwissRound.objects.filter(event=event, stage=SwissRound.Stage.SWISS)


def undecided(event):
    """How many battles and tables of the event's rounds have no counted result."""
    return (Battle.objects.filter(event=event, swiss_round__isnull=False, kind="").count()
            + Table.objects.filter(event=event, finished__isnull=True).count())


def planned_rounds(event, players=None):
    """The rounds the event plays: the organizer's number, or ceil(log2 n) of the field."""
    if event.swiss_rounds:
        return event.swiss_rounds
    if players is None:
        players = event.registrations.filter(status=Registration.Status.ACTIVE).count()
    return suggested_rounds(players)


def create_cut_round(event, number, pairs):
    try:
        with transaction.atomic():
            cut = SwissRound.objects.create(event=event, stage=SwissRound.Stage.TOP_CUT, number=number)
    except IntegrityError as error:
        raise Conflict(locks.LOST_RACE) from error
    Battle.objects.bulk_create([
        Battle(event=event, swiss_round=cut, round=number, number=table, general_a_id=a, general_b_id=b)
        for table, (a, b) in enumerate(pairs, start=1)])
    return cut


def advance(event, *, actor=None):
    """After a result counts (tournaments.results.recording): the next top-cut round, or the winner.
    Called under the event's lock."""
    if event.state == Event.State.COMPLETE:
        return
    cut = SwissRound.objects.filter(event=event, stage=SwissRound.Stage.TOP_CUT).order_by("-number").first()
    if cut is not None:
        battles = list(cut.battles.order_by("number"))
        if any(not battle.kind for battle in battles):
            return
        winners = [standings.winner_id(battle) for battle in battles]  # a top-cut battle has one
        if len(winners) == 1:
            _crown(event, winners[0], actor, f"Won the final of the top {event.top_cut}.")
            return
        create_cut_round(event, cut.number + 1, next_round(winners))
        audit.record(event, actor, "top cut round paired", f"Top cut round {cut.number + 1}")
        return
    if event.top_cut or undecided(event) or swiss_rounds(event).count() < planned_rounds(event):
        return
    rows = standings.compute(event)
    leaders = [row for row in rows if row.rank == 1 and not row.dropped]
    if len(leaders) == 1:
        _crown(event, leaders[0].id, actor, "First in the standings after the last Swiss round.")
    else:
        event.state = Event.State.COMPLETE
        event.save()
        audit.record(event, actor, "complete", event.name,
                     reason="The last Swiss round is counted; the top of the standings is shared.")


def _crown(event, general_id, actor, reason):
    event.victor_id, event.state = general_id, Event.State.COMPLETE
    event.save()
    audit.record(event, actor, "victor crowned", event.victor.name, reason=reason)


def refuse_late_correction(battle):
    """A counted Swiss result may be corrected while the Swiss rounds go on (later pairings stand, the
    standings follow); once the top cut is seeded from them, and a top-cut battle once the next round
    is paired from it, it is fixed."""
    cut = SwissRound.objects.filter(event_id=battle.event_id, stage=SwissRound.Stage.TOP_CUT)
    if battle.swiss_round.stage == SwissRound.Stage.SWISS and cut.exists():
        raise Conflict(_("The top cut was seeded from the Swiss standings: a Swiss result can no longer "
                         "change."))
    if battle.swiss_round.stage == SwissRound.Stage.TOP_CUT and cut.filter(number__gt=battle.round).exists():
        raise Conflict(_("The next top-cut round was paired from this result: it can no longer change."))


def refuse_table_correction(table):
    """A counted table may be corrected while the Swiss rounds go on; not once the top cut is seeded."""
    if SwissRound.objects.filter(event_id=table.event_id, stage=SwissRound.Stage.TOP_CUT).exists():
        raise Conflict(_("The top cut was seeded from the Swiss standings: a table's result can no longer "
                         "change."))
