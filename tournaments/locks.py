"""The row locks every state change takes, and the one order it takes them in.

A step that changes a report, a battle's result, a registration, an invitation, an organizer or a
general locks what it decides on, inside its one transaction, in this order, and only then reads
the state it decides on (PostgreSQL's READ COMMITTED reads the latest committed row after a lock):

    1. the event                   (`event`; `locks.event` is this lock)
    2. the account                 (`account`: a user has one general)
    3. the general                 (`general`)
    4. the general's name          (`general_name`: an advisory lock on the name, for "one general
                                    of a name unless created explicitly")
    5. the battle                  (`battle`; a league battle's season with it, tournaments/leagues/seasons.py)
    6. the battle's reports        (`report`)
    7. an invitation               (`invitation`)

Each helper takes every lock above its own that it needs (`report` locks the event and the battle
first), so a step never holds a later lock while waiting for an earlier one, and two steps can
never deadlock on each other. A step holding an event's lock is alone among the steps of that event,
so below it the order only matters for rows shared by several events (accounts, generals, names).
Taking a lock a transaction already holds is free. The engine's jobs write a verdict with
conditional UPDATEs of one report and its adjudication, waiting for no other lock. The locks are
`FOR NO KEY UPDATE`: they serialise the steps, but not the inserts that only reference the row (an
audit entry, a report, an adjudication's verdict), so a job writing a verdict never waits for one.

A request that loses a race waits for the winner, then reads what the winner did and is refused
with `Conflict` (409 and a sentence). What a database still refuses (a unique constraint that backs
an "at most one" rule, a deadlock with a step outside this order, a lock not available to a read
that does not wait) is a lost race too: `lost_race` recognises it, and the API's error handler and
`LostRaceMiddleware` on the pages answer it with 409 and `LOST_RACE`, never with a 500.

On SQLite (a development set-up) the locks are no-ops: it runs one write at a time anyway.
"""
from __future__ import annotations

import zlib

from django.db import DatabaseError, IntegrityError, OperationalError, connection
from django.utils.translation import gettext_lazy as _

from tournaments.models import Battle, Event, General, Invitation, Report, name_key

LOST_RACE = _("Another request changed this at the same moment, so this one was not applied: reload the page "
              "(or read it again) to see what is recorded now, then try again if still needed.")

# SQLSTATEs of a lost race: a unique violation, a deadlock, a serialization failure, a lock not
# available (NOWAIT).
_RACE_STATES = {"23505", "40P01", "40001", "55P03"}


def _rows(model, *, wait=True):
    if connection.vendor != "postgresql":
        return model.objects.all()
    return model.objects.select_for_update(no_key=True, nowait=not wait, of=("self",))


def _pk(thing):
    return getattr(thing, "pk", thing)


def event(event_or_pk, *, wait=True):
    """Lock 1: serialises every step on one event. Returns the event, read after the lock."""
    return _rows(Event, wait=wait).get(pk=_pk(event_or_pk))


def account(user):
    """Lock 2: one user's steps on their own general (a user has at most one)."""
    from django.contrib.auth import get_user_model

    if getattr(user, "pk", None) is not None:
        _rows(get_user_model()).filter(pk=user.pk).first()
    return user


def general(general_or_pk):
    """Lock 3: one general (a rename, a claim, a new claim code). Returns it read after the lock."""
    return _rows(General).get(pk=_pk(general_or_pk))


def general_name(name):
    """Lock 4: one name (compared ignoring case and spaces), until the transaction ends, so that two
    requests creating or renaming a general to one name at once cannot both find it free."""
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"general-name:{name_key(name)}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x0B5E55ED, key - 2**31])


def battle(battle_or_pk, *, wait=True):
    """Locks 1 and 5: the battle's event, then the battle. Returns the battle (with its event and
    generals) read after the lock."""
    pk = _pk(battle_or_pk)
    event_id = getattr(battle_or_pk, "event_id", None) or Battle.objects.values_list(
        "event_id", flat=True).get(pk=pk)
    event(event_id, wait=wait)
    return _rows(Battle, wait=wait).select_related("event", "general_a", "general_b").get(pk=pk)


def report(report_or_pk, *, wait=True):
    """Locks 1, 5 and 6: the event, the battle, then the report. Returns the report (with its battle,
    event, generals and reporter) read after the lock."""
    pk = _pk(report_or_pk)
    battle_id = getattr(report_or_pk, "battle_id", None) or Report.objects.values_list(
        "battle_id", flat=True).get(pk=pk)
    battle(battle_id, wait=wait)
    return _rows(Report, wait=wait).select_related(
        "battle", "battle__event", "battle__general_a", "battle__general_b", "reported_by").get(pk=pk)


def invitation(invitation_or_pk):
    """Locks 1 and 7: the invitation's event, then the invitation. Returns it read after the lock."""
    pk = _pk(invitation_or_pk)
    event(Invitation.objects.values_list("event_id", flat=True).get(pk=pk))
    return _rows(Invitation).select_related("event", "general").get(pk=pk)


def lost_race(error):
    """Whether a database error means that another request won a race: a unique constraint backing
    an "at most one" rule, a deadlock, a serialization failure or a lock a read did not wait for."""
    if not isinstance(error, DatabaseError):
        return False
    state = getattr(getattr(error, "__cause__", None), "sqlstate", None)
    if state is not None:
        return state in _RACE_STATES
    # SQLite and drivers without a SQLSTATE: a unique constraint, or the database being locked.
    return isinstance(error, IntegrityError) or (isinstance(error, OperationalError)
                                                 and "locked" in str(error).lower())
