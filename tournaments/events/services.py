"""An event's steps, one transaction each: creation and its rules, registration, qualifying groups,
disqualification, and advancement (group winners, the Final Group, the Victor, R24).

Views, the API, management commands and the demo call these functions and the other packages'
services (`tournaments.results`, `tournaments.leagues`, `tournaments.events.membership`); none of
them writes models directly. A refused step raises `DomainError` (or `Conflict` when the event's state forbids
it) with a sentence for the user, and the transaction leaves nothing half-done. Each change is
written to the audit trail with its actor, the value before and the reason.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import game_systems
from pairings.top_cut import CUT_SIZES
from tournaments import audit, locks, trust
from tournaments.domain import (
    Conflict,
    DomainError,
    assign_random,
    assign_snake,
    check_partition,
    decide_champion,
    decide_place,
    next_playoff_pairings,
    possible_partitions,
    rating_order,
    round_robin,
    validate_manual,
)
from tournaments.events import embedding
from tournaments.leagues import seasons
from tournaments.models import (
    VARIANT_KEYS,
    Battle,
    Disqualification,
    Event,
    Group,
    GroupMember,
    Invitation,
    Registration,
    label_in_sentence,
)
from tournaments.ratings import queries as ratings
from tournaments.ratings.tasks import schedule_recompute
from tournaments.standings import tables
from tournaments.swiss import progress as swiss

GROUP_METHODS = ("random", "seeded", "rating", "manual")


# --- audit -------------------------------------------------------------------------------------


# --- events and rules ---------------------------------------------------------------------------

def validate_variants(variants, battalion_count):
    unknown = [v for v in variants if v not in VARIANT_KEYS]
    if unknown:
        raise DomainError(_("Unknown Rules Variant or Module %(unknown)r: choose from %(choices)s.")
                          % {"unknown": unknown[0], "choices": ", ".join(VARIANT_KEYS)}, field="variants")
    if len(set(variants)) != len(variants):
        raise DomainError(_("Each Rules Variant or Module can be elected once."), field="variants")
    if "army_recruiting" in variants:
        if battalion_count is None or battalion_count < 6:
            raise DomainError(_("With Army Recruiting every army has the same number of battalions, at "
                                "least 6: set the battalion count."), field="battalion_count")
    elif battalion_count is not None:
        raise DomainError(_("A battalion count applies only with Army Recruiting: elect it or leave the "
                            "count empty."), field="battalion_count")
    return sorted(variants, key=VARIANT_KEYS.index)


DEFAULT_CONFIRMATION_MINUTES = {Event.Kind.TOURNAMENT: 30, Event.Kind.LEAGUE: 3 * 24 * 60}


@transaction.atomic
def create_event(*, name, slug, kind=Event.Kind.TOURNAMENT, organizers=(), variants=(), battalion_count=None,
                 forfeit_award_opp=1, forfeit_counts_as_victory=True, forfeits_to_disqualify=2, actor=None,
                 confirmation_minutes=None, **details):
    """A new event; `actor` needs the organizer permission site staff grant (R77). `actor=None` is
    the server's own use (commands, the demo)."""
    if actor is not None:
        trust.require(trust.may_create_event(actor), trust.NOT_GRANTED)
    if Event.objects.filter(slug=slug).exists():
        raise DomainError(_("The address %(slug)r is taken by another event: choose another.")
                          % {"slug": slug}, field="slug")
    _check_pair_limit_setting(details.get("pair_battles_per_season"))
    check_board_setting(details)
    check_game_settings(kind, details)
    for field in ("board_width", "board_height"):
        if details.get(field) is None:
            details.pop(field, None)  # the page's empty field: 7
    event = Event.objects.create(
        name=name, slug=slug, kind=kind, variants=validate_variants(list(variants), battalion_count),
        battalion_count=battalion_count, forfeit_award_opp=forfeit_award_opp,
        forfeit_counts_as_victory=forfeit_counts_as_victory, forfeits_to_disqualify=forfeits_to_disqualify,
        confirmation_minutes=confirmation_minutes or DEFAULT_CONFIRMATION_MINUTES[kind], **details)
    organizers = list(organizers) or ([actor] if actor else [])
    event.organizers.set(organizers)
    owner = actor if actor is not None and actor in organizers else next(iter(organizers), None)
    if owner is not None:  # the creator owns the event; co-organizers cannot remove them
        event.owner = owner
        event.save(update_fields=["owner"])
    audit.record(event, actor, "event created", event.name, after=_rules_snapshot(event))
    return event


def _rules_snapshot(event):
    return {"variants": event.variants, "battalion_count": event.battalion_count,
            "forfeit_award_opp": event.forfeit_award_opp,
            "forfeit_counts_as_victory": event.forfeit_counts_as_victory,
            "forfeits_to_disqualify": event.forfeits_to_disqualify,
            "pair_battles_per_season": event.pair_battles_per_season,
            "board_width": event.board_width, "board_height": event.board_height, "rated": event.rated}


def check_board_setting(values):
    """An event fixes its battlefield (R109: each side 1-26 zones, 7 x 7 by default); a reported
    replay on another board is refused (R92)."""
    for field in ("board_width", "board_height"):
        value = values.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 26):
            raise DomainError(_("The board's %(dimension)s is 1 to 26 zones (7 by default).")
                              % {"dimension": _("width") if field == "board_width" else _("height")},
                              field=field)


def check_game_settings(kind, details):
    """The game, its format and the Swiss settings of a new event fit together; fills the game's
    default format when none is given."""
    try:
        system = game_systems.get(details.get("game") or game_systems.DEFAULT_GAME)
    except game_systems.UnknownGame as error:
        raise DomainError(str(error), field="game") from None
    details["game"] = system.slug
    details["format"] = details.get("format") or system.default_format
    if details["format"] not in system.formats:
        allowed = " or ".join(str(Event.Format(f).label) for f in system.formats)
        raise DomainError(_("%(short_name)s events are played in %(allowed)s.")
                          % {"short_name": system.short_name, "allowed": allowed}, field="format")
    if details["format"] == Event.Format.SWISS and kind != Event.Kind.TOURNAMENT:
        raise DomainError(_("Swiss rounds are for tournaments; a league schedules its battles by season."),
                          field="format")
    if details.get("top_cut") not in (None, 0, *CUT_SIZES):
        raise DomainError(_("A top cut is of 4, 8 or 16 players (or 0 for none)."), field="top_cut")
    rounds = details.get("swiss_rounds")
    if rounds is not None and not 1 <= rounds <= 20:
        raise DomainError(_("Swiss rounds: from 1 to 20 (empty: suggested from the field)."), field="swiss_rounds")
    if details.get("rated") and not system.adjudicated:
        raise DomainError(_("Ratings (R98) count WARLINE battles only."), field="rated")
    scoring = details.get("scoring")
    if scoring and (not isinstance(scoring, dict) or set(scoring) - {"win", "draw", "loss", "bye"} or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and -100 <= v <= 100 for v in scoring.values())):
        raise DomainError(_("Scoring gives points (from -100 to 100) for win, draw, loss and bye."), field="scoring")
    table_size = details.get("table_size") or 2
    if table_size not in system.table_sizes:
        sizes = " or ".join(str(size) for size in system.table_sizes)
        raise DomainError(_("%(short_name)s tables seat %(sizes)s players.")
                          % {"short_name": system.short_name, "sizes": sizes}, field="table_size")
    if table_size > 2 and details["format"] != Event.Format.SWISS:
        raise DomainError(_("Multiplayer tables are seated round by round: choose Swiss rounds."), field="table_size")
    points = details.get("placement_points")
    if points and (not isinstance(points, list) or not 1 <= len(points) <= 8 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and -100 <= v <= 100 for v in points)):
        raise DomainError(_("Placement points: a list of up to 8 numbers (from -100 to 100), first place "
                            "first."),
                          field="placement_points")
    breakers = details.get("tie_breakers")
    if breakers:
        allowed = [t.key for t in system.tie_breakers]
        if not isinstance(breakers, list) or any(b not in allowed for b in breakers) \
                or len(set(breakers)) != len(breakers):
            raise DomainError(_("%(short_name)s tie-breakers: choose from %(allowed)s, each once.")
                              % {"short_name": system.short_name, "allowed": ', '.join(allowed)},
                              field="tie_breakers")


def _check_pair_limit_setting(value):
    if value is not None and value < 1:
        raise DomainError(_("A pair of members may meet at least once a season (R111): set 1 or more."),
                          field="pair_battles_per_season")


@transaction.atomic
def change_rules(event, *, actor=None, reason="", **changes):
    """Variants, battalion count and the forfeit award are fixed for the whole event once it starts
    (seed: Organized Play; R22), and so is whether it is rated (R98: its players know before the
    first battle whether it moves their ratings)."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if event.has_started:
        raise Conflict(_("%(event)s has started: its Rules Variants and Modules, its forfeit award, its "
                         "battles per pair (R111) and whether it is rated (R98) cannot change any more "
                         "(all battles of an event use what was elected at the outset).")
                       % {"event": event.name})
    _check_pair_limit_setting(changes.get("pair_battles_per_season"))
    check_board_setting(changes)
    if changes.get("rated") and not event.game_system.adjudicated:
        raise DomainError(_("Ratings (R98) count WARLINE battles only."), field="rated")
    before = _rules_snapshot(event)
    allowed = set(before)
    unknown = set(changes) - allowed
    if unknown:
        raise DomainError(_("%(rule)r is not a rule of the event.") % {"rule": sorted(unknown)[0]})
    variants = changes.get("variants", event.variants)
    battalion_count = changes.get("battalion_count", event.battalion_count)
    changes["variants"] = validate_variants(list(variants), battalion_count)
    for field, value in changes.items():
        setattr(event, field, value)
    event.save()
    audit.record(event, actor, "rules changed", event.name, before=before, after=_rules_snapshot(event), reason=reason)
    return event


# What an organizer may change at any time, audited as "details changed" (the rules: `change_rules`).
DETAIL_FIELDS = ("name", "description", "venue", "starts_on", "ends_on", "time_zone", "published",
                 "approve_registrations", "embed_origins")


def event_details(event):
    """The event's details as `change_details` takes them."""
    return {field: getattr(event, field) for field in DETAIL_FIELDS}


@transaction.atomic
def change_details(event, *, actor, **details):
    """Presentation only (no rule changes): audited as "details changed" with before and after."""
    if "embed_origins" in details:  # the sites that may frame the standings widget, checked and tidied
        details["embed_origins"] = embedding.clean_origins(details["embed_origins"])
    event = locks.event(event)
    before = event_details(event)
    for field, value in details.items():
        if field in DETAIL_FIELDS:
            setattr(event, field, value)
    event.full_clean(exclude=[f.name for f in Event._meta.fields if f.name not in DETAIL_FIELDS])
    after = event_details(event)
    changed = [field for field in DETAIL_FIELDS if before[field] != after[field]]
    if changed:
        event.save()
        text = {field: str(value) if value is not None else None for field, value in before.items()}
        audit.record(event, actor, "details changed", event.name, before={f: text[f] for f in changed},
                     after={f: str(after[f]) if after[f] is not None else None for f in changed})
    if event.rated and {"published", "time_zone"} & set(changed):
        schedule_recompute()  # R98: only published events are rated, each battle in its week in the event's zone
    return event


# --- registration -----------------------------------------------------------------------------


def registration_refusal(event):
    """Why nobody can register for (or withdraw from) the event now, or None (R71, R78)."""
    if event.state == Event.State.REGISTRATION:
        return None
    if event.state == Event.State.REGISTRATION_CLOSED:
        return _("Registration for %(event)s is closed.") % {"event": event.name}
    if event.kind == Event.Kind.TOURNAMENT:
        return (_("Registration for %(event)s is closed: the Qualifying Stage has begun.")
                % {"event": event.name})
    if event.state == Event.State.COMPLETE:
        return _("%(event)s is complete.") % {"event": event.name}
    return None


def late_entry_allowed(event, actor):
    """Swiss: an organizer enters a latecomer between rounds; they start with no points and are
    paired from the next round on."""
    return (event.format == Event.Format.SWISS
            and event.state in (Event.State.REGISTRATION_CLOSED, Event.State.QUALIFYING)
            and (actor is None or trust.may_organize(actor, event)))


CONSENT = (gettext_lazy("{name} belongs to a player: only they enter it into an event, by registering "
                        "themselves or by accepting an invitation."))


def needs_approval(event, general, actor):
    """Whether a registration waits in the organizers' queue: the event asks for approval and the
    player enters themselves, uninvited (an organizer's invitation or registration is their approval)."""
    return (event.approve_registrations and actor is not None and general.user_id == actor.pk
            and not trust.may_organize(actor, event)
            and not event.invitations.filter(general=general, status=Invitation.Status.PENDING).exists())


@transaction.atomic
def register(event, general, *, actor=None, seed=None):
    """Enters a general: a claimed general only by its own player (their consent, R78); an
    unclaimed one by an organizer. `actor=None` is the server's own use, for unclaimed generals.
    Where the event asks for approval, a player's own entry waits as `pending` until an organizer
    approves or refuses it (`decide_registration`)."""
    event = locks.event(event)
    trust.require(trust.may_enter(actor, general), CONSENT.format(name=general.name))
    if general.user_id is None and actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
        trust.require(trust.may_register_unclaimed(actor, general, event),  # R96
                      trust.NOT_YOUR_WALK_IN.format(name=general.name))
    refusal = registration_refusal(event)
    if refusal and late_entry_allowed(event, actor):
        refusal = None
    if refusal:
        raise Conflict(refusal)
    existing = event.registrations.filter(general=general).first()
    if existing and existing.status == Registration.Status.ACTIVE:
        raise DomainError(_("%(general)s is already registered for %(event)s.")
                          % {"general": general.name, "event": event.name}, field="general")
    if event.disqualifications.filter(general=general).exists():
        raise Conflict(_("%(general)s was disqualified from %(event)s and cannot register again.")
                       % {"general": general.name, "event": event.name})
    pending = needs_approval(event, general, actor)
    if pending and existing and existing.status == Registration.Status.PENDING:
        raise Conflict(_("%(general)s's registration for %(event)s waits for the organizers' approval "
                         "already.") % {"general": general.name, "event": event.name})
    if pending and existing and existing.status == Registration.Status.REFUSED:
        raise Conflict(_("The organizers of %(event)s refused %(general)s's registration: "
                         "%(status_reason)s Ask them for an invitation if that has changed.")
                       % {"event": event.name, "general": general.name, "status_reason": existing.status_reason})
    status = Registration.Status.PENDING if pending else Registration.Status.ACTIVE
    number = _next_number(event)
    if existing:
        existing.status, existing.status_reason, existing.seed, existing.number = status, "", seed, number
        existing.save()
        registration = existing
    else:
        registration = Registration.objects.create(event=event, general=general, number=number, seed=seed,
                                                   status=status)
    if pending:
        audit.record(event, actor, "registration requested", general.name,
                     after={"status": Registration.Status.PENDING}, reason="Waits for an organizer's approval.")
        return registration
    _entered(event, general, registration, actor)
    return registration


def _next_number(event):
    return (event.registrations.aggregate(n=Max("number"))["n"] or 0) + 1


def _entered(event, general, registration, actor, reason=""):
    event.invitations.filter(general=general, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.ACCEPTED, answered_at=timezone.now())
    seasons.after_registered(event, general)
    audit.record(event, actor, "registered", general.name, after={"number": registration.number},
                 reason=reason or ("Registered by the player." if general.user_id and actor is not None else ""))


def awaiting_approval(event):
    """The organizers' queue: registrations waiting for approval, oldest first."""
    return event.registrations.filter(status=Registration.Status.PENDING).select_related("general")


@transaction.atomic
def decide_registration(event, general, *, actor, approve, reason=""):
    """An organizer approves a waiting registration (the general enters, numbered as registered now)
    or refuses it with a sentence the player reads on the event's page. A decision already taken, by
    this organizer or another at the same instant, is a conflict: the queue is re-read after the lock."""
    event = locks.event(event)
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    registration = event.registrations.filter(general=general).first()
    if registration is None or registration.status != Registration.Status.PENDING:
        now = label_in_sentence(registration.get_status_display()) if registration else _("not registered")
        raise Conflict(_("%(general)s's registration does not wait for approval (it is %(now)s).")
                       % {"general": general.name, "now": now})
    reason = " ".join(str(reason or "").split())
    if approve:
        refusal = registration_refusal(event)
        if refusal:
            raise Conflict(refusal)
        registration.status, registration.status_reason = Registration.Status.ACTIVE, ""
        registration.number = _next_number(event)
        registration.save()
        _entered(event, general, registration, actor, reason=reason or "Approved by an organizer.")
        return registration
    if not reason:
        raise DomainError(_("Say in a sentence why the registration is refused: the player reads it."),
                          field="reason")
    if len(reason) > 500:
        raise DomainError(_("The reason is at most 500 characters."), field="reason")
    registration.status, registration.status_reason = Registration.Status.REFUSED, reason
    registration.save()
    audit.record(event, actor, "registration refused", general.name, before={"status": "pending"},
                 after={"status": "refused"}, reason=reason)
    return registration


@transaction.atomic
def withdraw(event, general, *, actor=None, reason=""):
    """The player withdraws their general (or an organizer withdraws a registration) while
    registration is open."""
    event = locks.event(event)
    own = actor is not None and general.user_id is not None and general.user_id == actor.pk
    trust.require(actor is None or own or trust.may_organize(actor, event),
                  _("Only %(general)s's player or an organizer of %(event)s may withdraw them.")
                  % {"general": general.name, "event": event.name})
    refusal = registration_refusal(event)
    if refusal:
        if event.kind == Event.Kind.TOURNAMENT and event.has_started:
            refusal = (_("%(general)s is in a group of %(event)s already: record forfeits or a "
                          "disqualification instead of a withdrawal.")
                        % {"general": general.name, "event": event.name})
        raise Conflict(refusal)
    registration = event.registrations.filter(
        general=general, status__in=(Registration.Status.ACTIVE, Registration.Status.PENDING)).first()
    if registration is None:
        raise DomainError(_("%(general)s is not registered for %(event)s.")
                          % {"general": general.name, "event": event.name}, field="general")
    was = registration.status
    if was == Registration.Status.ACTIVE:
        seasons.before_withdrawal(event, general)
    registration.status, registration.status_reason = Registration.Status.WITHDRAWN, reason
    registration.save()
    audit.record(event, actor, "withdrawn", general.name, before={"status": was},
                 after={"status": "withdrawn"}, reason=reason or ("Withdrawn by the player." if own else ""))


ODD_RULE_REASON_START = "Registered last while the field was odd"


def odd_registration_warning(event):
    """What closing registration now would do, for the organizer's page (seed: Qualifying Stage)."""
    active = list(event.active_registrations())
    if len(active) % 2 == 0:
        return None
    last = active[-1]
    return (_("%(count)s generals are registered, an odd number: when registration closes, %(general)s "
              "(registered last) is eliminated unless another general registers.")
            % {"count": len(active), "general": last.general.name})


@transaction.atomic
def close_registration(event, *, actor=None):
    """Closes registration (the state moves on, R78) and applies the odd-number rule (R71); returns
    the eliminated registration or None."""
    event = locks.event(event)
    if actor is not None:  # None: the server's own use (commands, the demo)
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if event.state != Event.State.REGISTRATION:
        raise Conflict(_("Registration for %(event)s is closed already.") % {"event": event.name})
    waiting = awaiting_approval(event).count()
    if waiting:
        raise Conflict(ngettext("%(count)s registration waits for your approval: approve or refuse them before "
                                "closing registration, so no player is left without an answer.",
                                "%(count)s registrations wait for your approval: approve or refuse them before "
                                "closing registration, so no player is left without an answer.", waiting)
                       % {"count": waiting})
    event.state = Event.State.REGISTRATION_CLOSED
    event.save()
    active = list(event.active_registrations())
    audit.record(event, actor, "registration closed", event.name, after={"registered": len(active)})
    if len(active) % 2 == 0 or event.format == Event.Format.SWISS:  # Swiss: an odd field has a bye
        return None
    last = active[-1]
    last.status = Registration.Status.ELIMINATED
    last.status_reason = (f"{ODD_RULE_REASON_START} ({len(active)} generals) and no other general registered "
                          "(Organized Play: the last registrant must find another participant).")
    last.save()
    audit.record(event, actor, "eliminated", last.general.name, before={"status": "active"},
                 after={"status": "eliminated"}, reason=last.status_reason)
    return last


# --- qualifying groups ----------------------------------------------------------------------

@dataclass(frozen=True)
class GroupPlan:
    group_count: int
    group_size: int
    method: str
    seed: int | None
    groups: list  # list of lists of General, in group order
    seed_ratings: dict | None = None  # method "rating": general key -> (seed, rating or None)


def plan_groups(event, group_count, method="random", *, seed=None, manual=None):
    """The groups that `form_groups` would create, without saving anything (the preview)."""
    if event.state not in (Event.State.REGISTRATION, Event.State.REGISTRATION_CLOSED):
        raise Conflict(_("The groups of %(event)s are formed already.") % {"event": event.name})
    if method not in GROUP_METHODS:
        raise DomainError(_("Group assignment is one of %(methods)s, not %(method)r.")
                          % {"methods": ", ".join(GROUP_METHODS), "method": method},
                          field="method")
    registrations = list(event.active_registrations())
    if len(registrations) % 2:
        raise DomainError(_("%(odd_registration_warning)s Close registration or register one more general "
                            "before forming groups.")
                          % {"odd_registration_warning": odd_registration_warning(event)})
    generals = {r.general.key: r.general for r in registrations}
    size = check_partition(len(registrations), int(group_count))
    if method == "random":
        seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**9)
        keys = assign_random([r.general.key for r in registrations], group_count, seed)
    elif method == "seeded":
        unseeded = [r.general.name for r in registrations if r.seed is None]
        if unseeded:
            raise DomainError(_("Seeded assignment needs a seed for every general; missing for "
                                "%(unseeded)s.") % {"unseeded": ', '.join(unseeded)}, field="method")
        ordered = sorted(registrations, key=lambda r: (r.seed, r.number))
        keys = assign_snake([r.general.key for r in ordered], group_count)
        seed = None
    elif method == "rating":
        current = ratings.ratings_for([r.general_id for r in registrations])
        rating = {r.general.key: current[r.general_id].rating if current.get(r.general_id) else None
                  for r in registrations}  # in registration order, as `rating_order` takes it
        ordered = rating_order(list(rating.items()))
        keys = assign_snake(ordered, group_count)
        seed_ratings = {key: (position, rating[key]) for position, key in enumerate(ordered, start=1)}
        seed = None
    else:
        if manual is None:
            raise DomainError(_("Manual assignment needs the generals of every group."), field="manual")
        keys = [[str(getattr(g, "pk", g)) for g in group] for group in manual]
        unknown = [k for group in keys for k in group if k not in generals]
        if unknown:
            raise DomainError(_("General %(unknown)s is not registered for %(event)s.")
                              % {"unknown": unknown[0], "event": event.name}, field="manual")
        validate_manual(list(generals), keys)
        seed = None
    return GroupPlan(group_count=int(group_count), group_size=size, method=method, seed=seed,
                     groups=[[generals[k] for k in group] for group in keys],
                     seed_ratings=seed_ratings if method == "rating" else None)


def group_name(index):
    return f"Group {chr(ord('A') + index)}" if index < 26 else f"Group {index + 1}"


def _create_round_robin_group(event, stage, index, name, generals):
    group = Group.objects.create(event=event, stage=stage, index=index, name=name)
    GroupMember.objects.bulk_create(
        GroupMember(group=group, general=g, position=i + 1) for i, g in enumerate(generals))
    by_key = {g.key: g for g in generals}
    Battle.objects.bulk_create(
        Battle(event=event, group=group, round=p.round, number=p.number,
               general_a=by_key[p.first], general_b=by_key[p.second])
        for p in round_robin([g.key for g in generals]))
    return group


@transaction.atomic
def form_groups(event, group_count, method="random", *, seed=None, manual=None, actor=None):
    """Creates the qualifying groups with their round-robin schedules and starts the Qualifying Stage."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    plan = plan_groups(event, group_count, method, seed=seed, manual=manual)
    for index, generals in enumerate(plan.groups):
        _create_round_robin_group(event, Group.Stage.QUALIFYING, index, group_name(index), generals)
    event.state, event.group_seed, event.group_method = Event.State.QUALIFYING, plan.seed, plan.method
    event.save()
    seeding = None
    if plan.seed_ratings:  # the seeds and ratings used, kept: ratings move on, the groups' reason stays readable
        for registration in event.active_registrations():
            registration.seed, registration.seed_rating = plan.seed_ratings[registration.general.key]
            registration.save(update_fields=["seed", "seed_rating"])
        names = {g.key: g.name for group in plan.groups for g in group}
        seeding = [[names[key], round(rating) if rating is not None else None]
                   for key, (_, rating) in sorted(plan.seed_ratings.items(), key=lambda item: item[1][0])]
    audit.record(event, actor, "groups formed", f"{plan.group_count} groups of {plan.group_size}",
                 after={"method": plan.method, "seed": plan.seed,
                        "groups": [[g.name for g in group] for group in plan.groups],
                        **({"seeding": seeding} if seeding else {})})
    return event


def partition_choices(event):
    count = event.active_registrations().count()
    return count, possible_partitions(count)


# --- a battle's generals -------------------------------------------------------------------------


def battle_general(battle, general_or_id, field):
    """The battle's general that `general_or_id` names (a General or its id), or a DomainError on `field`."""
    if general_or_id is None:
        return None
    pk = getattr(general_or_id, "pk", general_or_id)
    for general in battle.generals():
        if str(general.pk) == str(pk):
            return general
    raise DomainError(_("The %(replace)s must be %(general_a)s or %(general_b)s.")
                      % {"replace": field.replace('_', ' '), "general_a": battle.general_a.name, "general_b": battle.general_b.name},
                      field=field)


# --- disqualification ---------------------------------------------------------------------------

@transaction.atomic
def disqualify(event, general, *, reason, details="", actor=None):
    """R23: played battles stand; every battle still scheduled is not fought and gives the opponent 1 OPP.
    The general keeps a place in the standings, marked, and cannot advance or win."""
    event = locks.event(event)
    if actor is not None:
        trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if reason not in Disqualification.Reason.values:
        raise DomainError(_("A disqualification reason is one of %(values)s.")
                          % {"values": ', '.join(Disqualification.Reason.values)},
                          field="reason")
    if reason == Disqualification.Reason.OTHER and not details.strip():
        raise DomainError(_("Say why the general is disqualified."), field="details")
    registration = event.registrations.filter(general=general).first()
    if registration is None or registration.status == Registration.Status.WITHDRAWN:
        raise DomainError(_("%(general)s is not a participant of %(event)s.")
                          % {"general": general.name, "event": event.name}, field="general")
    if registration.status == Registration.Status.ELIMINATED:
        raise Conflict(_("%(general)s is eliminated from %(event)s already: only a general still in the "
                         "event can be disqualified.") % {"general": general.name, "event": event.name})
    if reason == Disqualification.Reason.FORFEITS:
        forfeits = event.battles.filter(kind=Battle.Kind.FORFEIT, forfeited_by=general).count()
        limit = event.forfeits_to_disqualify or 1
        if forfeits < limit:
            raise DomainError(_("%(general)s has %(forfeits)s forfeit(s) on record in %(event)s; the limit "
                                "is %(limit)s: choose another reason or record the forfeits first (R68).")
                              % {"general": general.name, "forfeits": forfeits, "event": event.name, "limit": limit},
                              field="reason")
    if event.disqualifications.filter(general=general).exists():
        raise Conflict(_("%(general)s is disqualified from %(event)s already.")
                       % {"general": general.name, "event": event.name})
    if event.state == Event.State.COMPLETE:
        raise Conflict(_("%(event)s is complete: nobody can be disqualified any more.")
                       % {"event": event.name})
    season = seasons.season_for_disqualification(event)  # R88: dated by its season
    Disqualification.objects.create(event=event, general=general, reason=reason, details=details, season=season,
                                    decided_by=actor if getattr(actor, "pk", None) else None)
    unplayed = event.battles.filter(kind="").filter(Q(general_a=general) | Q(general_b=general))
    unplayed_regular = list(unplayed.filter(playoff=False))
    for battle in unplayed_regular:
        battle.kind, battle.forfeited_by, battle.decided_at = Battle.Kind.UNPLAYED_DQ, general, timezone.now()
        battle.save()
    # R70: a pending playoff with a disqualified general is moot: the tie is recomputed without them.
    unplayed.filter(playoff=True).delete()
    with translation.override(None):  # the audit trail keeps the reason's English label
        label = str(dict(Disqualification.Reason.choices)[reason])
    audit.record(event, actor, "disqualified", general.name, after={"reason": label, "unplayed_battles":
                                                             len(unplayed_regular)},
                 reason=details or label)
    advance(event, actor=actor)
    seasons.after_disqualification(event, actor=actor)


@transaction.atomic
def disqualify_for_refused_respect(battle, general, *, actor=None):
    """Seed, General Respect: a general who refuses it is immediately disqualified."""
    general = battle_general(battle, general, "general")
    disqualify(battle.event, general, reason=Disqualification.Reason.RESPECT,
               details=f"Refused General Respect before {audit.battle_subject(battle)}.", actor=actor)


# --- standings ----------------------------------------------------------------------------------


# --- advancement and playoffs ---------------------------------------------------------------------

def _settle(event, table, battles_qs, create_playoff, *, actor, crowns=False):
    """Who takes first place of a finished round robin: decided at once, or after playoffs (R24).
    Returns the winning General, or None while playoffs are pending (or nobody is eligible).
    `crowns`: the place names the Victor, who needs a counted battle (R112)."""
    decision = decide_champion(table.rows, tables.counted_in_event(event)) if crowns else decide_place(table.rows, 1)
    if decision.decided is not None:
        return table.generals[decision.decided]
    if not decision.tied:
        return None
    playoffs = [(battle, tables.battle_result(battle)) for battle in battles_qs.filter(playoff=True)]
    tied = set(decision.tied)
    fought = [result for battle, result in playoffs if battle.kind and {result.a, result.b} <= tied]
    state = next_playoff_pairings(list(decision.tied), fought)
    undecided = {frozenset((result.a, result.b)): battle for battle, result in playoffs if not battle.kind}
    wanted = {frozenset(p) for p in state.pending}
    for pairing, battle in undecided.items():
        if pairing not in wanted:
            battle.delete()
    for first, second in state.pending:
        if frozenset((first, second)) not in undecided:
            create_playoff(table.generals[first], table.generals[second])
            audit.record(event, actor, "playoff scheduled", f"{table.generals[first].name} v "
                         f"{table.generals[second].name}",
                         reason="Tied after every tie-breaker at the place that matters (R24).")
    return table.generals[state.winner] if state.winner else None


def _playoff_creator(event, *, group=None, season=None):
    def create(first, second):
        existing = Battle.objects.filter(event=event, group=group, season=season, playoff=True)
        number = (existing.aggregate(n=Max("number"))["n"] or 0) + 1
        Battle.objects.create(event=event, group=group, season=season, playoff=True, round=1, number=number,
                              general_a=first, general_b=second)
    return create


def _finished(battles_qs):
    return not battles_qs.filter(playoff=False, kind="").exists()


def advance(event, *, actor=None):
    """Moves the event on as far as its results allow: group winners, the Final Group, the Victor (for
    Swiss events: the top cut's rounds and its winner, tournaments.swiss)."""
    if event.format == Event.Format.SWISS:
        if event.has_started:
            swiss.advance(event, actor=actor)
        return
    if event.kind != Event.Kind.TOURNAMENT or not event.has_started or event.state == Event.State.COMPLETE:
        return
    qualifying = list(event.groups.filter(stage=Group.Stage.QUALIFYING))
    final = event.groups.filter(stage=Group.Stage.FINAL).first()
    if final is None:
        for group in qualifying:
            if group.winner_id or not _finished(group.battles.all()):
                continue
            winner = _settle(event, tables.group_standings(group), group.battles.all(),
                             _playoff_creator(event, group=group), actor=actor)
            if winner is not None:
                group.winner = winner
                group.save()
                audit.record(event, actor, "advanced", winner.name, reason=f"Top of {group.name}.")
        if any(g.winner_id is None for g in qualifying):
            return
        winners = [g.winner for g in qualifying]
        final = _create_round_robin_group(event, Group.Stage.FINAL, 0, "Final Group", winners)
        event.state = Event.State.FINAL
        event.save()
        audit.record(event, actor, "final group formed", final.name, after={"generals": [g.name for g in winners]})
    if not _finished(final.battles.all()):
        return
    victor = _settle(event, tables.group_standings(final), final.battles.all(), _playoff_creator(event, group=final),
                     actor=actor, crowns=True)
    if victor is None and not decide_champion(tables.group_standings(final).rows, tables.counted_in_event(event)).tied:
        # R112: nobody eligible has a counted battle (or everybody is disqualified): no Victor.
        event.state = Event.State.COMPLETE
        event.save()
        audit.record(event, actor, "complete without victor", event.name,
                     reason="No general who may win has a counted battle (R23, R112).")
        return
    if victor is None:
        waiting_for_playoff = final.battles.filter(playoff=True, kind="").exists()
        event.state = Event.State.PLAYOFF if waiting_for_playoff else Event.State.FINAL
        event.save()
        return
    final.winner = victor
    final.save()
    event.victor, event.state = victor, Event.State.COMPLETE
    event.save()
    audit.record(event, actor, "victor crowned", victor.name)


# --- leagues: the steps live in tournaments.leagues.seasons ---------------------------------------------------


