"""Sending the queued mails: claim the due rows, send them over one connection, note what happened.

A row is claimed by one conditional UPDATE (due and not sent, its next try moved a lease ahead), so two
workers, or a worker and the sweep, never send one mail: the second finds nothing due. A row whose worker
died mid-way is due again when its lease ends. The row's `next_attempt_at` is the whole schedule: a
failure sets it one pause later (1, 2, 4 ... minutes up to a cap), and after the last try clears it with
the error kept (given up). Celery's own retry is not used: in the embedded default it would retry at once.

A failure of the server itself (it hangs, refuses the connection, hangs up) ends the batch: the mails
not tried yet wait for the next try with the same pause instead of each paying the timeout. A failure of
one message (an address refused) is that message's alone; a permanent refusal (5xx) is given up at once.
"""
from __future__ import annotations

import logging
import smtplib
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection as database
from django.utils import timezone

from opp.background import doubling_pause
from tournaments.models import Notification

logger = logging.getLogger(__name__)

GIVEN_UP = "Given up after {attempts} tries: "
REFUSED = "The mail server refused it for good: "


@dataclass
class Outcome:
    sent: int = 0
    failed: int = 0  # tried and to be tried again, or given up

    def __bool__(self):
        return bool(self.sent or self.failed)


def retry_delay(attempts: int) -> timedelta:
    """The pause after the `attempts`-th failed try: the first pause, doubled each time, up to the cap."""
    first, cap = settings.OPP_MAIL_RETRY_SECONDS, settings.OPP_MAIL_RETRY_MAX_SECONDS
    return doubling_pause(attempts, first, cap)


def due_ids(now=None, limit=None) -> list[int]:
    """The mails due now (never tried, or their pause over), the longest waiting first."""
    now = now or timezone.now()
    due = Notification.objects.filter(sent=False, next_attempt_at__lte=now).order_by("next_attempt_at", "pk")
    return list(due.values_list("pk", flat=True)[: limit or settings.OPP_MAIL_BATCH])


def claim(ids, now=None) -> list[Notification]:
    """Takes the due mails among `ids` for this job alone (each try counted) and returns them with their
    users. One UPDATE ... RETURNING: the database decides who claims a row, so a row is claimed once."""
    ids = [int(pk) for pk in ids]
    if not ids:
        return []
    now = now or timezone.now()
    lease_until = now + timedelta(seconds=settings.OPP_MAIL_LEASE_SECONDS)
    table, quote = Notification._meta.db_table, database.ops.quote_name
    adapt = database.ops.adapt_datetimefield_value
    sql = (f"UPDATE {quote(table)} SET {quote('next_attempt_at')} = %s, {quote('attempts')} = {quote('attempts')} + 1 "
           f"WHERE {quote('id')} IN ({', '.join(['%s'] * len(ids))}) AND {quote('sent')} = %s "
           f"AND {quote('next_attempt_at')} <= %s RETURNING {quote('id')}")
    with database.cursor() as cursor:
        cursor.execute(sql, [adapt(lease_until), *ids, False, adapt(now)])
        claimed = [row[0] for row in cursor.fetchall()]
    if not claimed:
        return []
    return list(Notification.objects.select_related("user").filter(pk__in=claimed).order_by("pk"))


def _server_down(error) -> bool:
    """True when the error is the server's, not one message's: the batch stops."""
    if isinstance(error, SoftTimeLimitExceeded):
        return True
    if isinstance(error, smtplib.SMTPServerDisconnected | smtplib.SMTPConnectError):
        return True
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code == 421  # "service not available, closing the channel"
    if isinstance(error, smtplib.SMTPException):
        return False
    return isinstance(error, OSError)  # refused, reset, timed out


def _refused_for_good(error) -> bool:
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return bool(error.recipients) and all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def _describe(error) -> str:
    return f"{type(error).__name__}: {error}"


def _note_failure(notes, error, now) -> None:
    """The failed mails wait for their next try, or are given up after the last (the error kept)."""
    text = _describe(error)
    plans = {}
    for note in notes:
        logger.warning("notification %s to %s not sent (try %s): %s", note.key, note.user.get_username(),
                       note.attempts, text)
        if _refused_for_good(error):
            plan = (None, (REFUSED + text)[:300])
        elif note.attempts >= settings.OPP_MAIL_MAX_ATTEMPTS:
            plan = (None, (GIVEN_UP.format(attempts=note.attempts) + text)[:300])
        else:
            plan = (now + retry_delay(note.attempts), text[:300])
        plans.setdefault(plan, []).append(note.pk)
    for (next_attempt_at, error_text), pks in plans.items():  # one UPDATE per outcome, usually one
        # Not a row withdrawn meanwhile (its next try cleared): it stays withdrawn.
        Notification.objects.filter(pk__in=pks, sent=False, next_attempt_at__isnull=False).update(
            next_attempt_at=next_attempt_at, error=error_text)


def _message(note) -> EmailMessage:
    return EmailMessage(note.subject, note.body, settings.DEFAULT_FROM_EMAIL, [note.user.email])


def send_claimed(notes, now=None) -> Outcome:
    """Sends claimed mails over one connection and notes each one's fate. `now`: when the try counts as
    made (the next one is a pause later); the clock's time unless given."""
    outcome, sent = Outcome(), []
    if not notes:
        return outcome
    addressed = [note for note in notes if note.user.email and note.user.is_active]
    gone = [note for note in notes if note not in addressed]
    if gone:  # the address was removed (or the account closed) after the mail was queued
        Notification.objects.filter(pk__in=[n.pk for n in gone]).update(
            next_attempt_at=None, error="Not sent: the account has no address any more.")
    mailer = get_connection()
    try:
        try:
            mailer.open()
        except Exception as error:  # noqa: BLE001 - whatever the backend raises: nothing could be tried
            _note_failure(addressed, error, now or timezone.now())
            outcome.failed = len(addressed)
            return outcome
        for index, note in enumerate(addressed):
            try:
                mailer.send_messages([_message(note)])
            except Exception as error:  # noqa: BLE001 - any backend's failure is the row's, never the caller's
                if _server_down(error):
                    _note_failure(addressed[index:], error, now or timezone.now())
                    outcome.failed += len(addressed) - index
                    break
                _note_failure([note], error, now or timezone.now())
                outcome.failed += 1
                continue
            # Marked at once, not at the end of the batch: a job killed mid-batch sends again only the mail it
            # was sending, never those the server took already.
            Notification.objects.filter(pk=note.pk).update(sent=True, sent_at=timezone.now(), next_attempt_at=None,
                                                           error="")
            sent.append(note.pk)
    finally:
        with suppress(Exception):  # closing a broken connection fails too; nothing to do about it
            mailer.close()
        outcome.sent = len(sent)
    return outcome


def send_mails(ids, now=None) -> Outcome:
    """The job of a step's mails: those of `ids` still due, claimed and sent."""
    return send_claimed(claim(ids, now), now)


def send_due_mails(now=None) -> Outcome:
    """The sweep: the mails whose next try is due (and those whose job was lost), one batch."""
    outcome = send_mails(due_ids(now), now)
    if outcome:
        logger.info("mail sweep: %s sent, %s failed", outcome.sent, outcome.failed)
    return outcome
