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
status, an adjudication finishing, the audit entries of new pairings) and compose the mails at once,
inside the step's transaction, into the mail outbox (`tournaments.mailing`): a rolled-back step mails
nobody, a committed one has its mails as rows, sent by a job after the commit, tried again when the
mail server fails. No step waits for the mail server, and a fault while composing never breaks the
step (it is logged). Each thing is mailed at most once to each user (`Notification.key`), a user gets
one mail per happening (the opponent of a checked report gets the request to confirm, which names the
verdict, not two mails), and users without an email address or who opted out get none. A request to
confirm that is answered within the same step, or before the mail went, is withdrawn, never sent.

Each mail is written in its reader's language (`NotificationSettings.language`, else the site's), not in
that of the request that caused it: `deliver` calls the happening's `compose` inside the reader's language
(tournaments.mailing.language), so one dispute reaches a German general in German and the organizer in
English (docs/mail_language.md).
"""
from __future__ import annotations

import logging
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_init, post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import trust
from tournaments.mailing.language import per_language, settings_footer, written_in
from tournaments.mailing.outbox import compose_safely, queue_mails, withdraw
from tournaments.models import (
    Adjudication,
    AuditEntry,
    Event,
    General,
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
    "confirmations": gettext_lazy("A report waits for my confirmation"),
    "disputes": gettext_lazy("A report of my battle (or of an event I organize) is disputed"),
    "verdicts": gettext_lazy("The rules engine's verdict on a report of my battle"),
    "pairings": gettext_lazy("My battles of a new round, stage, playoff or season"),
    "decisions": gettext_lazy("A report of an event I organize waits for an organizer (nobody can answer it)"),
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
    prefs, _created = NotificationSettings.objects.get_or_create(user=user)
    for kind, value in choices.items():
        setattr(prefs, kind, bool(value))
    prefs.save()
    return prefs


# --- sending ----------------------------------------------------------------------------------------

def site_url(path):
    return settings.OPP_SITE_URL.rstrip("/") + path


def one_line(text) -> str:
    """Text fit for a mail header: control characters and line or paragraph separators become spaces,
    runs of spaces one. An event or general name with a line break would otherwise make the mail library
    refuse the header (BadHeaderError), and no mail of that event would go."""
    cleaned = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in str(text))
    return " ".join(cleaned.split())


def deliver(user, kinds, key, compose) -> Notification | None:
    """Queues a mail to `user` once for `key`, as the first of `kinds` they want: its row (not saved yet
    inside `one_batch`, where it joins the batch and is queued when the batch ends), or None when nothing
    was queued. `compose()` gives the subject and the body; it is called in the user's language (their
    settings' `language`, else the site's), and the footer follows in the same. The subject is made one
    clean line here, whatever names it holds."""
    if user is None or not getattr(user, "email", "") or not user.is_active:
        return None
    prefs = settings_of(user)
    kind = next((kind for kind in kinds if kind == ACCOUNT or prefs.wants(kind)), None)
    if kind is None:
        return None
    with written_in(prefs.language):
        subject, body = compose()
        body += settings_footer(site_url(reverse("my-notifications")))
    note = Notification(user=user, kind=kind, key=key[:80], subject=one_line(subject)[:200])
    batch = _batch.get()
    if batch is not None:
        batch.append((note, body))
        return note
    return note if queue_mails([(note, body)]) else None


_batch: ContextVar[list | None] = ContextVar("notifications_batch", default=None)


@contextmanager
def one_batch():
    """The mails of one happening (a verdict: the request to confirm and the verdict; a dispute: the
    generals and the organizers; a round's pairings) are queued in one INSERT and go in one job, over
    one connection to the mail server (docs/performance.md, section 4). Nested batches are the outer
    one. A happening that fails while composing queues none of its mails."""
    if _batch.get() is not None:
        yield
        return
    mails = []
    token = _batch.set(mails)
    try:
        yield
    finally:
        _batch.reset(token)
    queue_mails(mails)


def _compose(function, *args, **kwargs):
    """Composes and queues a happening's mails now, inside the step's transaction, in a savepoint: a
    fault (a bug, a refused statement) is logged and rolls back only the mails, never the step."""
    try:
        compose_safely(function, *args, **kwargs)
    except Exception:  # noqa: BLE001 - a notification never breaks anything
        logger.exception("notification %s%r failed", function.__name__, args)


# --- what the mails say -----------------------------------------------------------------------------
# Each sentence is a whole one with named places, written in the reader's language when `deliver` calls
# the happening's `compose`. Names, the engine's and the records' own words (a report's claim, its status,
# a dispute's reason) go in as they are.

def _where(battle):
    if battle.swiss_round_id:
        return _("%(round)s, table %(table)s") % {"round": battle.swiss_round, "table": battle.number}
    where = battle.group.name if battle.group_id else (battle.season.name if battle.season_id else "")
    if battle.playoff:
        label = _("playoff")
    elif battle.season_id:
        label = _("battle %(number)s") % {"number": battle.number}
    else:
        label = _("round %(round)s, battle %(number)s") % {"round": battle.round, "number": battle.number}
    return f"{where}, {label}" if where else label


def _versus(battle):
    return _("%(general_a)s v %(general_b)s") % {"general_a": battle.general_a.name,
                                                   "general_b": battle.general_b.name}


def _battle_line(battle):
    return f"{_versus(battle)} ({_where(battle)})"


def _battle_url(battle):
    return site_url(reverse("battle-detail", args=[battle.pk]))


def _event_url(event):
    return site_url(reverse("event-detail", args=[event.slug]))


def _adjudication_of(report, adjudication=None):
    """The report's finished adjudication with a verdict, or None."""
    if adjudication is None:
        adjudication = Adjudication.objects.filter(report=report).first()
    if adjudication is None or adjudication.state != Adjudication.State.DONE or not adjudication.verdict:
        return None
    return adjudication


def _verdict_sentence(adjudication):
    """The engine's verdict in a sentence ("" without one); the engine's own error stays in its words."""
    if adjudication is None:
        return ""
    verdict = adjudication.verdict
    if not verdict.get("valid", True):
        error = verdict.get("error") or {}
        return (_("The rules engine finds the replay invalid at turn %(turn)s: %(problem)s")
                % {"turn": error.get("turn"), "problem": error.get("message", "")})
    if adjudication.agrees:
        return _("The rules engine checked the replay: it agrees with the report.")
    return _("The rules engine disagrees with the report: %(why)s") % {"why": adjudication.disagreement}


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
    checked = _adjudication_of(report, adjudication) if report.status == Report.Status.CHECKED else None

    def compose():
        lines = [_("%(reporter)s reported the result of your battle in %(event)s:")
                 % {"reporter": reporter.name, "event": event.name},
                 f"  {_battle_line(battle)}", "  " + _("Result: %(result)s") % {"result": report_claim_text(report)}]
        if checked is not None:
            lines.append(f"  {_verdict_sentence(checked)}")
        lines += ["", _("Confirm it if it is right, or dispute it and say why: %(url)s") % {"url": _battle_url(battle)}]
        if report.confirm_by:
            lines.append(_("It counts by itself at %(time)s (in %(left)s) unless you dispute it.") % {
                "time": format_event_time(report.confirm_by, event), "left": timeuntil(report.confirm_by, timezone.now())})
        subject = _("[%(event)s] Confirm the result: %(battle)s") % {"event": event.name, "battle": _versus(battle)}
        return subject, "\n".join(lines)

    kinds = ["confirmations", "verdicts"] if checked is not None else ["confirmations"]
    deliver(opponent.user, kinds, f"report:{report.pk}:waiting", compose)


@one_batch()  # its mails in one claim and one mark
def report_needs_organizer(report):
    """Nobody can answer a general's report (an unclaimed general, an unreachable player): the event's
    organizers hear that it waits for them, since the confirmation window never counts it."""
    reporter, opponent = _reporter_and_opponent(report)
    battle, event = report.battle, report.battle.event

    @per_language
    def compose():
        body = "\n".join([_("%(reporter)s reported the result of a battle in %(event)s:")
                          % {"reporter": reporter.name, "event": event.name},
                          f"  {_battle_line(battle)}", "  " + _("Result: %(result)s") % {"result": report_claim_text(report)},
                          f"  {trust.cannot_answer(opponent)}", "",
                          _("Confirm it, or decide the result with a reason: %(url)s") % {"url": _battle_url(battle)}])
        return _("[%(event)s] Decide: %(battle)s") % {"event": event.name, "battle": _versus(battle)}, body

    for organizer in event.organizers.select_related("notification_settings"):
        if organizer.pk != report.reported_by_id:
            deliver(organizer, ["decisions"], f"report:{report.pk}:organizer", compose)


def _with_players(report):
    """Sets the players (with their notification settings) on the battle's two generals of a report
    the job read without them: one query (none when the job read them already, `results.job_sql`)."""
    battle = report.battle
    if all(general.user_id is None or General.user.is_cached(general) for general in battle.generals()):
        return report
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
    verdict = _adjudication_of(report, adjudication)

    @per_language
    def compose():
        body = "\n".join([
            _("The rules engine adjudicated the replay of your battle in %(event)s:") % {"event": event.name},
            f"  {_battle_line(battle)}",
            "  " + _("Reported: %(result)s (%(status)s)") % {"result": report_claim_text(report),
                                                            "status": report.get_status_display()},
            f"  {_verdict_sentence(verdict)}", "", _("The battle's page: %(url)s") % {"url": _battle_url(battle)}])
        return _("[%(event)s] Verdict: %(battle)s") % {"event": event.name, "battle": _versus(battle)}, body

    for general in battle.generals():
        if general.user_id is not None and general != skip:
            deliver(general.user, ["verdicts"], f"report:{report.pk}:verdict", compose)


@one_batch()  # its mails in one claim and one mark
def report_disputed(report_id, *, by_engine=False, report=None):
    """A report is disputed (by the opponent, or by the engine's verdict): both generals and the
    event's organizers hear why. `report` (as `verdict_given` has it) spares reading it again."""
    report = report or _report_of(report_id)
    if report is None or report.status != Report.Status.DISPUTED:
        return
    battle, event = report.battle, report.battle.event
    who = None  # the name of whoever disputed it; None: the engine, or an opponent without a name to show
    if not by_engine:
        answering = trust.general_of(report.answered_by) if report.answered_by_id else None
        if answering is not None:
            who = answering.name
        elif report.answered_by_id:
            who = report.answered_by.get_username()
    reporter, _opponent = _reporter_and_opponent(report)

    @per_language
    def compose():
        if by_engine:
            opening = _("The rules engine disputed a report of a battle in %(event)s:") % {"event": event.name}
        else:
            opening = (_("%(who)s disputed a report of a battle in %(event)s:")
                       % {"who": who or _("The opponent"), "event": event.name})
        lines = [opening, f"  {_battle_line(battle)}",
                 "  " + _("Reported by %(reporter)s: %(result)s")
                 # Translators: who reported, after "Reported by" (German: "von einem Organisator").
                 % {"reporter": reporter.name if reporter else _("an organizer"), "result": report_claim_text(report)},
                 "  " + _("Why: %(reason)s") % {"reason": report.status_reason}]
        if report.dispute_turn is not None:
            lines.append("  " + _("At turn %(turn)s of the replay.") % {"turn": report.dispute_turn})
        lines += ["", _("An organizer decides the result."), _("The battle's page: %(url)s") % {"url": _battle_url(battle)}]
        return _("[%(event)s] Disputed: %(battle)s") % {"event": event.name, "battle": _versus(battle)}, "\n".join(lines)

    general_kinds = ["disputes", "verdicts"] if by_engine else ["disputes"]
    users = {}
    for general in battle.generals():
        if general.user_id is not None:
            users[general.user_id] = (general.user, general_kinds)
    for organizer in event.organizers.select_related("notification_settings"):
        users.setdefault(organizer.pk, (organizer, ["disputes"]))
    for user, kinds in users.values():
        deliver(user, kinds, f"report:{report.pk}:disputed", compose)


@one_batch()  # a round's mails in one INSERT and one job
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

        def compose(general=general, new=new):
            lines = [_("New battles for %(general)s in %(event)s:") % {"general": general.name, "event": event.name}]
            for battle in new:
                lines.append("  " + _("%(where)s: v %(opponent)s - %(url)s") % {
                    "where": _where(battle), "opponent": battle.opponent_of(general).name, "url": _battle_url(battle)})
            lines += ["", _("The event: %(url)s") % {"url": _event_url(event)},
                      _("Times of the event are in %(zone)s.") % {"zone": zone_of(event).key}]
            if len(new) == 1:
                subject = (_("[%(event)s] Your battle: %(general)s v %(opponent)s")
                           % {"event": event.name, "general": general.name, "opponent": new[0].opponent_of(general).name})
            else:
                subject = (ngettext("[%(event)s] Your %(count)d new battle", "[%(event)s] Your %(count)d new battles",
                                    len(new)) % {"event": event.name, "count": len(new)})
            return subject, "\n".join(lines)

        # One mail for all of them, keyed by the first; the others are noted as mailed with it.
        mailed = deliver(general.user, ["pairings"], f"battle:{new[0].pk}:pairing", compose)
        if mailed:
            Notification.objects.bulk_create(
                [Notification(user=general.user, kind=mailed.kind, key=f"battle:{b.pk}:pairing", subject=mailed.subject,
                              sent=True, body=f"Mailed with battle:{new[0].pk}:pairing.") for b in new[1:]],
                ignore_conflicts=True)


def tables_seated(event):
    """A multiplayer round (Warlord CCG tables): each seated player hears of their table, once."""
    tables = (Table.objects.filter(event=event, finished__isnull=True, reports__isnull=True)
              .select_related("swiss_round").prefetch_related("seats__general__user"))
    for table in tables:
        seated = [seat.general for seat in table.seats.all()]
        for general in seated:
            if general.user_id is None:
                continue

            def compose(table=table, general=general, seated=seated):
                where = {"round": table.swiss_round, "table": table.number}
                others = ", ".join(other.name for other in seated if other.pk != general.pk)
                subject = _("[%(event)s] Your table: %(round)s, table %(table)s") % {"event": event.name, **where}
                body = "\n".join([
                    _("%(general)s plays at %(round)s, table %(table)s, with %(others)s.")
                    % {"general": general.name, "others": others, **where},
                    site_url(reverse("table-detail", args=[table.pk])), "",
                    _("The event: %(url)s") % {"url": _event_url(event)}])
                return subject, body

            deliver(general.user, ["pairings"], f"table:{table.pk}:seat:{general.pk}", compose)


def table_report_waiting(report_id):
    """A table's report waits for the other players at the table: each hears of it, with its deadline."""
    report = (TableReport.objects.filter(pk=report_id, status=TableReport.Status.AWAITING)
              .select_related("table__event", "table__swiss_round", "reported_by").first())
    if report is None:
        return
    table, event = report.table, report.table.event
    seated = [seat.general for seat in table.seats.select_related("general__user")]

    @per_language
    def compose():
        result = result_text(table, report.eliminations, report.finished)  # in the reader's words
        where = {"round": table.swiss_round, "table": table.number}
        if report.confirm_by:
            deadline = (_("It counts by itself at %(time)s unless disputed.")
                        % {"time": format_event_time(report.confirm_by, event)})
        else:
            deadline = _("An organizer decides it.")
        subject = _("[%(event)s] Confirm the result of %(round)s, table %(table)s") % {"event": event.name, **where}
        body = "\n".join([
            _("The result reported for %(round)s, table %(table)s: %(result)s.") % {"result": result, **where},
            deadline,
            _("Confirm or dispute it: %(url)s") % {"url": site_url(reverse("table-detail", args=[table.pk]))}])
        return subject, body

    for general in seated:
        if general.pk in report.confirmed_by or general.user_id is None:
            continue
        deliver(general.user, ["confirmations"], f"table-report:{report.pk}:{general.pk}", compose)


def organizer_invited(invitation_id):
    """The invited account hears of an invitation to co-organize, with the page to answer it."""
    invitation = (OrganizerInvitation.objects.filter(pk=invitation_id, status=OrganizerInvitation.Status.PENDING)
                  .select_related("event", "user", "invited_by").first())
    if invitation is None:
        return
    event = invitation.event

    def compose():
        who = invitation.invited_by.get_username() if invitation.invited_by_id else _("An organizer")
        subject = _("[%(event)s] %(who)s invites you to co-organize") % {"event": event.name, "who": who}
        body = "\n".join([
            _("%(who)s invites you to co-organize %(event)s. You organize it only once you accept:")
            % {"who": who, "event": event.name},
            site_url(reverse("organizer-invitation", args=[invitation.pk])), "",
            _("If you do not know this event, decline or ignore this mail: nothing changes until you accept.")])
        return subject, body

    deliver(invitation.user, [ACCOUNT], f"organizer-invitation:{invitation.pk}", compose)


# --- the receivers ----------------------------------------------------------------------------------

def _status_written(created, update_fields):
    return created or update_fields is None or "status" in update_fields


ANSWERED = "the report was answered (or replaced) before the mail went."


@receiver(post_save, sender=Report, dispatch_uid="notifications.report_saved")
def report_saved(sender, instance, created, update_fields=None, raw=False, **kwargs):
    if raw or not _status_written(created, update_fields):
        return
    if not created and instance.status not in Report.AWAITING_STATUSES:
        # Composed at once, a request to confirm may be answered later in the same step (a report that
        # answers the opponent's, an organizer's that counts at once) or before the job sent it.
        _compose(withdraw, ANSWERED, keys=[f"report:{instance.pk}:waiting", f"report:{instance.pk}:organizer"])
    if instance.status == Report.Status.AWAITING_OPPONENT or (
            instance.status == Report.Status.CHECKED and instance.confirm_by is None):
        _compose(report_waiting, instance.pk)  # to the opponent, or to the organizers when nobody can answer
    elif instance.status == Report.Status.DISPUTED and instance.answered_by_id is not None:
        # A general disputed it (the engine's disputes go out with its verdict, below).
        _compose(report_disputed, instance.pk)


@receiver(post_save, sender=TableReport, dispatch_uid="notifications.table_report_saved")
def table_report_saved(sender, instance, created, update_fields=None, raw=False, **kwargs):
    if raw:
        return
    if created and instance.status == TableReport.Status.AWAITING:
        _compose(table_report_waiting, instance.pk)
    elif not created and _status_written(created, update_fields) and instance.status != TableReport.Status.AWAITING:
        _compose(withdraw, ANSWERED, key_prefix=f"table-report:{instance.pk}:")


@receiver(post_init, sender=Adjudication, dispatch_uid="notifications.adjudication_loaded")
def adjudication_loaded(sender, instance, **kwargs):
    instance._state_when_loaded = instance.state


@receiver(post_save, sender=Adjudication, dispatch_uid="notifications.adjudication_saved")
def adjudication_saved(sender, instance, raw=False, **kwargs):
    # Only the run that finishes it: re-adjudications of a done one (`readjudicate`) mail nobody.
    if not raw and instance.state == Adjudication.State.DONE and instance._state_when_loaded != instance.state:
        _compose(verdict_given, instance.pk)
    instance._state_when_loaded = instance.state


@receiver(outbox.verdict_written, dispatch_uid="notifications.verdict_written")
def verdict_written(sender, adjudication, report, **kwargs):
    # The job writes with conditional UPDATEs (no post_save) and passes what it wrote.
    _compose(verdict_given, adjudication.pk, adjudication, report)


@receiver(post_save, sender=AuditEntry, dispatch_uid="notifications.audit_written")
def audit_written(sender, instance, created, raw=False, **kwargs):
    if created and not raw and instance.action in PAIRING_ACTIONS:
        _compose(pairings_made, instance.event_id)


@receiver(post_save, sender="tournaments.OrganizerInvitation", dispatch_uid="notifications.organizer_invited")
def organizer_invitation_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        _compose(organizer_invited, instance.pk)
