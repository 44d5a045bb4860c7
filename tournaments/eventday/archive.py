"""A whole event as one JSON document, and the import that recreates it on another instance.

The archive names its records by references local to the archive ("g1" for a general, "A" style
references for groups and seasons), never by database ids, so it imports anywhere. Each record is
written over an explicit field list below: a new model field that belongs in the archive is one more
name in one tuple. User accounts, passwords, reports and replays never go in; generals carry their
name and external id only, and the audit trail keeps what happened without who (a user account).

The import creates a new event in one transaction: a malformed file raises `ArchiveError` naming
where it is wrong, and leaves nothing written.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, transaction
from django.utils import timezone

from tournaments.domain import DomainError
from tournaments.events.services import check_board_setting, validate_variants
from tournaments.models import (
    AuditEntry,
    Battle,
    Disqualification,
    Event,
    General,
    Group,
    GroupMember,
    Registration,
    Season,
)

FORMAT = "warline-opp-event-archive"
VERSION = 1

# Plain fields per record, copied as they are (dates and times as ISO 8601 text).
EVENT_FIELDS = ("name", "kind", "variants", "battalion_count", "forfeit_award_opp", "forfeit_counts_as_victory",
                "forfeits_to_disqualify", "state", "group_seed", "group_method", "published", "starts_on", "venue")
# Added later: written always, read when present (older archives have none of them).
EVENT_OPTIONAL_FIELDS = ("ends_on", "description", "time_zone", "board_width", "board_height")
GENERAL_FIELDS = ("name", "external_id")
REGISTRATION_FIELDS = ("number", "seed", "status", "status_reason", "registered_at")
SEASON_FIELDS = ("number", "name", "state")
GROUP_FIELDS = ("stage", "index", "name")
MEMBER_FIELDS = ("position",)
BATTLE_FIELDS = ("round", "number", "playoff", "kind", "condition", "respect_shown", "decided_at")
DISQUALIFICATION_FIELDS = ("reason", "details", "decided_at")
AUDIT_FIELDS = ("at", "action", "subject", "before", "after", "reason")

# Fields naming a general, per record.
EVENT_GENERAL_FIELDS = ("victor",)
SEASON_GENERAL_FIELDS = ("champion",)
GROUP_GENERAL_FIELDS = ("winner",)
BATTLE_GENERAL_FIELDS = ("general_a", "general_b", "winner", "forfeited_by", "player_1")

# Fields the database fills on creation (auto_now_add): set again after the import creates the row.
STAMPED_FIELDS = {Registration: ("registered_at",), Disqualification: ("decided_at",), AuditEntry: ("at",)}


class ArchiveError(ValueError):
    """An archive that cannot be imported, with where and what is wrong."""


# --- export -------------------------------------------------------------------------------------

def _plain(value):
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _fields(obj, names):
    return {name: _plain(getattr(obj, name)) for name in names}


def _general_refs(event):
    """Every general the event names, in registration order then by id: {pk: "g1", …}."""
    ids = list(event.registrations.order_by("number").values_list("general_id", flat=True))
    others = set()
    for battle in event.battles.values_list(*(f"{name}_id" for name in BATTLE_GENERAL_FIELDS)):
        others.update(pk for pk in battle if pk)
    others.update(event.disqualifications.values_list("general_id", flat=True))
    others.update(GroupMember.objects.filter(group__event=event).values_list("general_id", flat=True))
    for pk in (event.victor_id, *event.groups.values_list("winner_id", flat=True),
               *event.seasons.values_list("champion_id", flat=True)):
        if pk:
            others.add(pk)
    ids += sorted(others - set(ids))
    return {pk: f"g{index}" for index, pk in enumerate(ids, start=1)}


def _ref(refs, pk):
    return refs[pk] if pk else None


def group_ref(group):
    return f"{group.stage}-{group.index}"


def season_ref(season):
    return f"season-{season.number}"


def build_archive(event):
    """The event as a JSON-ready dict (see the module's docstring)."""
    refs = _general_refs(event)
    generals = General.objects.in_bulk(list(refs))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {"slug": event.slug, **_fields(event, EVENT_FIELDS), **_fields(event, EVENT_OPTIONAL_FIELDS),
                  "victor": _ref(refs, event.victor_id)},
        "generals": [{"ref": ref, **_fields(generals[pk], GENERAL_FIELDS)} for pk, ref in refs.items()],
        "registrations": [{"general": refs[r.general_id], **_fields(r, REGISTRATION_FIELDS)}
                          for r in event.registrations.order_by("number")],
        "seasons": [{"ref": season_ref(s), **_fields(s, SEASON_FIELDS), "champion": _ref(refs, s.champion_id)}
                    for s in event.seasons.order_by("number")],
        "groups": [{"ref": group_ref(g), **_fields(g, GROUP_FIELDS), "winner": _ref(refs, g.winner_id),
                    "members": [{"general": refs[m.general_id], **_fields(m, MEMBER_FIELDS)}
                                for m in g.members.order_by("position", "pk")]}
                   for g in event.groups.order_by("-stage", "index")],
        "battles": [{"group": group_ref(b.group) if b.group_id else None,
                     "season": season_ref(b.season) if b.season_id else None,
                     **_fields(b, BATTLE_FIELDS),
                     **{name: _ref(refs, getattr(b, f"{name}_id")) for name in BATTLE_GENERAL_FIELDS}}
                    for b in event.battles.select_related("group", "season").order_by("pk")],
        "disqualifications": [{"general": refs[d.general_id], **_fields(d, DISQUALIFICATION_FIELDS)}
                              for d in event.disqualifications.order_by("decided_at", "pk")],
        "audit": [_fields(entry, AUDIT_FIELDS) for entry in event.audit_entries.order_by("at", "pk")],
    }


# --- import -------------------------------------------------------------------------------------

def read_archive(raw: bytes):
    """The archive document of a file's bytes, read with the API's limits: at most the API's body size
    (settings.OPP_MAX_REQUEST_BYTES), its nesting depth and its number length (tournaments.api.parsers);
    else `ArchiveError` saying which limit the file breaks."""
    from tournaments.json_input import JSONRefused, load_json

    limit = settings.OPP_MAX_REQUEST_BYTES
    if len(raw) > limit:
        raise ArchiveError(f"The file is larger than {limit:,} bytes ({limit // (1024 * 1024)} MiB), the limit of "
                           f"an archive as of any request body.")
    try:
        return load_json(raw, what="The file")
    except JSONRefused as error:
        raise ArchiveError(str(error)) from None


def _need(record, key, where):
    if not isinstance(record, dict):
        raise ArchiveError(f"{where} must be an object.")
    if key not in record:
        raise ArchiveError(f"{where} has no {key!r}.")
    return record[key]


def _list(archive, key):
    value = _need(archive, key, "The archive")
    if not isinstance(value, list):
        raise ArchiveError(f"The archive's {key!r} must be a list.")
    return value


def _values(record, names, where):
    return {name: _need(record, name, where) for name in names}


def _checked(obj, where, exclude=()):
    """The model's own validation (choices, lengths, types) as an ArchiveError naming the record."""
    try:
        obj.full_clean(exclude=["event", "group", "season", "general", *exclude], validate_unique=False,
                       validate_constraints=False)
    except ValidationError as error:
        problems = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items())
        raise ArchiveError(f"{where} is not valid: {problems}.") from None
    return obj


def check_header(archive):
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveError(f"This is not a WARLINE event archive: its \"format\" must be {FORMAT!r}.")
    if archive.get("version") != VERSION:
        raise ArchiveError(f"Archive version {archive.get('version')!r} is not supported; this site imports "
                           f"version {VERSION}.")


def import_archive(archive, *, slug=None, organizers=()):
    """Creates a new event from `archive` (a dict as `build_archive` makes) under `slug` (default:
    the archive's), organized by `organizers` (the first owns it). A general whose external id names an
    unclaimed general of this site that every one of `organizers` already manages (R96) is that
    general; the others are created without an account (R96: an import never reuses or reveals another
    event's general or its claim code). Raises ArchiveError; nothing is written then."""
    check_header(archive)
    event_record = _need(archive, "event", "The archive")
    slug = slug or _need(event_record, "slug", "The event")
    try:
        validate_slug(slug)
    except ValidationError:
        raise ArchiveError(f"{slug!r} is not a valid slug: use letters, numbers, hyphens or underscores.") from None
    try:
        with transaction.atomic():
            return _import(archive, event_record, slug, organizers)
    except DatabaseError as error:  # e.g. two registrations with one number: the model checks pass, the table refuses
        raise ArchiveError(f"The archive contradicts itself (a record appears twice?): {error}".strip()) from None


def _import(archive, event_record, slug, organizers):
    if Event.objects.filter(slug=slug).exists():
        raise ArchiveError(f"An event with the slug {slug!r} exists already; import under another with --slug.")
    organizers = list(organizers)
    generals, created_apart = _import_generals(_list(archive, "generals"), organizers)

    def general(ref, where, required=True):
        if ref is None and not required:
            return None
        if not isinstance(ref, str) or ref not in generals:
            raise ArchiveError(f"{where} names general {ref!r}, whom the archive's generals do not include.")
        return generals[ref]

    event = Event(slug=slug, **_values(event_record, EVENT_FIELDS, "The event"),
                  **{name: event_record[name] for name in EVENT_OPTIONAL_FIELDS if name in event_record})
    _checked(event, "The event", exclude=["victor"])
    if not isinstance(event.variants, list) or not all(isinstance(key, str) for key in event.variants):
        raise ArchiveError("The event's variants must be a list of names, like [\"battle_arts\"].")
    try:
        validate_variants(event.variants, event.battalion_count)
        check_board_setting({"board_width": event.board_width, "board_height": event.board_height})
    except DomainError as error:
        raise ArchiveError(f"The event's rules are not valid: {error}") from None
    event.owner = organizers[0] if organizers else None
    event.save()
    event.organizers.set(organizers)

    for index, record in enumerate(_list(archive, "registrations")):
        where = f"Registration {index + 1}"
        registration = Registration(event=event, general=general(_need(record, "general", where), where),
                                    **_values(record, REGISTRATION_FIELDS, where))
        _save_stamped(_checked(registration, where))

    seasons = {}
    for index, record in enumerate(_list(archive, "seasons")):
        where = f"Season {index + 1}"
        season = Season(event=event, champion=general(_need(record, "champion", where), where, required=False),
                        **_values(record, SEASON_FIELDS, where))
        _checked(season, where, exclude=["champion"]).save()
        seasons[_need(record, "ref", where)] = season

    groups = {}
    for index, record in enumerate(_list(archive, "groups")):
        where = f"Group {index + 1}"
        group = Group(event=event, winner=general(_need(record, "winner", where), where, required=False),
                      **_values(record, GROUP_FIELDS, where))
        _checked(group, where, exclude=["winner"]).save()
        groups[_need(record, "ref", where)] = group
        members = _need(record, "members", where)
        if not isinstance(members, list):
            raise ArchiveError(f"{where}'s members must be a list.")
        for number, member in enumerate(members):
            member_where = f"{where}, member {number + 1}"
            GroupMember.objects.create(group=group, general=general(_need(member, "general", member_where),
                                                                    member_where),
                                       **_values(member, MEMBER_FIELDS, member_where))

    for index, record in enumerate(_list(archive, "battles")):
        where = f"Battle {index + 1}"
        group_key, season_key = _need(record, "group", where), _need(record, "season", where)
        if group_key is not None and (not isinstance(group_key, str) or group_key not in groups):
            raise ArchiveError(f"{where} names group {group_key!r}, which the archive's groups do not include.")
        if season_key is not None and (not isinstance(season_key, str) or season_key not in seasons):
            raise ArchiveError(f"{where} names season {season_key!r}, which the archive's seasons do not include.")
        named = {name: general(_need(record, name, where), where, required=name in ("general_a", "general_b"))
                 for name in BATTLE_GENERAL_FIELDS}
        battle = Battle(event=event, group=groups.get(group_key), season=seasons.get(season_key), **named,
                        **_values(record, BATTLE_FIELDS, where))
        if battle.general_a == battle.general_b:
            raise ArchiveError(f"{where} names the same general twice.")
        _checked(battle, where, exclude=list(BATTLE_GENERAL_FIELDS)).save()

    for index, record in enumerate(_list(archive, "disqualifications")):
        where = f"Disqualification {index + 1}"
        dq = Disqualification(event=event, general=general(_need(record, "general", where), where),
                              **_values(record, DISQUALIFICATION_FIELDS, where))
        _save_stamped(_checked(dq, where, exclude=["decided_by"]))

    for index, record in enumerate(_list(archive, "audit")):
        where = f"Audit entry {index + 1}"
        entry = AuditEntry(event=event, **_values(record, AUDIT_FIELDS, where))
        _save_stamped(_checked(entry, where, exclude=["actor"]))

    for imported, external_id in created_apart:
        AuditEntry.objects.create(
            event=event, action="general imported as new", subject=imported.name[:120],
            reason=f"The archive's external id {external_id!r} names a general of another event on this site: "
                   "this event has its own general, without that external id (R96).")

    victor = general(_need(event_record, "victor", "The event"), "The event", required=False)
    if victor is not None:
        Event.objects.filter(pk=event.pk).update(victor=victor)
        event.victor = victor
    return event


def _reusable(general, organizers):
    """R96: an unclaimed general of this site joins the imported event only when every organizer of the
    import already manages it (organizes an event it is registered in): nobody learns a claim code
    they did not know. An import nobody organizes (the server's own) reuses none."""
    from tournaments import trust

    return bool(organizers) and all(trust.may_manage_general(user, general) for user in organizers)


def _import_generals(records, organizers):
    """({ref: General}, [(General, external id)]): this site's unclaimed general with the same external
    id when the organizers manage it already, else a new one without an account (and without the
    external id, which stays with the other general: the second list); a claimed general with that id
    is refused."""
    generals, external_ids, created_apart = {}, set(), []
    creator = organizers[0] if organizers else None
    for index, record in enumerate(records):
        where = f"General {index + 1}"
        ref = _need(record, "ref", where)
        if not isinstance(ref, str) or not ref:
            raise ArchiveError(f"{where}'s reference must be a text, like \"g1\".")
        if ref in generals:
            raise ArchiveError(f"{where} repeats the reference {ref!r}.")
        values = _values(record, GENERAL_FIELDS, where)
        external_id = values["external_id"]
        if external_id:
            if external_id in external_ids:
                raise ArchiveError(f"{where} repeats the external id {external_id!r}.")
            external_ids.add(external_id)
            existing = General.objects.filter(external_id=external_id).first()
            if existing is not None and existing.user_id is not None:
                # A claimed general enters an event only with its player's consent (R78).
                raise ArchiveError(f"{where}'s external id {external_id!r} belongs to a general a player has "
                                   "claimed on this site, who has not agreed to enter this event: remove the "
                                   "external id from the archive to import them as a new general.")
            if existing is not None and _reusable(existing, organizers):
                generals[ref] = existing
                continue
            if existing is not None:
                values = {**values, "external_id": ""}
                created_apart.append((ref, external_id))
        # Created by the importer: registered nowhere else, it is theirs alone to enter elsewhere (R96).
        generals[ref] = _checked(General(**values, created_by=creator), where, exclude=["user", "created_by"])
        generals[ref].save()
    return generals, [(generals[ref], external_id) for ref, external_id in created_apart]


def _save_stamped(obj):
    """Saves, then puts back the times the database stamps on creation, so the archive's times stand."""
    stamps = {name: getattr(obj, name) for name in STAMPED_FIELDS[type(obj)] if getattr(obj, name) is not None}
    obj.save()
    type(obj).objects.filter(pk=obj.pk).update(**stamps)
