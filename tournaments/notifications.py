"""Email to players and organizers (Django's mail backend: EMAIL_BACKEND, DEFAULT_FROM_EMAIL).

Five kinds, each a user may switch off on /my/notifications/ (or `PATCH me/`):

- confirmations: an opponent's report waits for your confirmation (with the battle's link and the
  deadline in the event's time zone);
- disputes: a report of your battle is disputed (by the opponent or by the engine); the event's
  organizers get it too;
- verdicts: the rules engine's verdict on a report of your battle;
- pairings: your battles of a new stage, group, playoff or league season;
- decisions: a report of an event you organize that nobody can answer (against an unclaimed general
  or an unreachable player) waits for an organizer.

Nothing here is called by the services: the receivers below watch the rows they write (a report's
status, an adjudication finishing, the audit entries of new pairings) and mail after the commit, so
a rolled-back step mails nobody. Each thing is mailed at most once to each user (`Notification.key`),
a user gets one mail per happening (the opponent of a checked report gets the request to confirm,
which names the verdict, not two mails), and users without an email address or who opted out get
none. A mail server that fails is logged and noted on the `Notification` row: it never breaks the
step that caused the mail.
"""
from __future__ import annotations

import logging
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models.signals import post_init, post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

from tournaments import trust
from tournaments.models import (
    Adjudication,
    AuditEntry,
    Event,
    Notification,
    NotificationSettings,
    OrganizerInvitation,
    Report,
    Table,
    TableReport,
)
from tournaments.results import outbox
from tournaments.results.agreement import report_claim_text
from tournaments.swiss.tables import result_text
from tournaments.timezones import format_event_time, zone_of

logger = logging.getLogger(__name__)

KINDS = {
    "confirmations": "A report waits for my confirmation",
    "disputes": "A report of my battle (or of an event I organize) is disputed",
    "verdicts": "The rules engine's verdict on a report of my battle",
    "pairings": "My battles of a new round, stage, playoff or season",
    "decisions": "A report of an event I organize waits for an organizer (nobody can answer it)",
}
# Mails about the account itself (an invitation to co-organize): nobody opts out of those, as the step
# waits for the user's answer.
ACCOUNT = "account"
# Audit actions whose step schedules new battles.
PAIRING_ACTIONS = {"groups formed", "final group formed", "playoff scheduled", "battle scheduled",
                   "round paired", "top cut started", "top cut round paired"}


# --- preferences ------------------------------------------------------------------------------------

def settings_of(user) -> NotificationSettings:
    """The user's choices (all on for a user who never changed them); not saved until changed. Read
    with the user when they were (`select_related("notification_settings")`, as `verdict_given` does)."""
    # Read through `_state`, which a lazy `request.user` hands on to the user it wraps.
    cached = getattr(getattr(user, "_state", None), "fields_cache", {})
    key = get_user_model().notification_settings.related.get_accessor_name()  # its cache name too
    # A cached None: the user has no row.
    found = cached[key] if key in cached else NotificationSettings.objects.filter(user=user).first()
    return found or NotificationSettings(user=user)


def update_settings(user, **choices) -> NotificationSettings:
    unknown = set(choices) - set(NotificationSettings.KINDS)
    if unknown:
        raise ValueError(f"Unknown notification kind {sorted(unknown)[0]!r}.")
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    for kind, value in choices.items():
        setattr(prefs, kind, bool(value))
    prefs.save()
    return prefs


# --- sending ----------------------------------------------------------------------------------------

def site_url(path):
    return settings.OPP_SITE_URL.rstrip("/") + path


def _footer():
    return ("\n\n--\nWARLINE Organized Play. You get this email because of your account's notification "
            f"settings; choose which emails you get: {site_url(reverse('my-notifications'))}\n")


def one_line(text) -> str:
    """Text fit for a mail header: control characters and line or paragraph separators become spaces,
    runs of spaces one. An event or general name with a line break would otherwise make the mail library
    refuse the header (BadHeaderError), and no mail of that event would go."""
    cleaned = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in str(text))
    return " ".join(cleaned.split())


def deliver(user, kinds, key, subject, body) -> bool:
    """Mails `user` once for `key`, as the first of `kinds` they want; False when nothing was sent.
    Inside `one_batch` the mail joins the batch (True: it will be tried) and goes when the batch ends.
    The subject is made one clean line here, whatever names it holds."""
    if user is None or not getattr(user, "email", "") or not user.is_active:
        return False
    prefs = settings_of(user)
    kind = next((kind for kind in kinds if kind == ACCOUNT or prefs.wants(kind)), None)
    if kind is None:
        return False
    mail = (Notification(user=user, kind=kind, key=key[:80], subject=one_line(subject)[:200]), body)
    batch = _batch.get()
    if batch is not None:
        batch.append(mail)
        return True
    return bool(_send([mail]))


_batch: ContextVar[list | None] = ContextVar("notifications_batch", default=None)


@contextmanager
def one_batch():
    """The mails of one happening (a verdict: the request to confirm and the verdict; a dispute: the
    generals and the organizers) are claimed in one INSERT and marked sent in one UPDATE: two
    commits, not two a mail (docs/performance.md, section 4). Nested batches are the outer one."""
    if _batch.get() is not None:
        yield
        return
    mails = []
    token = _batch.set(mails)
    try:
        yield
    finally:
        _batch.reset(token)
        _send(mails)


def _claim_keys(notes):
    """Claims the keys first, a Notification row each, so two processes never both mail one key;
    returns the notes claimed here. One INSERT for all; if a key was claimed already, each on its own."""
    try:
        with transaction.atomic():  # a savepoint inside a transaction: a refused claim leaves it usable
            claimed = Notification.objects.bulk_create(notes)
        if all(note.pk is not None for note in claimed):
            return claimed
    except IntegrityError:
        pass
    claimed = []
    for note in notes:
        try:
            with transaction.atomic():
                claimed.append(Notification.objects.create(user=note.user, kind=note.kind, key=note.key,
                                                           subject=note.subject))
        except IntegrityError:
            continue
    return claimed


def _send(mails):
    """Claims, sends and marks sent a list of (Notification not saved, body); the number sent."""
    if not mails:
        return 0
    bodies = {(note.user_id, note.key): body for note, body in mails}
    sent = []
    for note in _claim_keys([note for note, _body in mails]):
        try:
            send_mail(note.subject, bodies[note.user_id, note.key] + _footer(), settings.DEFAULT_FROM_EMAIL,
                      [note.user.email])
        except Exception as error:  # noqa: BLE001 - any mail server failure; the step that caused it stands
            logger.warning("notification %s to %s not sent: %s", note.key, note.user.get_username(), error)
            Notification.objects.filter(pk=note.pk).update(error=f"{type(error).__name__}: {error}"[:300])
            continue
        sent.append(note.pk)
    if sent:
        Notification.objects.filter(pk__in=sent).update(sent=True)
    return len(sent)


def _after_commit(function, *args):
    transaction.on_commit(partial(_safely, function, *args), robust=True)


def _safely(function, *args):
    try:
        function(*args)
    except Exception:  # noqa: BLE001 - a notification never breaks anything
        logger.exception("notification %s%r failed", function.__name__, args)


# --- what the mails say -----------------------------------------------------------------------------

def _where(battle):
    if battle.swiss_round_id:
        return f"{battle.swiss_round}, table {battle.number}"
    where = battle.group.name if battle.group_id else (battle.season.name if battle.season_id else "")
    if battle.playoff:
        label = "playoff"
    elif battle.season_id:
        label = f"battle {battle.number}"
    else:
        label = f"round {battle.round}, battle {battle.number}"
    return f"{where}, {label}" if where else label


def _battle_line(battle):
    return f"{battle.general_a.name} v {battle.general_b.name} ({_where(battle)})"


def _battle_url(battle):
    return site_url(reverse("battle-detail", args=[battle.pk]))


def _verdict_sentence(report, adjudication=None):
    if adjudication is None:
        adjudication = Adjudication.objects.filter(report=report).first()
    if adjudication is None or adjudication.state != Adjudication.State.DONE or not adjudication.verdict:
        return ""
    verdict = adjudication.verdict
    if not verdict.get("valid", True):
        error = verdict.get("error") or {}
        return f"The rules engine finds the replay invalid at turn {error.get('turn')}: {error.get('message', '')}"
    if adjudication.agrees:
        return "The rules engine checked the replay: it agrees with the report."
    return f"The rules engine disagrees with the report: {adjudication.disagreement}"


def _report_of(report_id):
    return (Report.objects.select_related("battle", "battle__event", "battle__group", "battle__season",
                                          "battle__general_a__user", "battle__general_b__user", "winner",
                                          "forfeited_by", "reported_by")
            .filter(pk=report_id).first())


def _reporter_and_opponent(report):
    battle = report.battle
    for general, other in ((battle.general_a, battle.general_b), (battle.general_b, battle.general_a)):
        if general.user_id is not None and general.user_id == report.reported_by_id:
            return general, other
    return None, None


# --- the happenings ---------------------------------------------------------------------------------

def report_waiting(report_id, *, report=None, adjudication=None):
    """A general's report waits for the opponent: they are asked to confirm or dispute it. `report`
    and `adjudication` (as `verdict_given` has them) spare reading them again."""
    report = report or _report_of(report_id)
    if report is None or report.status not in Report.AWAITING_STATUSES:
        return
    reporter, opponent = _reporter_and_opponent(report)
    if opponent is None:
        return
    if trust.cannot_answer(opponent):
        report_needs_organizer(report)
        return
    battle, event = report.battle, report.battle.event
    lines = [f"{reporter.name} reported the result of your battle in {event.name}:",
             f"  {_battle_line(battle)}", f"  Result: {report_claim_text(report)}"]
    verdict = _verdict_sentence(report, adjudication) if report.status == Report.Status.CHECKED else ""
    if verdict:
        lines.append(f"  {verdict}")
    lines += ["", f"Confirm it if it is right, or dispute it and say why: {_battle_url(battle)}"]
    if report.confirm_by:
        left = timeuntil(report.confirm_by, timezone.now())
        lines.append(f"It counts by itself at {format_event_time(report.confirm_by, event)} (in {left}) "
                     "unless you dispute it.")
    kinds = ["confirmations", "verdicts"] if verdict else ["confirmations"]
    deliver(opponent.user, kinds, f"report:{report.pk}:waiting",
            f"[{event.name}] Confirm the result: {battle.general_a.name} v {battle.general_b.name}",
            "\n".join(lines))


@one_batch()  # its mails in one claim and one mark
def report_needs_organizer(report):
    """Nobody can answer a general's report (an unclaimed general, an unreachable player): the event's
    organizers hear that it waits for them, since the confirmation window never counts it."""
    reporter, opponent = _reporter_and_opponent(report)
    battle, event = report.battle, report.battle.event
    body = "\n".join([f"{reporter.name} reported the result of a battle in {event.name}:",
                      f"  {_battle_line(battle)}", f"  Result: {report_claim_text(report)}",
                      f"  {trust.cannot_answer(opponent)}", "",
                      f"Confirm it, or decide the result with a reason: {_battle_url(battle)}"])
    subject = f"[{event.name}] Decide: {battle.general_a.name} v {battle.general_b.name}"
    for organizer in event.organizers.select_related("notification_settings"):
        if organizer.pk != report.reported_by_id:
            deliver(organizer, ["decisions"], f"report:{report.pk}:organizer", subject, body)


def _with_players(report):
    """Sets the players (with their notification settings) on the battle's two generals of a report
    the job read without them: one query."""
    battle = report.battle
    users = {user.pk: user for user in get_user_model().objects.select_related("notification_settings").filter(
        pk__in=[general.user_id for general in battle.generals() if general.user_id is not None])}
    for general in battle.generals():
        if general.user_id in users:
            general.user = users[general.user_id]
    return report


@one_batch()  # its mails in one claim and one mark
def verdict_given(adjudication_id, adjudication=None, report=None):
    """The engine's verdict is in: the two generals hear it (the opponent of an agreeing report in
    the request to confirm; both generals of a contradicted one in the dispute mail). The job passes
    the adjudication and the report as it wrote them (`outbox.verdict_written`); without them both are read."""
    if adjudication is None or report is None:
        adjudication = Adjudication.objects.filter(pk=adjudication_id, state=Adjudication.State.DONE).first()
        if adjudication is None:
            return
        report = _report_of(adjudication.report_id)
        if report is None:
            return
    else:
        report = _with_players(report)
    if (report.status == Report.Status.DISPUTED and adjudication.agrees is False
            and report.status_reason == adjudication.disagreement):
        report_disputed(report.pk, by_engine=True, report=report)  # the dispute mail names the verdict
        return
    battle, event = report.battle, report.battle.event
    skip = None
    if report.status == Report.Status.CHECKED:
        report_waiting(report.pk, report=report, adjudication=adjudication)  # the opponent: confirm, with the verdict
        skip = _reporter_and_opponent(report)[1]
    sentence = _verdict_sentence(report, adjudication)
    body = "\n".join([f"The rules engine adjudicated the replay of your battle in {event.name}:",
                      f"  {_battle_line(battle)}", f"  Reported: {report_claim_text(report)} ({report.get_status_display()})",
                      f"  {sentence}", "", f"The battle's page: {_battle_url(battle)}"])
    for general in battle.generals():
        if general.user_id is not None and general != skip:
            deliver(general.user, ["verdicts"], f"report:{report.pk}:verdict",
                    f"[{event.name}] Verdict: {battle.general_a.name} v {battle.general_b.name}", body)


@one_batch()  # its mails in one claim and one mark
def report_disputed(report_id, *, by_engine=False, report=None):
    """A report is disputed (by the opponent, or by the engine's verdict): both generals and the
    event's organizers hear why. `report` (as `verdict_given` has it) spares reading it again."""
    report = report or _report_of(report_id)
    if report is None or report.status != Report.Status.DISPUTED:
        return
    battle, event = report.battle, report.battle.event
    if by_engine:
        who = "The rules engine"
    else:
        who = report.answered_by.get_username() if report.answered_by_id else "The opponent"
        answering = trust.general_of(report.answered_by)
        who = answering.name if answering is not None else who
    reporter, _ = _reporter_and_opponent(report)
    lines = [f"{who} disputed a report of a battle in {event.name}:", f"  {_battle_line(battle)}",
             f"  Reported by {reporter.name if reporter else 'an organizer'}: {report_claim_text(report)}",
             f"  Why: {report.status_reason}"]
    if report.dispute_turn is not None:
        lines.append(f"  At turn {report.dispute_turn} of the replay.")
    lines += ["", "An organizer decides the result.", f"The battle's page: {_battle_url(battle)}"]
    body = "\n".join(lines)
    subject = f"[{event.name}] Disputed: {battle.general_a.name} v {battle.general_b.name}"
    general_kinds = ["disputes", "verdicts"] if by_engine else ["disputes"]
    users = {}
    for general in battle.generals():
        if general.user_id is not None:
            users[general.user_id] = (general.user, general_kinds)
    for organizer in event.organizers.select_related("notification_settings"):
        users.setdefault(organizer.pk, (organizer, ["disputes"]))
    for user, kinds in users.values():
        deliver(user, kinds, f"report:{report.pk}:disputed", subject, body)


def pairings_made(event_id):
    """New battles to play: each general hears of theirs, once per battle."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    if event.table_size > 2:
        tables_seated(event)
    battles = (event.battles.filter(kind="", reports__isnull=True)
               .select_related("group", "season", "swiss_round", "general_a__user", "general_b__user")
               .order_by("group__stage", "group__index", "season__number", "playoff", "round", "number"))
    mine = {}
    for battle in battles:
        for general in battle.generals():
            if general.user_id is not None and general.user.email:
                mine.setdefault(general.user_id, (general, []))[1].append(battle)
    known = set(Notification.objects.filter(user_id__in=list(mine), key__startswith="battle:",
                                            key__endswith=":pairing").values_list("user_id", "key"))
    for user_id, (general, battles_of_user) in mine.items():
        new = [b for b in battles_of_user if (user_id, f"battle:{b.pk}:pairing") not in known]
        if not new:
            continue
        lines = [f"New battles for {general.name} in {event.name}:"]
        for battle in new:
            opponent = battle.opponent_of(general)
            lines.append(f"  {_where(battle)}: v {opponent.name} - {_battle_url(battle)}")
        lines += ["", f"The event: {site_url(reverse('event-detail', args=[event.slug]))}",
                  f"Times of the event are in {zone_of(event).key}."]
        subject = (f"[{event.name}] Your battle: {general.name} v {new[0].opponent_of(general).name}"
                   if len(new) == 1 else f"[{event.name}] Your {len(new)} new battles")
        # One mail for all of them, keyed by the first; the others are noted as mailed with it.
        if deliver(general.user, ["pairings"], f"battle:{new[0].pk}:pairing", subject, "\n".join(lines)):
            kind = "pairings"
            Notification.objects.bulk_create(
                [Notification(user=general.user, kind=kind, key=f"battle:{b.pk}:pairing", subject=subject,
                              sent=True) for b in new[1:]], ignore_conflicts=True)


def tables_seated(event):
    """A multiplayer round (Warlord CCG tables): each seated player hears of their table, once."""
    tables = (Table.objects.filter(event=event, finished__isnull=True, reports__isnull=True)
              .select_related("swiss_round").prefetch_related("seats__general__user"))
    for table in tables:
        seated = [seat.general for seat in table.seats.all()]
        for general in seated:
            if general.user_id is None:
                continue
            others = ", ".join(other.name for other in seated if other.pk != general.pk)
            subject = f"[{event.name}] Your table: {table.swiss_round}, table {table.number}"
            body = (f"{general.name} plays at {table.swiss_round}, table {table.number}, with {others}.\n"
                    f"{site_url(reverse('table-detail', args=[table.pk]))}\n\n"
                    f"The event: {site_url(reverse('event-detail', args=[event.slug]))}")
            deliver(general.user, ["pairings"], f"table:{table.pk}:seat:{general.pk}", subject, body)


def table_report_waiting(report_id):
    """A table's report waits for the other players at the table: each hears of it, with its deadline."""
    report = (TableReport.objects.filter(pk=report_id, status=TableReport.Status.AWAITING)
              .select_related("table__event", "table__swiss_round", "reported_by").first())
    if report is None:
        return
    table, event = report.table, report.table.event
    seated = [seat.general for seat in table.seats.select_related("general__user")]
    result = result_text(table, report.eliminations, report.finished)
    deadline = (f"It counts by itself at {format_event_time(report.confirm_by, event)} unless disputed."
                if report.confirm_by else "An organizer decides it.")
    for general in seated:
        if general.pk in report.confirmed_by or general.user_id is None:
            continue
        subject = f"[{event.name}] Confirm the result of {table.swiss_round}, table {table.number}"
        body = (f"The result reported for {table.swiss_round}, table {table.number}: {result}.\n{deadline}\n"
                f"Confirm or dispute it: {site_url(reverse('table-detail', args=[table.pk]))}")
        deliver(general.user, ["confirmations"], f"table-report:{report.pk}:{general.pk}", subject, body)


def organizer_invited(invitation_id):
    """The invited account hears of an invitation to co-organize, with the page to answer it."""
    invitation = (OrganizerInvitation.objects.filter(pk=invitation_id, status=OrganizerInvitation.Status.PENDING)
                  .select_related("event", "user", "invited_by").first())
    if invitation is None:
        return
    event, who = invitation.event, (invitation.invited_by.get_username() if invitation.invited_by_id else "An organizer")
    subject = f"[{event.name}] {who} invites you to co-organize"
    body = (f"{who} invites you to co-organize {event.name}. You organize it only once you accept:\n"
            f"{site_url(reverse('organizer-invitation', args=[invitation.pk]))}\n\n"
            "If you do not know this event, decline or ignore this mail: nothing changes until you accept.")
    deliver(invitation.user, [ACCOUNT], f"organizer-invitation:{invitation.pk}", subject, body)


# --- the receivers ----------------------------------------------------------------------------------

def _status_written(created, update_fields):
    return created or update_fields is None or "status" in update_fields


@receiver(post_save, sender=Report, dispatch_uid="notifications.report_saved")
def report_saved(sender, instance, created, update_fields=None, raw=False, **kwargs):
    if raw or not _status_written(created, update_fields):
        return
    if instance.status == Report.Status.AWAITING_OPPONENT or (
            instance.status == Report.Status.CHECKED and instance.confirm_by is None):
        _after_commit(report_waiting, instance.pk)  # to the opponent, or to the organizers when nobody can answer
    elif instance.status == Report.Status.DISPUTED and instance.answered_by_id is not None:
        # A general disputed it (the engine's disputes go out with its verdict, below).
        _after_commit(report_disputed, instance.pk)


@receiver(post_save, sender=TableReport, dispatch_uid="notifications.table_report_saved")
def table_report_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw and instance.status == TableReport.Status.AWAITING:
        _after_commit(table_report_waiting, instance.pk)


@receiver(post_init, sender=Adjudication, dispatch_uid="notifications.adjudication_loaded")
def adjudication_loaded(sender, instance, **kwargs):
    instance._state_when_loaded = instance.state


@receiver(post_save, sender=Adjudication, dispatch_uid="notifications.adjudication_saved")
def adjudication_saved(sender, instance, raw=False, **kwargs):
    # Only the run that finishes it: re-adjudications of a done one (`readjudicate`) mail nobody.
    if not raw and instance.state == Adjudication.State.DONE and instance._state_when_loaded != instance.state:
        _after_commit(verdict_given, instance.pk)
    instance._state_when_loaded = instance.state


@receiver(outbox.verdict_written, dispatch_uid="notifications.verdict_written")
def verdict_written(sender, adjudication, report, **kwargs):
    # The job writes with conditional UPDATEs (no post_save) and passes what it wrote.
    _after_commit(verdict_given, adjudication.pk, adjudication, report)


@receiver(post_save, sender=AuditEntry, dispatch_uid="notifications.audit_written")
def audit_written(sender, instance, created, raw=False, **kwargs):
    if created and not raw and instance.action in PAIRING_ACTIONS:
        _after_commit(pairings_made, instance.event_id)


@receiver(post_save, sender="tournaments.OrganizerInvitation", dispatch_uid="notifications.organizer_invited")
def organizer_invitation_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        _after_commit(organizer_invited, instance.pk)
