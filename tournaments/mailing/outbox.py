"""The mail outbox: a mail is a `Notification` row written inside the transaction of the change it
reports, due at once, and handed to the job (`tasks.send_mails`) only after the commit. A step rolled
back leaves no mail; a step committed has its mails even if the hand-off is lost (the sweep finds them).
The row's unique (user, key) keeps one mail per user per thing.

A mail that no longer applies before it went (the report it asks to confirm was answered in the
meantime) is withdrawn: never sent, the reason kept.
"""
from __future__ import annotations

import logging
from contextvars import ContextVar
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from opp.background import run_later
from tournaments.mailing import tasks
from tournaments.models import Notification

logger = logging.getLogger(__name__)

WITHDRAWN = "Withdrawn: "

# What the admin shows and filters by.
SENT, WAITING, GIVEN_UP, WITHDRAWN_STATE = "sent", "waiting", "given up", "withdrawn"
STATES = {
    SENT: Q(sent=True),
    WAITING: Q(sent=False, next_attempt_at__isnull=False),
    GIVEN_UP: Q(sent=False, next_attempt_at__isnull=True) & ~Q(error__startswith=WITHDRAWN),
    WITHDRAWN_STATE: Q(sent=False, next_attempt_at__isnull=True, error__startswith=WITHDRAWN),
}


def state_of(note) -> str:
    if note.sent:
        return SENT
    if note.next_attempt_at is not None:
        return WAITING
    return WITHDRAWN_STATE if note.error.startswith(WITHDRAWN) else GIVEN_UP


# True inside `compose_safely`'s first run: its savepoint already guards the INSERT, so a taken key may
# roll it back (the run is then repeated with a savepoint a row).
_guarded: ContextVar[bool] = ContextVar("mail_insert_guarded", default=False)


def compose_safely(function, *args, **kwargs) -> None:
    """Runs `function`, which composes and queues mails, inside a savepoint, so that whatever fails in it
    rolls back its mails and never the step around it (the caller logs the error). Its rows go in one
    INSERT; a key taken already (rare: the same thing mailed twice at once) rolls the savepoint back and
    `function` runs once more, writing each row on its own."""
    token = _guarded.set(True)
    try:
        with transaction.atomic():
            function(*args, **kwargs)
        return
    except IntegrityError:
        pass
    finally:
        _guarded.reset(token)
    with transaction.atomic():
        function(*args, **kwargs)


def _insert(notes) -> list[Notification]:
    """Writes the rows whose (user, key) is new; returns those. One INSERT for all; if a key is taken
    already, each on its own (each in a savepoint, so a refused one leaves the transaction usable)."""
    if _guarded.get():
        return Notification.objects.bulk_create(notes)  # a taken key: IntegrityError, to compose_safely
    try:
        with transaction.atomic():
            written = Notification.objects.bulk_create(notes)
        if all(note.pk is not None for note in written):
            return written
    except IntegrityError:
        pass
    written = []
    for note in notes:
        note.pk = None
        try:
            with transaction.atomic():
                note.save(force_insert=True)
        except IntegrityError:
            continue
        written.append(note)
    return written


def queue_mails(mails) -> list[Notification]:
    """Queues `mails`, a list of (Notification not saved: user, kind, key, subject; the body with its
    footer): their rows now, due at once, and their job after the commit. The rows written here (a key
    mailed before is skipped)."""
    if not mails:
        return []
    now = timezone.now()
    notes = []
    for note, body in mails:
        note.body, note.next_attempt_at, note.sent = body, now, False
        notes.append(note)
    written = _insert(notes)
    if written:
        transaction.on_commit(partial(hand_off, [note.pk for note in written]), robust=True)
    return written


def hand_off(ids) -> None:
    """Gives the mails to their job; a broker that does not answer leaves them to the sweep (they are due)."""
    try:
        run_later(tasks.send_mails, list(ids))
    except Exception as error:  # noqa: BLE001 - the rows are due: the sweep sends them
        logger.warning("mails %s left to the sweep: %s", list(ids), error)


def withdraw(reason, *, keys=(), key_prefix=None) -> int:
    """Mails not sent yet about something that no longer holds (`keys`, or every key starting with
    `key_prefix`) are never sent; the reason is kept. How many."""
    if not keys and not key_prefix:
        return 0
    match = Q(key__in=list(keys)) if keys else Q(key__startswith=key_prefix)
    return Notification.objects.filter(match, sent=False, next_attempt_at__isnull=False).update(
        next_attempt_at=None, error=(WITHDRAWN + reason)[:300])


def send_again(notes) -> int:
    """The admin's "send again now": the mails not sent among `notes` are due at once with a fresh count
    of tries, and handed to the job after the commit. How many."""
    ids = list(notes.filter(sent=False).values_list("pk", flat=True))
    if ids:
        Notification.objects.filter(pk__in=ids).update(next_attempt_at=timezone.now(), attempts=0)
        transaction.on_commit(partial(hand_off, ids), robust=True)
    return len(ids)
