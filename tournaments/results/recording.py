"""`record_result`: the single entry point for a battle's counted result. A first report, a confirmed
report, a correction and an organizer's override all pass here, in one transaction under the lock
order (tournaments/locks.py), with an audit entry; then the event moves on (group winners, the Final
Group, the Victor) and a league season settles.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game_systems.base import read_facts
from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError
from tournaments.events.services import advance, battle_general
from tournaments.leagues import seasons
from tournaments.models import Battle, Event, General, Group, Report, SwissRound
from tournaments.ratings.tasks import schedule_recompute
from tournaments.standings.tables import battle_result
from tournaments.swiss import progress as swiss

RESULT_KINDS = (Battle.Kind.VICTORY, Battle.Kind.STALEMATE, Battle.Kind.RESOLVE, Battle.Kind.FORFEIT)


def refuse_stray_winner(kind, winner):
    """A Stalemate or a Resolve has no winner: one given with it is refused, not dropped silently."""
    if winner is not None and kind in (Battle.Kind.STALEMATE, Battle.Kind.RESOLVE, Battle.Kind.DRAW):
        raise DomainError(_("A %(label)s has no winner: leave the winner empty, or report a Victory.")
                          % {"label": Battle.Kind(kind).label}, field="winner")


def result_shape(battle, *, kind, winner=None, condition="", forfeited_by=None, player_1=None):
    """The one check of a result's shape, for a report and a counted result alike: its kind (one of the
    event's game's result kinds), the fields that kind needs, and generals who are the battle's own.
    Returns (winner, condition, forfeited_by, player_1) as the battle keeps them: the generals, the
    winner of a forfeit being the opponent of the general who forfeited, and only the fields the kind
    has. (A report's own fields are refused instead when they do not fit: `refuse_stray_winner`; an
    organizer's result over a report keeps only what its kind has.)"""
    winner = battle_general(battle, winner, "winner")
    forfeited_by = battle_general(battle, forfeited_by, "forfeited_by")
    player_1 = battle_general(battle, player_1, "player_1")
    system = battle.event.game_system
    kinds = [result_kind.key for result_kind in system.result_kinds]
    if kind not in kinds:
        words = [result_kind.label.lower() for result_kind in system.result_kinds]
        raise DomainError(_("A result of %(short_name)s is %(words)s or %(words2)s.")
                          % {"short_name": system.short_name, "words": ', '.join(words[:-1]), "words2": words[-1]},
                          field="kind")
    if battle.swiss_round_id and battle.swiss_round.stage == SwissRound.Stage.TOP_CUT \
            and not system.result_kind(kind).has_winner:
        raise DomainError(_("A top-cut battle is single elimination: it needs a winner who goes on."), field="kind")
    if kind == Battle.Kind.VICTORY:
        if winner is None:
            raise DomainError(_("A victory needs its winner."), field="winner")
        if not system.adjudicated:  # only WARLINE names a victory condition
            return winner, "", None, player_1
        if condition not in Battle.Condition.values:
            raise DomainError(_("A victory needs its condition: one of %(values)s.")
                              % {"values": ', '.join(Battle.Condition.values)},
                              field="condition")
        return winner, condition, None, player_1
    if kind == Battle.Kind.FORFEIT:
        if forfeited_by is None:
            raise DomainError(_("A forfeit needs the general who forfeited."), field="forfeited_by")
        return battle.opponent_of(forfeited_by), "", forfeited_by, player_1
    return None, "", None, player_1


def result_facts(battle, facts):
    """The raw facts of a result (game_systems: e.g. why a Reaper's Warlord game ended and the points
    each side destroyed), checked against the game's list of them."""
    try:
        return read_facts(battle.event.game_system.result_facts, facts)
    except ValueError as error:
        raise DomainError(str(error), field="facts") from None


@dataclass(frozen=True)
class RecordedResult:
    battle: Battle
    offer_disqualification: General | None = None  # forfeit count reached (seed: Disqualification)


@transaction.atomic
def record_result(battle, *, kind, winner=None, condition="", forfeited_by=None, player_1=None,
                  respect_shown=True, actor=None, reason="", action=None, attested=False, facts=None):
    """The single entry point for a battle's result: first report, correction and override alike.
    `action` names the audit entry when it is not a plain recording or correction (an override).
    `actor` is an organizer who does not play in the battle (R90), unless `attested`: the result of a
    report both sides stand behind, which `tournaments.results.reporting` checked (R75). `actor=None` is the
    server's own use (commands, the demo, automatic confirmation)."""
    event = locks.event(battle.event_id)  # the lock order: event, then battle (tournaments/locks.py)
    battle = locks.battle(battle)
    battle = Battle.objects.select_related(
        "event", "general_a", "general_b", "winner", "forfeited_by", "player_1").get(pk=battle.pk)
    if attested and battle.is_decided:
        # A report counts only on an undecided battle: an organizer's result won the race (R69).
        raise Conflict(_("This battle has a counted result already (recorded at the same moment): only an "
                         "organizer's correction changes it now (R69)."))
    if actor is not None:
        trust.require(trust.may_record_result(actor, battle, attested=attested), trust.decide_refusal(actor, battle))
    if event.state == Event.State.COMPLETE:
        raise Conflict(_("%(event)s is complete: its results can no longer change.") % {"event": event.name})
    if battle.season_id:
        seasons.refuse_if_closed(battle.season)
    if battle.kind == Battle.Kind.UNPLAYED_DQ:
        raise Conflict(_("This battle was not fought because of a disqualification; its result follows "
                         "from R23."))
    if battle.is_decided and battle.group_id and battle.group.stage == Group.Stage.QUALIFYING \
            and event.groups.filter(stage=Group.Stage.FINAL).exists():
        raise Conflict(_("The Final Group is formed already: a qualifying result can no longer change."))  # R69
    if battle.is_decided and not reason.strip():
        raise DomainError(_("This battle has a result already: give a reason for the correction."), field="reason")
    if respect_shown is False:
        raise DomainError(_("A general who refuses General Respect is disqualified, not defeated: record a "
                            "disqualification for refused General Respect instead."), field="respect_shown")

    winner, condition, forfeited_by, player_1 = result_shape(
        battle, kind=kind, winner=winner, condition=condition, forfeited_by=forfeited_by, player_1=player_1)
    facts = result_facts(battle, facts)
    if battle.is_decided and battle.swiss_round_id:
        swiss.refuse_late_correction(battle)
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    if {battle.general_a_id, battle.general_b_id} & disqualified and not battle.is_decided:
        raise Conflict(_("A general of this battle is disqualified: the battle is not fought (R23)."))

    before = audit.battle_snapshot(battle) if battle.is_decided else None
    battle.kind, battle.winner, battle.condition, battle.forfeited_by = kind, winner, condition, forfeited_by
    battle.player_1, battle.respect_shown, battle.decided_at = player_1, respect_shown, timezone.now()
    battle.first_decided_at = battle.first_decided_at or battle.decided_at  # R98: a correction keeps the week
    battle.facts = facts
    if event.game_system.adjudicated:
        battle_result(battle)  # the domain validates the outcome once more before anything is saved
    battle.save()
    if before and battle.group_id and battle.group.winner_id:
        # A correction may change who tops the group; the Final Group does not exist yet (checked above).
        Group.objects.filter(pk=battle.group_id).update(winner=None)
    audit.record(event, actor, action or ("result corrected" if before else "result recorded"), audit.battle_subject(battle),
                 before=before, after=audit.battle_snapshot(battle), reason=reason)
    # The result is decided: reports still open on the battle no longer decide anything.
    Report.objects.filter(battle=battle, status__in=Report.OPEN_STATUSES).update(
        status=Report.Status.SUPERSEDED, confirm_by=None, status_reason="The battle's result was decided.")

    if event.rated:  # R98: ratings follow from the record, so every week after this one is rated again
        schedule_recompute()
    offer = forfeit_offer(event, forfeited_by) if kind == Battle.Kind.FORFEIT else None
    advance(event, actor=actor)
    seasons.after_result_changed(battle, actor=actor)
    return RecordedResult(battle=battle, offer_disqualification=offer)


def forfeit_offer(event, general):
    """R68: the general, when their forfeits on record reach the event's limit and they are not
    disqualified; disqualification is offered to the organizer, not applied."""
    if general is None or not event.forfeits_to_disqualify:
        return None
    if event.disqualifications.filter(general=general).exists():
        return None
    count = Battle.objects.filter(event=event, kind=Battle.Kind.FORFEIT, forfeited_by=general).count()
    return general if count >= event.forfeits_to_disqualify else None


def disqualification_offers(event):
    """Every standing R68 offer of the event, for the queue and the event page."""
    if not event.forfeits_to_disqualify:
        return []
    forfeiters = General.objects.filter(pk__in=Battle.objects.filter(
        event=event, kind=Battle.Kind.FORFEIT).values("forfeited_by")).order_by("name", "pk")
    return [general for general in forfeiters if forfeit_offer(event, general)]
