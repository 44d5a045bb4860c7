"""A Swiss event's steps: pair the next round, drop a player, start and advance the top cut, and
settle the event when its last round is decided.

Every step takes the event's lock first and re-reads what it decides on, so two organizers pairing
at once get one round and a 409 (tournaments/locks.py).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairings.swiss import SwissEntrant, SwissError, pair_round, suggested_rounds
from pairings.top_cut import top_cut_first_round
from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError
from tournaments.models import Battle, Event, General, Registration, SwissRound
from tournaments.swiss import standings, tables
from tournaments.swiss.progress import (
    advance,
    create_cut_round,
    planned_rounds,
    require_swiss,
    swiss_rounds,
    undecided,
)


def pairing_refusal(event):
    """Why the next Swiss round cannot be paired now, or None."""
    if event.state == Event.State.REGISTRATION:
        return _("Close registration before pairing the first round.")
    if event.state in (Event.State.COMPLETE, Event.State.FINAL, Event.State.PLAYOFF):
        return _("%(event)s's Swiss rounds are over.") % {"event": event.name}
    waiting = undecided(event)
    if waiting:
        if event.table_size > 2:
            refusal = ngettext("%(count)s table of the current round has no counted result yet: every result "
                               "counts before the next round is paired.",
                               "%(count)s tables of the current round have no counted result yet: every result "
                               "counts before the next round is paired.", waiting)
        else:
            refusal = ngettext("%(count)s battle of the current round has no counted result yet: every result "
                               "counts before the next round is paired.",
                               "%(count)s battles of the current round have no counted result yet: every result "
                               "counts before the next round is paired.", waiting)
        return refusal % {"count": waiting}
    played = swiss_rounds(event).count()
    if played >= planned_rounds(event):
        return _("All %(played)s Swiss rounds are paired.") % {"played": played}
    return None


def _entrants(event, number):
    rows = standings.compute(event)
    rank = {row.id: row.rank for row in rows}
    score = {row.id: row.score for row in rows}
    opponents: dict[int, set[int]] = {}
    for a, b in Battle.objects.filter(event=event, swiss_round__stage=SwissRound.Stage.SWISS).values_list(
            "general_a_id", "general_b_id"):
        opponents.setdefault(a, set()).add(b)
        opponents.setdefault(b, set()).add(a)
    byes = set(swiss_rounds(event).exclude(bye=None).values_list("bye_id", flat=True))
    disqualified = event.disqualifications.values_list("general_id", flat=True)
    active = event.registrations.filter(status=Registration.Status.ACTIVE, dropped_after_round__isnull=True) \
        .exclude(general_id__in=disqualified)
    order = list(active.order_by("number").values_list("general_id", flat=True))
    if number == 1:
        # The first round: the organizer's seeds, then registration order.
        seeded = sorted(active.values_list("general_id", "seed", "number"),
                        key=lambda row: (row[1] is None, row[1] or 0, row[2]))
        rank = {general: position for position, (general, _seed, _n) in enumerate(seeded, start=1)}
    late = len(rank) + 1
    return [SwissEntrant(id=general, score=score.get(general, 0.0), rank=rank.get(general, late),
                         opponents=frozenset(opponents.get(general, ())), had_bye=general in byes)
            for general in order]


@transaction.atomic
def pair_next_round(event, *, actor=None):
    """Pairs the next Swiss round from the standings now: no rematch while one is avoidable, at most
    one bye each, to the lowest-ranked eligible player (pairings.swiss). Returns the round."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    require_swiss(event)
    refusal = pairing_refusal(event)
    if refusal:
        raise Conflict(refusal)
    number = swiss_rounds(event).count() + 1
    entrants = _entrants(event, number)
    if len(entrants) < 2:
        raise Conflict(_("A Swiss round needs at least two players in the field."))
    if number == 1 and not event.swiss_rounds:
        event.swiss_rounds = suggested_rounds(len(entrants))
    try:
        return _pair(event, number, entrants, actor)
    except SwissError as error:  # e.g. too few players for a table: a refusal, nothing saved
        raise Conflict(str(error)) from None


def _pair(event, number, entrants, actor):
    if event.table_size > 2:  # multiplayer tables: seated by score, no repeat table-mates while avoidable
        swiss_round = SwissRound.objects.create(event=event, number=number)
        seating = tables.seat_round(event, swiss_round, entrants, tables.previous_tablemates(event))
        after = {"tables": len(seating)}
    else:
        pairing = pair_round(entrants)
        swiss_round = SwissRound.objects.create(event=event, number=number, bye_id=pairing.bye,
                                                rematches=len(pairing.rematches))
        Battle.objects.bulk_create([
            Battle(event=event, swiss_round=swiss_round, round=number, number=table, general_a_id=a,
                   general_b_id=b)
            for table, (a, b) in enumerate(pairing.pairs, start=1)])
        bye = General.objects.get(pk=pairing.bye).name if pairing.bye is not None else None
        after = {"battles": len(pairing.pairs), "bye": bye, "rematches": len(pairing.rematches)}
    event.state = Event.State.QUALIFYING
    event.save()
    audit.record(event, actor, "round paired", f"Swiss round {number}", after=after)
    return swiss_round


@transaction.atomic
def drop(event, general, *, actor):
    """A player leaves between rounds (the player themselves or an organizer): never paired again, kept
    in the standings with their games."""
    event = locks.event(event)
    require_swiss(event)
    trust.require(actor is None or trust.may_organize(actor, event)
                  or (general.user_id is not None and general.user_id == actor.pk),
                  _("Only the player and the event's organizers may drop a player."))
    registration = event.registrations.filter(general=general, status=Registration.Status.ACTIVE).first()
    if registration is None:
        raise DomainError(_("%(general)s is not in %(event)s's field.")
                          % {"general": general.name, "event": event.name}, field="general")
    if registration.dropped_after_round is not None:
        raise Conflict(_("%(general)s dropped after round %(dropped_after_round)s already.")
                       % {"general": general.name, "dropped_after_round": registration.dropped_after_round})
    registration.dropped_after_round = swiss_rounds(event).count()
    registration.save(update_fields=["dropped_after_round"])
    audit.record(event, actor, "dropped", general.name, after={"after_round": registration.dropped_after_round})
    return registration


@transaction.atomic
def start_top_cut(event, *, actor=None):
    """After the last Swiss round: the top `event.top_cut` players by the standings play single
    elimination, seeded 1 v N so the top two meet only in the final."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    require_swiss(event)
    if not event.top_cut:
        raise Conflict(_("%(event)s has no top cut.") % {"event": event.name})
    if SwissRound.objects.filter(event=event, stage=SwissRound.Stage.TOP_CUT).exists():
        raise Conflict(_("The top cut has started already."))
    if swiss_rounds(event).count() < planned_rounds(event) or undecided(event):
        raise Conflict(_("The top cut starts once every Swiss round is played and counted."))
    rows = [row for row in standings.compute(event) if not row.dropped]  # the disqualified are dropped too
    if len(rows) < event.top_cut:
        raise Conflict(_("A top %(top_cut)s needs %(top_cut)s players still in the field; %(count)s are.")
                       % {"top_cut": event.top_cut, "count": len(rows)})
    create_cut_round(event, 1, top_cut_first_round([row.id for row in rows[:event.top_cut]]))
    event.state = Event.State.FINAL
    event.save()
    names = General.objects.in_bulk([row.id for row in rows[:event.top_cut]])
    audit.record(event, actor, "top cut started", f"Top {event.top_cut}",
                 after={"seeds": [names[row.id].name for row in rows[:event.top_cut]]})




@transaction.atomic
def set_rounds(event, rounds, *, actor=None):
    """The organizer changes how many Swiss rounds are played (the suggestion is ceil(log2 of the field)):
    never fewer than are paired already, and no more once the top cut has begun or the event is over."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    require_swiss(event)
    if event.state in (Event.State.COMPLETE, Event.State.FINAL):
        raise Conflict(_("%(event)s's Swiss rounds are over: their number is fixed.")
                       % {"event": event.name})
    paired = swiss_rounds(event).count()
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not max(1, paired) <= rounds <= 20:
        raise DomainError(_("Swiss rounds: from %(paired)s (the rounds paired already) to 20.")
                          % {"paired": max(1, paired)},
                          field="swiss_rounds")
    before = event.swiss_rounds
    event.swiss_rounds = rounds
    event.save(update_fields=["swiss_rounds", "updated_at"])
    audit.record(event, actor, "swiss rounds changed", event.name, before={"rounds": before},
                 after={"rounds": rounds})
    advance(event, actor=actor)  # fewer rounds: the last one played may have been the last
    return event
