"""A player's list, version by version (`ListVersion`): submit, replace, withdraw, accept despite
violations; the organizer's pool (card pool or model list CSV) and list rules.

Every version is kept with its time and the text exactly as submitted; the newest is the player's
list. Each step takes the event's lock first (tournaments/locks.py), re-reads the state after it, and
writes its audit entry, so two submissions at once get consecutive versions, never a lost one.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game_systems.base import PoolRejected, UnusableInput
from game_systems.cli import MAX_INPUT_BYTES, parse_json
from tournaments import audit, locks, trust
from tournaments.domain import Conflict, DomainError
from tournaments.models import Event, ListVersion, Registration

MAX_LIST_BYTES = 200_000  # a deck of every card in the pool is a few tens of kilobytes

LIST_HOLDERS = (Registration.Status.ACTIVE, Registration.Status.PENDING)


def checker_of(event):
    """The event's game's list checker, or a refusal when the game has no lists."""
    checker = event.game_system.list_checker
    if checker is None:
        raise DomainError(_("%(game_system)s has no deck or army lists.")
                          % {"game_system": event.game_system.name}, field="game")
    return checker


def parsed_options(event, raw=None, *, has_pool=None):
    """The event's list options (or `raw` ones about to be set) as its game's checker reads them."""
    checker = checker_of(event)
    has_pool = bool(event.list_pool) if has_pool is None else has_pool
    try:
        return checker.parse_options(event.list_options if raw is None else raw, has_pool=has_pool)
    except UnusableInput as error:
        raise DomainError(str(error), field="list_options") from None


def parsed_pool(event, options=None):
    """The event's pool as its checker reads it with its options (None without one). A stored pool was
    checked when it was uploaded, so it parses."""
    if not event.list_pool:
        return None
    return checker_of(event).parse_pool(event.list_pool, options=options or parsed_options(event))


def check_list_text(event, text):
    """(content, violations as dicts) of a list given as JSON text, checked against the event's pool
    and options; a DomainError (400) when it cannot be read at all."""
    if len(text.encode()) > MAX_LIST_BYTES:
        raise DomainError(_("The list is larger than %(value)s kB; a list is a few kilobytes.")
                          % {"value": MAX_LIST_BYTES // 1000},
                          field="list")
    checker = checker_of(event)
    options = parsed_options(event)
    pool = parsed_pool(event, options)
    try:
        content = parse_json(text, "list")
        violations = checker.check(content, pool=pool, options=options)
    except UnusableInput as error:
        raise DomainError(str(error), field="list") from None
    return content, [violation.as_dict() for violation in violations]


def current(registration):
    """The player's list now: the newest version (a withdrawal included), or None."""
    return registration.list_versions.order_by("-version").first()


def lock_reason(event, now=None):
    """Why lists cannot change now, or None: the deadline passed or registration closed."""
    now = now or timezone.now()
    if event.state != Event.State.REGISTRATION:
        return _("Lists for %(event)s are locked: registration has closed.") % {"event": event.name}
    if event.list_deadline and now >= event.list_deadline:
        return _("Lists for %(event)s are locked: the deadline has passed.") % {"event": event.name}
    return None


def _registration(event, general):
    registration = event.registrations.filter(general=general, status__in=LIST_HOLDERS).first()
    if registration is None:
        raise DomainError(_("%(general)s is not registered for %(event)s.")
                          % {"general": general.name, "event": event.name}, field="general")
    return registration


def _changeable(event, general, user, verb):
    """(the event read under its lock, the general's registration) when `user` may change the list now:
    its player before the lists lock, or an organizer at any time."""
    event = locks.event(event)
    trust.require(trust.may_submit_list(user, event, general),
                  _("Only the player of this general and the event's organizers may %(verb)s its list.")
                  % {"verb": verb})
    registration = _registration(event, general)
    refusal = lock_reason(event)
    if refusal and not trust.may_organize(user, event):
        raise Conflict(refusal)
    return event, registration


def _new_version(registration, user, **fields):
    number = (registration.list_versions.aggregate(n=Max("version"))["n"] or 0) + 1
    try:
        with transaction.atomic():
            return ListVersion.objects.create(registration=registration, version=number, submitted_by=user,
                                              **fields)
    except IntegrityError as error:  # only without the event lock (SQLite tests): two at once
        raise Conflict(locks.LOST_RACE) from error


def _summary(version):
    return {"version": version.version, "status": version.status,
            "violations": [v["code"] for v in version.violations]}


@transaction.atomic
def submit(event, general, *, user, text):
    """The player (or an organizer) submits or replaces the general's list; it is checked at once and
    kept with its violations, whatever they are. Returns the new version."""
    event, registration = _changeable(event, general, user, "submit")
    content, violations = check_list_text(event, text)
    version = _new_version(registration, user, text=text, content=content, violations=violations)
    audit.record(event, user, "list submitted", general.name, after=_summary(version))
    return version


@transaction.atomic
def withdraw(event, general, *, user):
    """The player withdraws their list (a version with no content); they may submit another before
    the lists lock."""
    event, registration = _changeable(event, general, user, "withdraw")
    latest = current(registration)
    if latest is None or latest.withdrawn:
        raise Conflict(_("%(general)s has no list to withdraw.") % {"general": general.name})
    version = _new_version(registration, user, content=None)
    audit.record(event, user, "list withdrawn", general.name, before=_summary(latest))
    return version


@transaction.atomic
def accept(event, general, *, user, version, reason):
    """An organizer accepts the general's current list despite its violations, with a reason (the
    specs' manual acceptance, e.g. a card whose own text lifts the copy limit)."""
    event = locks.event(event)
    trust.require(trust.may_organize(user, event), trust.NOT_ORGANIZER)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(_("Say why the list is accepted despite its violations; the players may read it."),
                          field="reason")
    registration = _registration(event, general)
    latest = current(registration)
    if latest is None or latest.version != version:
        raise Conflict(_("Version %(version)s is not %(general)s's current list (the player may have "
                         "replaced it): read the list again.")
                       % {"version": version, "general": general.name})
    if latest.withdrawn or not latest.violations:
        raise Conflict(_("%(general)s's list has no violations to accept.") % {"general": general.name})
    latest.accepted_by, latest.accepted_reason, latest.accepted_at = user, reason, timezone.now()
    latest.save(update_fields=["accepted_by", "accepted_reason", "accepted_at"])
    audit.record(event, user, "list accepted", general.name, after=_summary(latest), reason=reason)
    return latest


def recheck(event):
    """Every current list checked again against the event's pool and options (after either changed).
    The list stays as submitted; its violations are renewed, and an acceptance stands only while the
    violations it accepted are the same."""
    checker = checker_of(event)
    options = parsed_options(event)
    pool = parsed_pool(event, options)
    for registration in event.registrations.filter(status__in=LIST_HOLDERS):
        latest = current(registration)
        if latest is None or latest.withdrawn:
            continue
        try:
            violations = [v.as_dict() for v in checker.check(latest.content, pool=pool, options=options)]
        except UnusableInput:
            continue  # it was readable when submitted; the reading rules did not change
        if violations != latest.violations:
            latest.violations = violations
            latest.accepted_by, latest.accepted_reason, latest.accepted_at = None, "", None
            latest.save(update_fields=["violations", "accepted_by", "accepted_reason", "accepted_at"])


@transaction.atomic
def set_pool(event, *, user, csv_text):
    """An organizer uploads the card pool or model list; every row error is returned (and nothing
    kept) when any row is wrong. Current lists are checked again against the new pool."""
    event = locks.event(event)
    trust.require(trust.may_organize(user, event), trust.NOT_ORGANIZER)
    checker = checker_of(event)
    if len(csv_text.encode()) > MAX_INPUT_BYTES:
        raise DomainError(_("The %(pool_label)s is larger than %(value)s MB.")
                          % {"pool_label": checker.pool_label, "value": MAX_INPUT_BYTES // 1000000},
                          field="pool")
    if event.state not in (Event.State.REGISTRATION, Event.State.REGISTRATION_CLOSED):
        raise Conflict(_("%(event)s has started: its %(pool_label)s is fixed.")
                       % {"event": event.name, "pool_label": checker.pool_label})
    if "\x00" in csv_text:
        raise DomainError(_("The %(pool_label)s holds a NUL character; save it again as plain text.")
                          % {"pool_label": checker.pool_label},
                          field="pool")
    options = parsed_options(event, event.list_options, has_pool=bool(csv_text.strip()))
    try:
        pool = checker.parse_pool(csv_text, options=options) if csv_text.strip() else None
    except PoolRejected as rejected:
        count = len(rejected.errors)
        error = DomainError(ngettext("The %(pool_label)s was not saved: %(count)s row has errors.",
                                     "The %(pool_label)s was not saved: %(count)s rows have errors.", count)
                            % {"pool_label": checker.pool_label, "count": count}, field="pool")
        error.extra = {"rows": [e.as_dict() for e in rejected.errors]}
        raise error from None
    before = len(event.list_pool.splitlines())
    event.list_pool = csv_text if pool is not None else ""
    event.save(update_fields=["list_pool", "updated_at"])
    recheck(event)
    audit.record(event, user, f"{checker.pool_label} uploaded", event.name,
                 before={"lines": before}, after={"lines": len(event.list_pool.splitlines())})
    return pool


@transaction.atomic
def set_rules(event, *, user, deadline=None, visibility=None, public_from=None, options=None):
    """An organizer sets when lists lock, who sees them and the game's list options."""
    event = locks.event(event)
    trust.require(trust.may_organize(user, event), trust.NOT_ORGANIZER)
    checker_of(event)
    before = _rules_snapshot(event)
    if options is not None:
        if not isinstance(options, dict):
            raise DomainError(_("The list options must be an object of option names and values."),
                              field="list_options")
        if event.has_started and options != event.list_options:
            raise Conflict(_("%(event)s has started: its list options are fixed.") % {"event": event.name})
        parsed = parsed_options(event, options)
        if event.list_pool:  # the pool must still read with them (e.g. an alias removed)
            try:
                checker_of(event).parse_pool(event.list_pool, options=parsed)
            except PoolRejected as rejected:
                raise DomainError(_("With these options the %(pool_label)s no longer reads: %(rejected)s")
                                  % {"pool_label": checker_of(event).pool_label, "rejected": rejected}, field="list_options") from None
        event.list_options = options
    if visibility is not None:
        if visibility not in Event.ListVisibility.values:
            raise DomainError(_("Lists are open or closed."), field="list_visibility")
        event.list_visibility = visibility
    event.list_deadline = deadline
    event.lists_public_from = public_from
    event.save()
    if options is not None:
        recheck(event)
    audit.record(event, user, "list rules changed", event.name, before=before, after=_rules_snapshot(event))
    return event


def _rules_snapshot(event):
    return {"deadline": event.list_deadline.isoformat() if event.list_deadline else None,
            "visibility": event.list_visibility,
            "public_from": event.lists_public_from.isoformat() if event.lists_public_from else None,
            "options": event.list_options}


def lists_public(event, now=None):
    """Open lists are public from their date, or once they lock when none is set."""
    if event.list_visibility != Event.ListVisibility.OPEN:
        return False
    now = now or timezone.now()
    if event.lists_public_from:
        return now >= event.lists_public_from
    return lock_reason(event, now) is not None


def may_see_list(user, event, registration, now=None):
    return (trust.may_organize(user, event) or lists_public(event, now)
            or (registration.general.user_id is not None and registration.general.user_id == getattr(user, "pk", None)))


def event_lists(event):
    """(registration, current version or None) for every registered player, in registration order."""
    registrations = list(event.registrations.filter(status__in=LIST_HOLDERS).select_related("general"))
    latest = {}
    for version in ListVersion.objects.filter(registration__in=registrations).order_by("registration", "-version"):
        latest.setdefault(version.registration_id, version)
    return [(registration, latest.get(registration.pk)) for registration in registrations]
