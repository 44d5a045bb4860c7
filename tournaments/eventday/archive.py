"""A whole event as one JSON document, and the import that recreates it on another instance.

The archive names its records by references local to the archive ("g1" for a general, "A" style
references for groups and seasons), never by database ids, so it imports anywhere. Each record is
written over an explicit field list below: a new model field that belongs in the archive is one more
name in one tuple (tests/tournaments/test_archive_round_trip.py compares every field of every row and
fails on a name left out). The archive holds everything the event holds: its rules and windows, its
registrations, seasons and their members, groups, battles, every report of every status with its
replay and its adjudication, disqualifications, the audit trail and the invitations. Accounts are
named by username only (no password, e-mail or claim code); generals carry their name and external id.

Version 2 added the confirmation window, the pair limit, the event's times, owner and organizers,
season members, reports and adjudications, who decided and who acted, and the invitations; a version 1
archive still imports, with the defaults a new event gets for what it lacks.

The games (game_systems), Swiss rounds and lists came later as optional keys of version 2, written
always and read when present, so an archive written before them still imports as what it was: a
WARLINE event played in groups. They are the event's game, format, Swiss settings and list rules with
its card pool or model list; a registration's drop (`dropped_after_round`) and every version of its
list (`list_versions`: the text as submitted, the list as read, its violations, who accepted it despite
them and why); the Swiss and top-cut rounds paired (`paired_rounds`, with the bye) and each battle's
round among them (`swiss_round`), with a round's multiplayer tables (`tables`: seats, elimination order,
reports); a battle's and a report's result facts (`facts`).

The import creates a new event in one transaction: a malformed file raises `ArchiveError` naming
where it is wrong, and leaves nothing written. Usernames name accounts of this site as R97 says.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game_systems.base import PoolRejected, UnusableInput, read_facts
from tournaments import trust
from tournaments.domain import DomainError
from tournaments.events.services import (
    DEFAULT_CONFIRMATION_MINUTES,
    check_board_setting,
    check_game_settings,
    validate_variants,
)
from tournaments.json_input import JSONRefused, load_json
from tournaments.models import (
    Adjudication,
    AuditEntry,
    Battle,
    Disqualification,
    Event,
    General,
    Group,
    GroupMember,
    Invitation,
    ListVersion,
    OrganizerInvitation,
    Registration,
    Report,
    Season,
    SeasonMember,
    SwissRound,
    Table,
    TableReport,
    TableSeat,
)
from tournaments.ratings.tasks import schedule_recompute

FORMAT = "warline-opp-event-archive"
VERSION = 2
READABLE_VERSIONS = (1, 2)

# Plain fields per record, copied as they are (dates and times as ISO 8601 text).
EVENT_FIELDS = ("name", "kind", "variants", "battalion_count", "forfeit_award_opp", "forfeit_counts_as_victory",
                "forfeits_to_disqualify", "state", "group_seed", "group_method", "published", "starts_on", "venue")
# Added later: written always, read when present (older archives have none of them).
EVENT_OPTIONAL_FIELDS = ("ends_on", "description", "time_zone", "board_width", "board_height", "rated",
                         "approve_registrations",
                         # the game, its Swiss rounds and its lists: a WARLINE event in groups without them
                         "game", "format", "swiss_rounds", "top_cut", "table_size", "placement_points", "scoring",
                         "tie_breakers", "list_deadline", "list_visibility", "lists_public_from", "list_options",
                         "list_pool")
# Version 2: required there, a new event's defaults for a version 1 archive.
EVENT_V2_FIELDS = ("confirmation_minutes", "pair_battles_per_season", "created_at", "updated_at")
GENERAL_FIELDS = ("name", "external_id")
REGISTRATION_FIELDS = ("number", "seed", "status", "status_reason", "registered_at")
REGISTRATION_OPTIONAL_FIELDS = ("seed_rating", "dropped_after_round")
SEASON_FIELDS = ("number", "name", "state")
GROUP_FIELDS = ("stage", "index", "name")
MEMBER_FIELDS = ("position",)
BATTLE_FIELDS = ("round", "number", "playoff", "kind", "condition", "respect_shown", "decided_at")
BATTLE_OPTIONAL_FIELDS = ("first_decided_at", "facts")
DISQUALIFICATION_FIELDS = ("reason", "details", "decided_at")
AUDIT_FIELDS = ("at", "action", "subject", "before", "after", "reason")
SEASON_MEMBER_FIELDS = ("joined_at",)
REPORT_FIELDS = ("kind", "condition", "replay", "replay_sha256", "replay_bytes", "status", "status_reason",
                 "dispute_turn", "confirm_by", "created_at", "updated_at")
REPORT_GENERAL_FIELDS = ("winner", "forfeited_by", "player_1")
REPORT_OPTIONAL_FIELDS = ("facts",)
REPORT_USER_FIELDS = ("reported_by", "answered_by")
ADJUDICATION_FIELDS = ("state", "engine_version", "verdict", "agrees", "disagreement", "previous_verdict",
                       "attempts", "last_error", "queued_at", "sent_at", "started_at", "finished_at", "engine_ms")
INVITATION_FIELDS = ("status", "created_at", "answered_at")
SWISS_ROUND_FIELDS = ("stage", "number", "rematches", "paired_at")
# A multiplayer table of a Swiss round (Warlord CCG, 3-4 players): the general ids its JSON holds are
# written as the archive's general references.
TABLE_FIELDS = ("number", "finished", "decided_at")
TABLE_SEAT_FIELDS = ("seat",)
TABLE_REPORT_FIELDS = ("finished", "status", "status_reason", "confirm_by", "created_at")
TABLE_GENERAL_LISTS = ("eliminations",)
TABLE_REPORT_GENERAL_LISTS = ("eliminations", "confirmed_by")
LIST_VERSION_FIELDS = ("version", "submitted_at", "text", "content", "violations", "accepted_reason", "accepted_at")
LIST_VERSION_USER_FIELDS = ("submitted_by", "accepted_by")
LIST_VERSION_ROLES = {"submitted_by": "submitted a list", "accepted_by": "accepted a list despite its violations"}

# Fields naming a general, per record.
EVENT_GENERAL_FIELDS = ("victor",)
SEASON_GENERAL_FIELDS = ("champion",)
GROUP_GENERAL_FIELDS = ("winner",)
BATTLE_GENERAL_FIELDS = ("general_a", "general_b", "winner", "forfeited_by", "player_1")
SWISS_ROUND_GENERAL_FIELDS = ("bye",)



class ArchiveError(ValueError):
    """An archive that cannot be imported, with where and what is wrong. `field` names the import's
    input at fault: "archive" (the file) or "slug" (the new event's address)."""

    def __init__(self, message, field="archive"):
        super().__init__(message)
        self.field = field


class SlugTaken(ArchiveError):
    """The new event's address is another event's: the archive is fine, another slug imports it."""

    def __init__(self, slug):
        super().__init__(f"An event with the address /events/{slug}/ ({slug!r}) exists already.", field="slug")
        self.slug = slug


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
    for report in Report.objects.filter(battle__event=event).values_list(
            *(f"{name}_id" for name in REPORT_GENERAL_FIELDS)):
        others.update(pk for pk in report if pk)
    others.update(event.disqualifications.values_list("general_id", flat=True))
    others.update(event.invitations.values_list("general_id", flat=True))
    others.update(GroupMember.objects.filter(group__event=event).values_list("general_id", flat=True))
    others.update(SeasonMember.objects.filter(season__event=event).values_list("general_id", flat=True))
    others.update(event.swiss_rounds_paired.exclude(bye=None).values_list("bye_id", flat=True))
    others.update(TableSeat.objects.filter(table__event=event).values_list("general_id", flat=True))
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


def swiss_round_ref(swiss_round):
    """"swiss-2" for the second Swiss round, "top_cut-1" for the top cut's first."""
    return f"{swiss_round.stage}-{swiss_round.number}"


class _Usernames(dict):
    """{user id: username} of every account the event's records name, read once."""

    def __init__(self, event):
        ids = {event.owner_id, *event.organizers.values_list("pk", flat=True)}
        for rows in (Report.objects.filter(battle__event=event).values_list(*(f"{n}_id" for n in REPORT_USER_FIELDS)),
                     event.disqualifications.values_list("decided_by_id"),
                     event.audit_entries.values_list("actor_id"),
                     event.invitations.values_list("invited_by_id"),
                     event.organizer_invitations.values_list("user_id", "invited_by_id"),
                     ListVersion.objects.filter(registration__event=event).values_list(
                         *(f"{n}_id" for n in LIST_VERSION_USER_FIELDS)),
                     TableReport.objects.filter(table__event=event).values_list("reported_by_id")):
            for row in rows:
                ids.update(row)
        ids.discard(None)
        super().__init__(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))

    def of(self, pk):
        return self[pk] if pk else None


def _report(report, refs, users):
    adjudication = getattr(report, "adjudication", None)
    return {**_fields(report, REPORT_FIELDS), **_fields(report, REPORT_OPTIONAL_FIELDS),
            **{name: _ref(refs, getattr(report, f"{name}_id")) for name in REPORT_GENERAL_FIELDS},
            **{name: users.of(getattr(report, f"{name}_id")) for name in REPORT_USER_FIELDS},
            "adjudication": _fields(adjudication, ADJUDICATION_FIELDS) if adjudication else None}


def _list_versions(event, users):
    """{registration pk: [every list version, oldest first]}."""
    versions = {}
    for version in ListVersion.objects.filter(registration__event=event).order_by("registration", "version"):
        versions.setdefault(version.registration_id, []).append(
            {**_fields(version, LIST_VERSION_FIELDS),
             **{name: users.of(getattr(version, f"{name}_id")) for name in LIST_VERSION_USER_FIELDS}})
    return versions


def _refs_of(refs, ids):
    return [refs.get(pk, pk) for pk in ids]  # a general no longer seated stays as it was: the import refuses it


def _tables(event, refs, users):
    """{Swiss round pk: [its multiplayer tables, by number]}."""
    tables = {}
    for table in (Table.objects.filter(event=event).prefetch_related("seats", "reports")
                  .order_by("swiss_round", "number")):
        tables.setdefault(table.swiss_round_id, []).append({
            **_fields(table, TABLE_FIELDS),
            **{name: _refs_of(refs, getattr(table, name)) for name in TABLE_GENERAL_LISTS},
            "seats": [{"general": refs[seat.general_id], **_fields(seat, TABLE_SEAT_FIELDS)}
                      for seat in sorted(table.seats.all(), key=lambda seat: seat.seat)],
            "reports": [{**_fields(report, TABLE_REPORT_FIELDS), "reported_by": users.of(report.reported_by_id),
                         **{name: _refs_of(refs, getattr(report, name)) for name in TABLE_REPORT_GENERAL_LISTS}}
                        for report in sorted(table.reports.all(), key=lambda report: (report.created_at, report.pk))],
        })
    return tables


def build_archive(event):
    """The event as a JSON-ready dict (see the module's docstring)."""
    refs = _general_refs(event)
    generals = General.objects.in_bulk(list(refs))
    users = _Usernames(event)
    reports = {}
    for report in (Report.objects.filter(battle__event=event).select_related("adjudication")
                   .order_by("created_at", "pk")):
        reports.setdefault(report.battle_id, []).append(_report(report, refs, users))
    list_versions = _list_versions(event, users)
    tables = _tables(event, refs, users)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {"slug": event.slug, **_fields(event, EVENT_FIELDS), **_fields(event, EVENT_OPTIONAL_FIELDS),
                  **_fields(event, EVENT_V2_FIELDS), "victor": _ref(refs, event.victor_id),
                  "owner": users.of(event.owner_id),
                  "organizers": sorted(users.of(pk) for pk in event.organizers.values_list("pk", flat=True))},
        "generals": [{"ref": ref, **_fields(generals[pk], GENERAL_FIELDS)} for pk, ref in refs.items()],
        "registrations": [{"general": refs[r.general_id], **_fields(r, REGISTRATION_FIELDS),
                           **_fields(r, REGISTRATION_OPTIONAL_FIELDS), "list_versions": list_versions.get(r.pk, [])}
                          for r in event.registrations.order_by("number")],
        "seasons": [{"ref": season_ref(s), **_fields(s, SEASON_FIELDS), "champion": _ref(refs, s.champion_id),
                     "members": [{"general": refs[m.general_id], **_fields(m, SEASON_MEMBER_FIELDS)}
                                 for m in s.memberships.order_by("joined_at", "pk")]}
                    for s in event.seasons.order_by("number")],
        "groups": [{"ref": group_ref(g), **_fields(g, GROUP_FIELDS), "winner": _ref(refs, g.winner_id),
                    "members": [{"general": refs[m.general_id], **_fields(m, MEMBER_FIELDS)}
                                for m in g.members.order_by("position", "pk")]}
                   for g in event.groups.order_by("-stage", "index")],
        "paired_rounds": [{"ref": swiss_round_ref(r), **_fields(r, SWISS_ROUND_FIELDS),
                           **{name: _ref(refs, getattr(r, f"{name}_id")) for name in SWISS_ROUND_GENERAL_FIELDS},
                           "tables": tables.get(r.pk, [])}
                          for r in event.swiss_rounds_paired.order_by("stage", "number")],
        "battles": [{"group": group_ref(b.group) if b.group_id else None,
                     "season": season_ref(b.season) if b.season_id else None,
                     "swiss_round": swiss_round_ref(b.swiss_round) if b.swiss_round_id else None,
                     **_fields(b, BATTLE_FIELDS), **_fields(b, BATTLE_OPTIONAL_FIELDS),
                     **{name: _ref(refs, getattr(b, f"{name}_id")) for name in BATTLE_GENERAL_FIELDS},
                     "reports": reports.get(b.pk, [])}
                    for b in event.battles.select_related("group", "season", "swiss_round").order_by("pk")],
        "disqualifications": [{"general": refs[d.general_id], **_fields(d, DISQUALIFICATION_FIELDS),
                               "season": season_ref(d.season) if d.season_id else None,
                               "decided_by": users.of(d.decided_by_id)}
                              for d in event.disqualifications.select_related("season").order_by("decided_at", "pk")],
        "audit": [{**_fields(entry, AUDIT_FIELDS), "actor": users.of(entry.actor_id)}
                  for entry in event.audit_entries.order_by("at", "pk")],
        "invitations": [{"general": refs[i.general_id], **_fields(i, INVITATION_FIELDS),
                         "invited_by": users.of(i.invited_by_id)}
                        for i in event.invitations.order_by("created_at", "pk")],
        "organizer_invitations": [{"user": users.of(i.user_id), **_fields(i, INVITATION_FIELDS),
                                   "invited_by": users.of(i.invited_by_id)}
                                  for i in event.organizer_invitations.order_by("created_at", "pk")],
    }


# --- import -------------------------------------------------------------------------------------

def read_archive(raw: bytes):
    """The archive document of a file's bytes, read with the API's limits: at most the API's body size
    (settings.OPP_MAX_REQUEST_BYTES), its nesting depth and its number length (tournaments.api.parsers);
    else `ArchiveError` saying which limit the file breaks."""
    limit = settings.OPP_MAX_REQUEST_BYTES
    if len(raw) > limit:
        raise ArchiveError(_("The file is larger than %(bytes)s bytes (%(mib)s MiB), the limit of an archive as "
                             "of any request body.") % {"bytes": f"{limit:,}", "mib": limit // (1024 * 1024)})
    try:
        return load_json(raw, what="The file")
    except JSONRefused as error:
        raise ArchiveError(str(error)) from None


def _need(record, key, where):
    if not isinstance(record, dict):
        raise ArchiveError(_("%(where)s must be an object.") % {"where": where})
    if key not in record:
        raise ArchiveError(_("%(where)s has no %(key)r.") % {"where": where, "key": key})
    return record[key]


def _list(archive, key):
    value = _need(archive, key, "The archive")
    if not isinstance(value, list):
        raise ArchiveError(_("The archive's %(key)r must be a list.") % {"key": key})
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
        raise ArchiveError(_("%(where)s is not valid: %(problems)s.")
                           % {"where": where, "problems": problems}) from None
    return obj


def check_header(archive):
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveError(_("This is not a WARLINE event archive: its \"format\" must be %(FORMAT)r.")
                           % {"FORMAT": FORMAT})
    version = archive.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise ArchiveError(_("Archive version %(version)r is not supported; this site imports versions "
                             "%(READABLE_VERSIONS)s to %(VERSION)s.")
                           % {"version": version, "READABLE_VERSIONS": READABLE_VERSIONS[0], "VERSION": VERSION})
    return version


class _Accounts:
    """The archive's usernames as accounts of this site (R97): matched only when the import says so;
    what is named and absent, or named and not matched, is kept for the warnings."""

    ORGANIZING = ("owner", "organizer")

    def __init__(self, match, importers):
        self.match, self.importers = match, {user.username for user in importers}
        self.absent, self.unmatched, self.found = {}, {}, {}

    def get(self, username, role, where):
        if username is None:
            return None
        if not isinstance(username, str) or not username:
            raise ArchiveError(_("%(where)s names an account by %(username)r: a username must be a text.")
                               % {"where": where, "username": username})
        if username not in self.found:
            self.found[username] = get_user_model().objects.filter(username=username).first()
        user = self.found[username]
        if user is None:
            self.absent.setdefault(username, []).append(role)
            return None
        if not self.match:
            self.unmatched.setdefault(username, []).append(role)
            return None
        return user

    def warnings(self, event):
        def roles(names):
            return ", ".join(dict.fromkeys(names))

        lines = [f"No account on this site is called {username!r} (in the archive: {roles(names)}): "
                 f"the imported records name nobody in its place." for username, names in self.absent.items()]
        organizing = [u for u, names in self.unmatched.items()
                      if u not in self.importers and any(role in self.ORGANIZING for role in names)]
        if organizing:
            lines.append(f"{', '.join(organizing)} organized the event where it comes from; here you organize it: "
                         "invite them as organizers from the event's page if they should organize it too (R97).")
        others = [u for u, names in self.unmatched.items() if not any(role in self.ORGANIZING for role in names)]
        if others:
            lines.append(f"Who reported, answered or decided ({', '.join(others)}) is left empty: an import from "
                         "this page names no account of this site but yours (R97).")
        if not event.organizers.exists():
            lines.append(f"{event.name} has no organizer on this site: only site staff can manage it.")
        return lines


def import_archive(archive, *, slug=None, organizers=(), match_accounts=False):
    """Creates a new event from `archive` (a dict as `build_archive` makes) under `slug` (default:
    the archive's). R97: with `match_accounts` (the site administrators' command) every username of the
    archive names this site's account of that name: the archive's owner and organizers organize the
    event again, `organizers` besides (the first owns it when the archive's owner has no account here),
    and who reported, answered, decided or acted is restored. Without it (the web page), `organizers`
    alone organize it (the first owns it) and no other account is named. A general whose external id
    names an unclaimed general of this site that every organizer of the import already manages (R96) is
    that general; the others are created without an account (R96: an import never reuses or reveals
    another event's general or its claim code). Returns the event, with `archive_warnings`: sentences
    naming the accounts the archive names and this site lacks (or did not match). Raises ArchiveError;
    nothing is written then."""
    version = check_header(archive)
    event_record = _need(archive, "event", "The archive")
    slug = slug or _need(event_record, "slug", "The event")
    try:
        if not isinstance(slug, str) or len(slug) > 80:
            raise ValidationError("")
        validate_slug(slug)
    except ValidationError:
        raise ArchiveError(_("%(slug)r is not a valid address: use at most 80 letters, numbers, hyphens or "
                             "underscores.") % {"slug": slug}, field="slug") from None
    try:
        with transaction.atomic():
            return _import(archive, version, event_record, slug, list(organizers), match_accounts)
    except DatabaseError as error:  # e.g. two registrations with one number: the model checks pass, the table refuses
        raise ArchiveError(f"The archive contradicts itself (a record appears twice?): {error}".strip()) from None


def _since_v2(record, names, where, version):
    return _values(record, names, where) if version >= 2 else {}


def _since_v2_list(record, key, where, version):
    if version < 2:
        return []
    value = _need(record, key, where)
    if not isinstance(value, list):
        raise ArchiveError(_("%(where)s's %(key)r must be a list.") % {"where": where, "key": key})
    return value


def _import(archive, version, event_record, slug, explicit, match_accounts):
    if Event.objects.filter(slug=slug).exists():
        raise SlugTaken(slug)
    accounts = _Accounts(match_accounts, explicit)
    owner = accounts.get(event_record.get("owner") if version >= 2 else None, "owner", "The event")
    archived = [accounts.get(name, "organizer", "The event")
                for name in _since_v2_list(event_record, "organizers", "The event", version)]
    organizers = list(dict.fromkeys([*(user for user in archived if user), *explicit]))
    owner = owner or next(iter(explicit), None)
    if owner in organizers:  # the owner first: the generals the import creates are theirs (R96)
        organizers.insert(0, organizers.pop(organizers.index(owner)))

    generals, created_apart = _import_generals(_list(archive, "generals"), organizers)

    def general(ref, where, required=True):
        if ref is None and not required:
            return None
        if not isinstance(ref, str) or ref not in generals:
            raise ArchiveError(_("%(where)s names general %(ref)r, whom the archive's generals do not "
                                 "include.") % {"where": where, "ref": ref})
        return generals[ref]

    event = Event(slug=slug, **_values(event_record, EVENT_FIELDS, "The event"),
                  **{name: event_record[name] for name in EVENT_OPTIONAL_FIELDS if name in event_record},
                  **_since_v2(event_record, EVENT_V2_FIELDS, "The event", version))
    if version < 2:  # the window a new event of its kind gets (version 1 archives had none)
        event.confirmation_minutes = DEFAULT_CONFIRMATION_MINUTES.get(event.kind, event.confirmation_minutes)
    _checked(event, "The event", exclude=["victor", "owner"])
    if not isinstance(event.variants, list) or not all(isinstance(key, str) for key in event.variants):
        raise ArchiveError(_("The event's variants must be a list of names, like [\"battle_arts\"]."))
    try:
        validate_variants(event.variants, event.battalion_count)
        check_board_setting({"board_width": event.board_width, "board_height": event.board_height})
    except DomainError as error:
        raise ArchiveError(_("The event's rules are not valid: %(error)s") % {"error": error}) from None
    _check_game(event)
    times = {name: getattr(event, name) for name in ("created_at", "updated_at") if getattr(event, name)}
    event.owner = owner
    event.save()
    event.organizers.set(organizers)

    registrations = []
    for index, record in enumerate(_list(archive, "registrations")):
        where = f"Registration {index + 1}"
        registrations.append(_checked(Registration(event=event, general=general(_need(record, "general", where), where),
                                                   **_values(record, REGISTRATION_FIELDS, where),
                                                   **{name: record[name] for name in REGISTRATION_OPTIONAL_FIELDS
                                                      if name in record}), where))
    _insert(Registration, registrations)
    list_versions = []
    for index, (record, registration) in enumerate(zip(_list(archive, "registrations"), registrations, strict=True)):
        where = f"Registration {index + 1}"
        for number, version_record in enumerate(_optional_list(record, "list_versions", where)):
            list_versions.append(_list_version_of(registration, version_record, f"{where}, list version {number + 1}",
                                                  accounts))
    if list_versions and not event.game_system.has_lists:
        raise ArchiveError(_("The archive holds lists, yet %(game_system)s has no deck or army lists.")
                           % {"game_system": event.game_system.name})
    _insert(ListVersion, list_versions)

    seasons, season_members = {}, []
    for index, record in enumerate(_list(archive, "seasons")):
        where = f"Season {index + 1}"
        season = Season(event=event, champion=general(_need(record, "champion", where), where, required=False),
                        **_values(record, SEASON_FIELDS, where))
        _checked(season, where, exclude=["champion"]).save()
        seasons[_need(record, "ref", where)] = season
        for number, member in enumerate(_since_v2_list(record, "members", where, version)):
            member_where = f"{where}, member {number + 1}"
            season_members.append(_checked(SeasonMember(
                season=season, general=general(_need(member, "general", member_where), member_where),
                **_values(member, SEASON_MEMBER_FIELDS, member_where)), member_where))

    groups = {}
    for index, record in enumerate(_list(archive, "groups")):
        where = f"Group {index + 1}"
        group = Group(event=event, winner=general(_need(record, "winner", where), where, required=False),
                      **_values(record, GROUP_FIELDS, where))
        _checked(group, where, exclude=["winner"]).save()
        groups[_need(record, "ref", where)] = group
        members = _need(record, "members", where)
        if not isinstance(members, list):
            raise ArchiveError(_("%(where)s's members must be a list.") % {"where": where})
        for number, member in enumerate(members):
            member_where = f"{where}, member {number + 1}"
            GroupMember.objects.create(group=group, general=general(_need(member, "general", member_where),
                                                                    member_where),
                                       **_values(member, MEMBER_FIELDS, member_where))

    paired_rounds = _import_paired_rounds(archive, event, general, accounts)

    reports, adjudications = [], []
    for index, record in enumerate(_list(archive, "battles")):
        where = f"Battle {index + 1}"
        group_key, season_key = _need(record, "group", where), _need(record, "season", where)
        round_key = record.get("swiss_round")  # absent before Swiss rounds: a battle of a group or a season
        if group_key is not None and (not isinstance(group_key, str) or group_key not in groups):
            raise ArchiveError(_("%(where)s names group %(group_key)r, which the archive's groups do not "
                                 "include.") % {"where": where, "group_key": group_key})
        if season_key is not None and (not isinstance(season_key, str) or season_key not in seasons):
            raise ArchiveError(_("%(where)s names season %(season_key)r, which the archive's seasons do "
                                 "not include.") % {"where": where, "season_key": season_key})
        if round_key is not None and (not isinstance(round_key, str) or round_key not in paired_rounds):
            raise ArchiveError(_("%(where)s names Swiss round %(round_key)r, which the archive's paired "
                                 "rounds do not include.") % {"where": where, "round_key": round_key})
        named = {name: general(_need(record, name, where), where, required=name in ("general_a", "general_b"))
                 for name in BATTLE_GENERAL_FIELDS}
        battle = Battle(event=event, group=groups.get(group_key), season=seasons.get(season_key),
                        swiss_round=paired_rounds.get(round_key), **named, **_values(record, BATTLE_FIELDS, where),
                        **{name: record[name] for name in BATTLE_OPTIONAL_FIELDS if name in record})
        if battle.general_a == battle.general_b:
            raise ArchiveError(_("%(where)s names the same general twice.") % {"where": where})
        _checked(battle, where, exclude=[*BATTLE_GENERAL_FIELDS, "swiss_round"])
        _check_result(event, battle.kind, battle.facts, where)
        battle.save()
        for number, report_record in enumerate(_since_v2_list(record, "reports", where, version)):
            report, adjudication = _report_of(battle, report_record, f"{where}, report {number + 1}", general,
                                              accounts)
            reports.append(report)
            adjudications.append(adjudication)
    _insert(Report, reports)
    for report, adjudication in zip(reports, adjudications, strict=True):
        if adjudication is not None:
            adjudication.report = report
    _insert(Adjudication, [adjudication for adjudication in adjudications if adjudication is not None])

    if version < 2:  # who a season held was not archived: everyone registered or playing in it
        season_members = _members_of_v1_seasons(event, seasons)
    _insert(SeasonMember, season_members)

    disqualifications = []
    for index, record in enumerate(_list(archive, "disqualifications")):
        where = f"Disqualification {index + 1}"
        season_key = record.get("season") if version >= 2 else None
        if season_key is not None and (not isinstance(season_key, str) or season_key not in seasons):
            raise ArchiveError(_("%(where)s names season %(season_key)r, which the archive's seasons do "
                                 "not include.") % {"where": where, "season_key": season_key})
        dq = Disqualification(event=event, general=general(_need(record, "general", where), where),
                              season=seasons.get(season_key),
                              decided_by=accounts.get(record.get("decided_by"), "decided a disqualification", where),
                              **_values(record, DISQUALIFICATION_FIELDS, where))
        disqualifications.append(_checked(dq, where, exclude=["decided_by"]))
    _insert(Disqualification, disqualifications)

    entries = []
    for index, record in enumerate(_list(archive, "audit")):
        where = f"Audit entry {index + 1}"
        entry = AuditEntry(event=event, actor=accounts.get(record.get("actor"), "acted in the audit trail", where),
                           **_values(record, AUDIT_FIELDS, where))
        entries.append(_checked(entry, where, exclude=["actor"]))
    _insert(AuditEntry, entries)

    invitations = []
    for index, record in enumerate(_since_v2_list(archive, "invitations", "The archive", version)):
        where = f"Invitation {index + 1}"
        invitations.append(_checked(Invitation(
            event=event, general=general(_need(record, "general", where), where),
            invited_by=accounts.get(_need(record, "invited_by", where), "invited a general", where),
            **_values(record, INVITATION_FIELDS, where)), where, exclude=["invited_by"]))
    _insert(Invitation, invitations)

    organizer_invitations = []
    for index, record in enumerate(_since_v2_list(archive, "organizer_invitations", "The archive", version)):
        where = f"Organizer invitation {index + 1}"
        user = accounts.get(_need(record, "user", where), "invited to organize", where)
        invited_by = accounts.get(_need(record, "invited_by", where), "invited an organizer", where)
        if user is not None:  # an invitation is to an account: none here, no invitation (the warning says so)
            organizer_invitations.append(_checked(OrganizerInvitation(
                event=event, user=user, invited_by=invited_by, **_values(record, INVITATION_FIELDS, where)),
                where, exclude=["user", "invited_by"]))
    _insert(OrganizerInvitation, organizer_invitations)

    for imported, external_id in created_apart:
        AuditEntry.objects.create(
            event=event, action="general imported as new", subject=imported.name[:120],
            reason=f"The archive's external id {external_id!r} names a general of another event on this site: "
                   "this event has its own general, without that external id (R96).")

    victor = general(_need(event_record, "victor", "The event"), "The event", required=False)
    Event.objects.filter(pk=event.pk).update(victor=victor, **times)
    event.refresh_from_db()
    event.archive_warnings = accounts.warnings(event)
    if event.rated:  # R98: its battles enter the ratings, each in its own week, after the import commits
        schedule_recompute()
    return event


def _report_of(battle, record, where, general, accounts):
    """A report of the archive and its adjudication (or None), checked, not saved."""
    report = Report(battle=battle,
                    **{name: general(_need(record, name, where), where, required=False)
                       for name in REPORT_GENERAL_FIELDS},
                    reported_by=accounts.get(_need(record, "reported_by", where), "reported a result", where),
                    answered_by=accounts.get(_need(record, "answered_by", where), "answered a report", where),
                    **_values(record, REPORT_FIELDS, where),
                    **{name: record[name] for name in REPORT_OPTIONAL_FIELDS if name in record})
    _checked(report, where, exclude=["battle", *REPORT_GENERAL_FIELDS, *REPORT_USER_FIELDS])
    _check_result(battle.event, report.kind, report.facts, where)
    adjudication = _need(record, "adjudication", where)
    if adjudication is None:
        return report, None
    adjudication_where = f"{where}'s adjudication"
    return report, _checked(Adjudication(**_values(adjudication, ADJUDICATION_FIELDS, adjudication_where)),
                            adjudication_where, exclude=["report"])


def _optional_list(record, key, where):
    """A list added to version 2 later (the Swiss rounds, the lists): empty in an archive written before."""
    if key not in record:
        return []
    value = record[key]
    if not isinstance(value, list):
        raise ArchiveError(_("%(where)s's %(key)r must be a list.") % {"where": where, "key": key})
    return value


def _check_game(event):
    """The event's game, format and Swiss settings fit together as a new event's must
    (events.services.check_game_settings), and its list options and pool read as its game reads them."""
    game_settings = {name: getattr(event, name) for name in ("game", "format", "top_cut", "swiss_rounds", "rated",
                                                              "scoring", "tie_breakers", "table_size",
                                                              "placement_points")}
    try:
        check_game_settings(event.kind, game_settings)
    except DomainError as error:
        raise ArchiveError(_("The event's game settings are not valid: %(error)s") % {"error": error}) from None
    checker = event.game_system.list_checker
    if checker is None:
        if event.list_pool or event.list_options:
            raise ArchiveError(_("The event has list options or a pool, yet %(game_system)s has no deck or "
                                 "army lists.") % {"game_system": event.game_system.name})
        return
    try:
        options = checker.parse_options(event.list_options, has_pool=bool(event.list_pool))
        if event.list_pool:
            checker.parse_pool(event.list_pool, options=options)
    except (UnusableInput, PoolRejected) as error:
        raise ArchiveError(_("The event's list rules are not valid: %(error)s") % {"error": error}) from None


def _check_result(event, kind, facts, where):
    """A result of the event's game: one of its result kinds (or not fought after a disqualification, R23),
    with the facts its results record (game_systems.base.read_facts); else the standings could not
    count it."""
    system = event.game_system
    if kind and kind != Battle.Kind.UNPLAYED_DQ and system.result_kind(kind) is None:
        raise ArchiveError(_("%(where)s's result %(kind)r is not one of %(short_name)s's results "
                             "(%(value)s).")
                           % {"where": where, "kind": kind, "short_name": system.short_name, "value": ', '.join(k.key for k in system.result_kinds)})
    if not isinstance(facts, dict):
        raise ArchiveError(_("%(where)s's facts must be an object of named values.") % {"where": where})
    try:
        read_facts(system.result_facts, facts)
    except ValueError as error:
        raise ArchiveError(_("%(where)s's facts are not valid: %(error)s")
                           % {"where": where, "error": error}) from None


def _import_paired_rounds(archive, event, general, accounts):
    """{ref: SwissRound} of the archive's Swiss and top-cut rounds, saved with their times, and their
    multiplayer tables."""
    paired_rounds = {}
    records = _optional_list(archive, "paired_rounds", "The archive")
    for index, record in enumerate(records):
        where = f"Paired round {index + 1}"
        ref = _need(record, "ref", where)
        if not isinstance(ref, str) or not ref or ref in paired_rounds:
            raise ArchiveError(_(
                    "%(where)s's reference must be a text of its own, like \"swiss-1\" (not %(ref)r).") % {"where": where, "ref": ref})
        swiss_round = SwissRound(event=event, **_values(record, SWISS_ROUND_FIELDS, where),
                                 **{name: general(_need(record, name, where), where, required=False)
                                    for name in SWISS_ROUND_GENERAL_FIELDS})
        paired_rounds[ref] = _checked(swiss_round, where, exclude=list(SWISS_ROUND_GENERAL_FIELDS))
    if paired_rounds and event.format != Event.Format.SWISS:
        raise ArchiveError(_("The archive holds Swiss rounds, yet its event is played in groups: its "
                             "\"format\" must be \"swiss\"."))
    _insert(SwissRound, list(paired_rounds.values()))
    table_reports = []
    for index, (record, swiss_round) in enumerate(zip(records, paired_rounds.values(), strict=True)):
        for number, table_record in enumerate(_optional_list(record, "tables", f"Paired round {index + 1}")):
            table_reports += _import_table(swiss_round, table_record, f"Paired round {index + 1}, table {number + 1}",
                                           general, accounts)
    _insert(TableReport, table_reports)
    return paired_rounds


def _import_table(swiss_round, record, where, general, accounts):
    """Saves a multiplayer table and its seats; returns its reports, checked, not saved. The elimination
    orders and confirmations name the table's seated generals only."""
    seats = [(general(_need(seat, "general", f"{where}, seat {n + 1}"), f"{where}, seat {n + 1}"),
              _values(seat, TABLE_SEAT_FIELDS, f"{where}, seat {n + 1}"))
             for n, seat in enumerate(_need_list(record, "seats", where))]
    seated = {seated_general.pk for seated_general, _seat in seats}

    def seated_general_ids(refs, name, at):
        if not isinstance(refs, list):
            raise ArchiveError(_("%(at)s's %(name)s must be a list of general references.")
                               % {"at": at, "name": name})
        ids = [general(ref, at).pk for ref in refs]
        if not set(ids) <= seated:
            raise ArchiveError(_("%(at)s's %(name)s names a general not seated at the table.")
                               % {"at": at, "name": name})
        return ids

    table = Table(event=swiss_round.event, swiss_round=swiss_round, **_values(record, TABLE_FIELDS, where),
                  **{name: seated_general_ids(_need(record, name, where), name, where) for name in TABLE_GENERAL_LISTS})
    _checked(table, where, exclude=["swiss_round"]).save()
    for number, (seated_general, values) in enumerate(seats):
        _checked(TableSeat(table=table, general=seated_general, **values), f"{where}, seat {number + 1}",
                 exclude=["table"]).save()
    reports = []
    for number, report in enumerate(_need_list(record, "reports", where)):
        report_where = f"{where}, report {number + 1}"
        reports.append(_checked(TableReport(
            table=table, reported_by=accounts.get(_need(report, "reported_by", report_where), "reported a table",
                                                  report_where),
            **_values(report, TABLE_REPORT_FIELDS, report_where),
            **{name: seated_general_ids(_need(report, name, report_where), name, report_where)
               for name in TABLE_REPORT_GENERAL_LISTS}), report_where, exclude=["table", "reported_by"]))
    return reports


def _need_list(record, key, where):
    value = _need(record, key, where)
    if not isinstance(value, list):
        raise ArchiveError(_("%(where)s's %(key)r must be a list.") % {"where": where, "key": key})
    return value


def _list_version_of(registration, record, where, accounts):
    """One version of a player's list, checked, not saved; its violations as they were when archived."""
    version = ListVersion(registration=registration,
                          **{name: accounts.get(_need(record, name, where), LIST_VERSION_ROLES[name], where)
                             for name in LIST_VERSION_USER_FIELDS},
                          **_values(record, LIST_VERSION_FIELDS, where))
    _checked(version, where, exclude=["registration", *LIST_VERSION_USER_FIELDS])
    violations = version.violations
    if not isinstance(violations, list) or not all(
            isinstance(v, dict) and isinstance(v.get("code"), str) and isinstance(v.get("message"), str)
            for v in violations):
        raise ArchiveError(_(
                "%(where)s's violations must be a list of {\"code\": …, \"message\": …} objects.") % {"where": where})
    return version


def _members_of_v1_seasons(event, seasons):
    registered = {r.general_id: r.registered_at for r in event.registrations.all()}
    members = []
    for season in seasons.values():
        played = {pk for pair in season.battles.values_list("general_a_id", "general_b_id") for pk in pair}
        for general_id in dict.fromkeys([*registered, *sorted(played - set(registered))]):
            members.append(SeasonMember(season=season, general_id=general_id, joined_at=registered.get(general_id)))
    return members


def _reusable(general, organizers):
    """R96: an unclaimed general of this site joins the imported event only when every organizer of the
    import already manages it (organizes an event it is registered in): nobody learns a claim code
    they did not know. An import nobody organizes (the server's own) reuses none."""
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
            raise ArchiveError(_("%(where)s's reference must be a text, like \"g1\".") % {"where": where})
        if ref in generals:
            raise ArchiveError(_("%(where)s repeats the reference %(ref)r.") % {"where": where, "ref": ref})
        values = _values(record, GENERAL_FIELDS, where)
        external_id = values["external_id"]
        if external_id:
            if external_id in external_ids:
                raise ArchiveError(_("%(where)s repeats the external id %(external_id)r.")
                                   % {"where": where, "external_id": external_id})
            external_ids.add(external_id)
            existing = General.objects.filter(external_id=external_id).first()
            if existing is not None and existing.user_id is not None:
                # A claimed general enters an event only with its player's consent (R78).
                raise ArchiveError(_("%(where)s's external id %(external_id)r belongs to a general a "
                                     "player has claimed on this site, who has not agreed to enter this "
                                     "event: remove the external id from the archive to import them as a "
                                     "new general.") % {"where": where, "external_id": external_id})
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


def _insert(model, objs):
    """Creates the rows at once and puts back the times the database stamps (auto_now_add, auto_now),
    so the archive's times stand. Sends no post_save: an import mails nobody about old reports."""
    if not objs:
        return objs
    stamped = [field.attname for field in model._meta.concrete_fields
               if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)]
    kept = [{name: getattr(obj, name) for name in stamped} for obj in objs]
    model.objects.bulk_create(objs)
    for obj, values in zip(objs, kept, strict=True):
        for name, value in values.items():
            if value is not None:
                setattr(obj, name, value)
    if stamped:
        model.objects.bulk_update(objs, stamped)
    return objs
