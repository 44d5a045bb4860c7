"""A league season, from opening to its champion: a small state machine that moves on by itself.

    open ──close──> closing ──(every battle decided)──> playoff ──(tie decided)──> closed
      ^                │                                   │                          │
      └────reopen──────┴───────────────────────────────────┴──(latest season only)───┘

- open: members arrange battles and report them; the organizer schedules and removes battles.
- closing: the organizer asked to close; battles still scheduled are recorded or removed first.
- playoff: the top is tied after every tie-breaker; playoff battles decide it (R24, R70).
- closed: the champion is named (or, R112, nobody could be). Nothing in it changes any more.

`settle` is the one step that moves a closing season on. It runs after anything that can change the
season's table: a result (organizer, confirmed report, override, correction), a disqualification,
a removed battle. So a Stalemate playoff gets its replay at once, a correction that breaks a tie
removes the playoff it no longer needs, and the deciding result names the champion.

A season keeps what it held (R88): its members (`SeasonMember`, taken when it opens and when a
member registers while it is open) and the disqualifications decided in it or before it. Its
standings are computed from those, so later seasons never change a closed one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError, decide_champion, next_playoff_pairings
from tournaments.models import Battle, Event, General, Report, Season, SeasonMember, label_in_sentence
from tournaments.standings import tables

PLAYOFF_RULE = "If the Playoff Battle outcome is Stalemate or Resolve, another Playoff Battle must occur"


@dataclass
class Settled:
    """What a step did to the season: the playoffs it created, the champion it named."""

    season: Season
    champion: General | None = None
    playoffs: list = field(default_factory=list)


# --- what a season holds --------------------------------------------------------------------------


def _locked(season):
    return Season.objects.select_for_update(of=("self",)).select_related("event", "champion").get(pk=season.pk)


def _move(season, state, *, actor, reason=None, **after):
    """A transition, audited with the sentence of what the season waits for now (or the reason given)."""
    before = season.state
    season.state = state
    season.save()
    reason = waiting_for(season) if reason is None else reason
    # The audit's action stays English, as every action: "season closing" (the state's value, not its label).
    audit.record(season.event, actor, f"season {season.state}", season.name,
                 before={"state": before}, after={"state": state, **after}, reason=reason)


def _remove_playoffs(season, battles, *, actor, reason):
    """Pending playoffs the tie no longer needs (a correction, a disqualification: R70), audited."""
    for battle in battles:
        audit.record(season.event, actor, "playoff removed", audit.battle_subject(battle), reason=reason)
        battle.delete()


STALE_PLAYOFF = "The tie it was to decide has changed (R24, R70)."


def _set_league_state(event, state):
    Event.objects.filter(pk=event.pk).update(state=state, updated_at=timezone.now())
    event.state = state


def _require_organizer(actor, event):
    """The season's steps are the organizers' (`actor=None`: the server's own use, e.g. the demo)."""
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)


def refuse_if_closed(season, doing="change"):
    if season.state == Season.State.CLOSED:
        raise Conflict(_("%(season)s is closed: its battles, results and members can no longer %(doing)s.")
                       % {"season": season.name, "doing": doing})


# --- opening, closing, reopening ----------------------------------------------------------------

@transaction.atomic
def open_season(event, name, *, actor=None):
    event = locks.event(event)
    _require_organizer(actor, event)
    if event.kind != Event.Kind.LEAGUE:
        raise DomainError(_("%(event)s is a tournament: seasons belong to leagues.") % {"event": event.name})
    current = event.current_season()
    if current is not None:
        raise Conflict(_("%(event)s has a season in play (%(current)s, %(state)s): it must be closed "
                         "before the next opens. %(waiting_for)s")
                       % {"event": event.name, "current": current.name, "state": label_in_sentence(current.get_state_display()), "waiting_for": waiting_for(current)})
    number = (event.seasons.aggregate(n=Max("number"))["n"] or 0) + 1
    season = Season.objects.create(event=event, number=number, name=(name or "").strip() or f"Season {number}")
    disqualified = event.disqualifications.values_list("general_id", flat=True)
    members = event.active_registrations().exclude(general_id__in=disqualified)
    SeasonMember.objects.bulk_create(SeasonMember(season=season, general_id=r.general_id) for r in members)
    _set_league_state(event, Event.State.IN_SEASON)
    audit.record(event, actor, "season opened", season.name, after={"members": members.count()})
    return season


@transaction.atomic
def close_season(season, *, actor=None):
    """The organizer closes the season: it stops taking battles and moves on by itself from here."""
    locks.event(season.event)
    _require_organizer(actor, season.event)
    season = _locked(season)
    if season.state != Season.State.OPEN:
        refuse_if_closed(season, "close again")
        raise Conflict(_("%(season)s is closing already. %(waiting_for)s")
                       % {"season": season.name, "waiting_for": waiting_for(season)})
    _move(season, Season.State.CLOSING, actor=actor)
    return settle(season, actor=actor)


@transaction.atomic
def reopen_season(season, *, actor=None, reason=""):
    """Back to open, with a reason: pending playoffs are removed (the tie is decided again at the next
    close). A closed season reopens only while it is the league's latest."""
    if not reason.strip():
        raise DomainError(_("Say why the season reopens; the reason is kept in the audit trail."), field="reason")
    event = locks.event(season.event)
    _require_organizer(actor, event)
    season = _locked(season)
    if season.state == Season.State.OPEN:
        raise Conflict(_("%(season)s is open already.") % {"season": season.name})
    if season.state == Season.State.CLOSED and event.seasons.filter(number__gt=season.number).exists():
        raise Conflict(_("%(season)s is closed and a later season has opened: it stays as it closed.")
                       % {"season": season.name})
    before_champion = season.champion.name if season.champion_id else None
    _remove_playoffs(season, season.battles.filter(playoff=True, kind=""), actor=actor,
                     reason=f"{season.name} reopens: {reason.strip()}")
    season.champion = None
    _move(season, Season.State.OPEN, actor=actor, reason=reason.strip(), champion_before=before_champion)
    _set_league_state(event, Event.State.IN_SEASON)
    return season


# --- the state machine ------------------------------------------------------------------------------

def settle(season, *, actor=None):
    """Moves a closing season as far as its results allow. Call with the event locked."""
    outcome = Settled(season=season)
    if season.state not in (Season.State.CLOSING, Season.State.PLAYOFF):
        return outcome
    if season.battles.filter(playoff=False, kind="").exists():
        _remove_playoffs(season, season.battles.filter(playoff=True, kind=""), actor=actor, reason=STALE_PLAYOFF)
        if season.state != Season.State.CLOSING:
            _move(season, Season.State.CLOSING, actor=actor)
        return outcome
    table = tables.season_standings(season)
    decision = decide_champion(table.rows)
    if decision.decided is not None:
        _close(season, table.generals[decision.decided], actor=actor)
        outcome.champion = season.champion
        return outcome
    if not decision.tied:
        _close(season, None, actor=actor)
        return outcome

    tied = list(decision.tied)
    playoffs = list(season.battles.filter(playoff=True).select_related("general_a", "general_b"))
    results = [tables.battle_result(b) for b in playoffs if b.kind and {str(b.general_a_id), str(b.general_b_id)}
               <= set(tied)]
    state = next_playoff_pairings(tied, results)
    wanted = {frozenset(pair) for pair in state.pending}
    undecided = {}
    for battle in playoffs:
        pair = frozenset((str(battle.general_a_id), str(battle.general_b_id)))
        if battle.kind:
            continue
        if pair in wanted and pair not in undecided:
            undecided[pair] = battle
        else:  # no longer part of the tie (a correction, a disqualification): R70
            _remove_playoffs(season, [battle], actor=actor, reason=STALE_PLAYOFF)
    for first, second in state.pending:
        if frozenset((first, second)) not in undecided:
            battle = _create_playoff(season, table.generals[first], table.generals[second])
            outcome.playoffs.append(battle)
            audit.record(season.event, actor, "playoff scheduled", audit.battle_subject(battle),
                         reason="Tied at the top after every tie-breaker (R24).")
    if state.winner is not None:
        _close(season, table.generals[state.winner], actor=actor)
        outcome.champion = season.champion
    elif season.state != Season.State.PLAYOFF:
        _move(season, Season.State.PLAYOFF, actor=actor, playoffs=[audit.battle_subject(b) for b in outcome.playoffs])
    return outcome


def _create_playoff(season, first, second):
    number = (season.battles.filter(playoff=True).aggregate(n=Max("number"))["n"] or 0) + 1
    return Battle.objects.create(event=season.event, season=season, playoff=True, round=1, number=number,
                                 general_a=first, general_b=second)


def _close(season, champion, *, actor):
    season.champion = champion
    _remove_playoffs(season, season.battles.filter(playoff=True, kind=""), actor=actor, reason=STALE_PLAYOFF)
    _move(season, Season.State.CLOSED, actor=actor, champion=champion.name if champion else None)
    # A report still open on a battle of the season can never be decided now: say so, keep it.
    Report.objects.filter(battle__season=season, status__in=Report.OPEN_STATUSES).update(
        status=Report.Status.SUPERSEDED, status_reason=f"{season.name} closed before this report was decided.",
        updated_at=timezone.now())
    event = season.event
    if not event.seasons.exclude(pk=season.pk).exclude(state=Season.State.CLOSED).exists():
        _set_league_state(event, Event.State.OFF_SEASON)


# --- hooks for the services ---------------------------------------------------------------------------

def after_result_changed(battle, *, actor=None):
    """Any path that records or corrects a result of a season's battle ends here."""
    if not battle.season_id:
        return None
    return settle(_locked(battle.season), actor=actor)


def after_disqualification(event, *, actor=None):
    season = event.current_season()
    return settle(_locked(season), actor=actor) if season is not None else None


def season_for_disqualification(event):
    """The season a league's disqualification belongs to: the one in play (closed ones never change)."""
    if event.kind != Event.Kind.LEAGUE:
        return None
    season = event.current_season()
    if season is None:
        raise Conflict(_("Every season of %(event)s is closed: a disqualification would change a closed "
                         "season. Open the next season first.") % {"event": event.name})
    return season


def refuse_report(battle):
    """A player's report is refused on a closed season's battle and on a decided playoff (R24)."""
    if battle.season_id:
        refuse_if_closed(battle.season, "be reported")
    if battle.playoff and battle.kind:
        raise Conflict(_(
                "This playoff battle is decided (%(outcome_text)s). \"%(PLAYOFF_RULE)s\": a Stalemate or "
                "Resolve gets its next playoff battle by itself; an organizer corrects a decided playoff "
                "with a reason.")
                       % {"outcome_text": battle.outcome_text(), "PLAYOFF_RULE": PLAYOFF_RULE})


def after_registered(event, general):
    """A member who registers while a season is open plays in it; a closing or closed one is untouched."""
    season = event.season_taking_battles() if event.kind == Event.Kind.LEAGUE else None
    if season is not None:
        SeasonMember.objects.get_or_create(season=season, general=general)


def before_withdrawal(event, general):
    """A withdrawal never rewrites a season: refused while the member has battles to play or the season
    decides its champion; a member who played stays in the season's table."""
    if event.kind != Event.Kind.LEAGUE:
        return
    season = event.current_season()
    if season is None or not season.memberships.filter(general=general).exists():
        return
    mine = season.battles.filter(Q(general_a=general) | Q(general_b=general))
    if season.state != Season.State.OPEN:
        raise Conflict(_("%(season)s is deciding its champion: %(general)s can withdraw once it is closed.")
                       % {"season": season.name, "general": general.name})
    if mine.filter(kind="").exists():
        raise Conflict(_("%(general)s has battles of %(season)s still to play: record or remove them "
                         "before the withdrawal.") % {"general": general.name, "season": season.name})
    if not mine.exists():
        season.memberships.filter(general=general).delete()


def check_pair_limit(season, general_a, general_b):
    """R111 as R89 counts: scheduled and decided regular battles of the pair; playoffs do not count."""
    limit = season.event.pair_battles_per_season
    met = season.battles.filter(playoff=False).filter(
        Q(general_a=general_a, general_b=general_b) | Q(general_a=general_b, general_b=general_a)).count()
    if met >= limit:
        raise Conflict(ngettext("%(general_a)s and %(general_b)s have %(met)s battle in %(season)s already; "
                                "%(event)s allows %(limit)s per pair in a season (R111).",
                                "%(general_a)s and %(general_b)s have %(met)s battles in %(season)s already; "
                                "%(event)s allows %(limit)s per pair in a season (R111).", met)
                       % {"general_a": general_a.name, "general_b": general_b.name, "met": met, "season": season.name,
                          "event": season.event.name, "limit": limit},
                       field="general_b")


# --- battles -----------------------------------------------------------------------------------------

@transaction.atomic
def schedule_battle(season, general_a, general_b, *, actor=None):
    """An organizer schedules a battle between two members (`actor=None`: the server's own use)."""
    _require_organizer(actor, season.event)
    return add_battle(season, general_a, general_b, actor=actor)


def add_battle(season, general_a, general_b, *, actor):
    """Adds a battle to the open season: for `schedule_battle` and for a battle the members arranged
    (tournaments.results.arranged), whose caller checked who may add it."""
    event = locks.event(season.event)
    season = _locked(season)
    if season.state != Season.State.OPEN:
        refuse_if_closed(season, "change")
        raise Conflict(_("%(season)s is closing and takes no new battles. %(waiting_for)s")
                       % {"season": season.name, "waiting_for": waiting_for(season)})
    if general_a.pk == general_b.pk:
        raise DomainError(_("A battle needs two different generals."), field="general_b")
    members = set(season.memberships.values_list("general_id", flat=True))
    active = set(event.active_registrations().values_list("general_id", flat=True))
    for general in (general_a, general_b):
        if general.pk not in members or general.pk not in active:
            raise DomainError(_("%(general)s is not a member of %(event)s in %(season)s.")
                              % {"general": general.name, "event": event.name, "season": season.name}, field="general")
        if event.disqualifications.filter(general=general).exists():
            raise Conflict(_("%(general)s is disqualified from %(event)s.")
                           % {"general": general.name, "event": event.name}, field="general")
    check_pair_limit(season, general_a, general_b)
    number = (season.battles.filter(playoff=False).aggregate(n=Max("number"))["n"] or 0) + 1
    battle = Battle.objects.create(event=event, season=season, round=1, number=number,
                                   general_a=general_a, general_b=general_b)
    audit.record(event, actor, "battle scheduled", audit.battle_subject(battle))
    return battle


@transaction.atomic
def remove_battle(battle, *, actor=None, reason=""):
    """An organizer removes a scheduled league battle nobody has reported or decided."""
    event = locks.event(battle.event)
    _require_organizer(actor, event)
    battle = Battle.objects.select_for_update(of=("self",)).select_related(
        "season", "general_a", "general_b").get(pk=battle.pk)
    if not battle.season_id:
        raise Conflict(_("A tournament battle follows its group's round robin and cannot be removed."))
    if battle.playoff:
        raise Conflict(_("A playoff battle is scheduled by the season itself (R24); it goes when the tie "
                         "changes."))
    season = _locked(battle.season)
    refuse_if_closed(season, "change")
    if battle.kind:
        raise Conflict(_("This battle has a result; an organizer corrects it with a reason instead."))
    if battle.reports.exists():
        raise Conflict(_("This battle has a report: confirm, dispute or override it instead of removing "
                         "the battle."))
    subject = audit.battle_subject(battle)
    battle.delete()
    audit.record(event, actor, "battle removed", subject, reason=reason.strip())
    return settle(season, actor=actor)


# --- what a season waits for -----------------------------------------------------------------------

def _names(generals):
    names = [g.name for g in generals]
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def waiting_for(season):
    """One sentence: what the season is doing and what it waits for."""
    if season.state == Season.State.OPEN:
        return (_("%(season)s is open: members report the battles they arrange (at most "
                   "%(pair_battles_per_season)s per pair, R111); the organizer closes it.")
                 % {"season": season.name, "pair_battles_per_season": season.event.pair_battles_per_season})
    if season.state == Season.State.CLOSING:
        count = season.battles.filter(playoff=False, kind="").count()
        return ngettext("%(season)s is closing: %(count)s scheduled battle still to record or remove before the "
                        "champion is decided.",
                        "%(season)s is closing: %(count)s scheduled battles still to record or remove before the "
                        "champion is decided.", count) % {"season": season.name, "count": count}
    if season.state == Season.State.PLAYOFF:
        pending = list(season.battles.filter(playoff=True, kind="").select_related("general_a", "general_b"))
        table = tables.season_standings(season)
        tied = [table.generals[key] for key in decide_champion(table.rows).tied]
        playing = {g.pk for b in pending for g in b.generals()}
        lost = {b.opponent_of(b.winner).pk for b in season.battles.filter(playoff=True).exclude(winner=None)
                .select_related("general_a", "general_b", "winner")}
        byes = [g for g in tied if g.pk not in playing and g.pk not in lost]
        params = {"season": season.name, "tied": _names(tied), "byes": _names(byes) if byes else "",
                  "battles": "; ".join(f"{b.general_a.name} v {b.general_b.name}" for b in pending)}
        if not byes:
            return ngettext("%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                            "(R24); %(battles)s decides next.",
                            "%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                            "(R24); %(battles)s decide next.", len(pending)) % params
        if len(byes) == 1:
            return ngettext("%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                            "(R24); %(battles)s decides next; %(byes)s has a bye to the next round (R70).",
                            "%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                            "(R24); %(battles)s decide next; %(byes)s has a bye to the next round (R70).",
                            len(pending)) % params
        return ngettext("%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                        "(R24); %(battles)s decides next; %(byes)s have byes to the next round (R70).",
                        "%(season)s is in its playoff: %(tied)s are tied at the top after every tie-breaker "
                        "(R24); %(battles)s decide next; %(byes)s have byes to the next round (R70).",
                        len(pending)) % params
    if season.champion_id:
        return (_("%(season)s is closed: %(champion)s is the champion.")
                % {"season": season.name, "champion": season.champion.name})
    if not season.battles.filter(playoff=False).exclude(kind=Battle.Kind.UNPLAYED_DQ).exclude(kind="").exists():
        return (_("%(season)s closed with no counted battle, so it has no champion (R112).")
                % {"season": season.name})
    return (_("%(season)s is closed with no champion: no member who played a counted battle could win "
              "(R23, R112).") % {"season": season.name})

