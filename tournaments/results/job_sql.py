"""The adjudication job's two writes as hand-written SQL: the one place the job leaves the ORM.

Why (docs/performance.md, section 4): a job is the engine plus a handful of statements, and each
statement costs a round trip to PostgreSQL, a commit costs a flush of the write-ahead log, and the ORM
costs compiling the query each time (12 % of a job in the profile of issue 28). On PostgreSQL each step is
one statement, data-modifying CTEs chained so that every condition stays in the database:

- `take`: the attempt counted and the adjudication running, the report "being adjudicated" when it
  was queued, and everything the job reads (the report with its replay, battle, event, group or season,
  the two generals and their players with their mail settings), in ONE statement, instead of a SELECT
  and a transaction of two UPDATEs (five round trips);
- `write_verdict`: the verdict on the adjudication if this run is the first to finish it, and the
  report's status if it is still being adjudicated, in ONE statement (inside the caller's transaction,
  where the audit entry and the mails are written too).

Neither commit waits for the disk (`relaxed`, below, says why that loses nothing).

The statements' column lists are built once, from the models, at import; nothing is compiled per job.
They are sent as server-side prepared statements (`_prepared_cursor`): under load PostgreSQL spent more
time planning the twelve-relation read (2-11 ms) than running it (0.3-0.6 ms), and Django sends every
statement as text to be planned afresh. A worker's connection lives on between jobs, so each statement
is prepared once per connection and, after five runs, planned once (PostgreSQL's generic plan).
SQLite (development, the default test database) has no UPDATE in a CTE, and no round trips that would
make this worth it: there the same steps run through the ORM, with the same conditions. Both paths
return the same objects, so `adjudication.adjudicate` does not know which one ran.
"""
from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import F
from django.utils import timezone

from tournaments.models import (
    Adjudication,
    Battle,
    Event,
    General,
    Group,
    NotificationSettings,
    Report,
    Season,
)

ENDED = (Adjudication.State.DONE, Adjudication.State.FAILED)


def _table(model):
    return connection.ops.quote_name(model._meta.db_table)


def _columns(model, alias=None):
    return [f"{alias + '.' if alias else ''}{connection.ops.quote_name(field.column)}"
            for field in model._meta.concrete_fields]


def _quoted(*values):
    return ", ".join(f"'{value}'" for value in values)  # the models' own choice values, never input


ENDED_SQL, BEING_ADJUDICATED_SQL = _quoted(*ENDED), _quoted(*Report.BEING_ADJUDICATED_STATUSES)


User = get_user_model()
# (model, alias) in the order their columns come in the row `take` returns.
_READ = [(Adjudication, "taken"), (Report, "r"), (Battle, "b"), (Event, "e"), (General, "ga"), (General, "gb"),
         (User, "ua"), (NotificationSettings, "sa"), (User, "ub"), (NotificationSettings, "sb"),
         (Group, "g"), (Season, "s")]
_WIDTHS = [len(model._meta.concrete_fields) for model, _alias in _READ]
_converters = []  # per model of _READ: (index, converters) of the fields whose values need converting


def _row_converters():
    """As the ORM converts a column's value (e.g. a JSON field's text to its object), computed once."""
    if not _converters:
        for model, _alias in _READ:
            found = []
            for index, field in enumerate(model._meta.concrete_fields):
                functions = connection.ops.get_db_converters(field.cached_col) + field.get_db_converters(connection)
                if functions:
                    found.append((index, field.cached_col, functions))
            _converters.append(found)
    return _converters

# `relaxed` (both statements): the commit does not wait for the write-ahead log to reach the disk. Each
# flush cost 4-6 ms on this machine, more than the engine (docs/performance.md, section 4);
# `set_config(..., true)` is SET LOCAL, for this one transaction. What it writes is visible at once and in
# order all the same, and never half: only a crash of PostgreSQL itself (not of a worker) within a fraction
# of a second could lose the latest jobs' writes, whole, and anything that later commits after reading them
# (a confirmation, a mail marked sent) waits for the flush, which carries them along. A job lost so is
# not lost for good: it is left queued or running, and the sweep sends it again
# (`outbox.waiting`: sent or taken longer than OPP_RESEND_AFTER_SECONDS ago); it then writes its verdict,
# audit entry and mails once, as any job.
# The players and their settings are LEFT JOINs (a general may have no player, a player no settings row).
# The main SELECT sees the rows as they were before the CTEs' updates: `marked` says whether the report's
# status changed. Every column is named (no `*`), so a column added by a migration never changes what a
# statement prepared before it returns.
_TAKE = f"""
WITH relaxed AS MATERIALIZED (
    SELECT set_config('synchronous_commit', 'off', true)
), taken AS (
    UPDATE {_table(Adjudication)} SET state = '{Adjudication.State.RUNNING}', started_at = %s,
        attempts = attempts + 1
    WHERE id = %s AND state NOT IN ({ENDED_SQL}) AND EXISTS (SELECT 1 FROM relaxed)
    RETURNING {", ".join(_columns(Adjudication))}
), marked AS (
    UPDATE {_table(Report)} SET status = '{Report.Status.ADJUDICATING}'
    WHERE id = (SELECT report_id FROM taken) AND status = '{Report.Status.QUEUED}' RETURNING id
)
SELECT {", ".join(column for model, alias in _READ for column in _columns(model, alias))},
       EXISTS (SELECT 1 FROM marked)
FROM taken
JOIN {_table(Report)} r ON r.id = taken.report_id
JOIN {_table(Battle)} b ON b.id = r.battle_id
JOIN {_table(Event)} e ON e.id = b.event_id
JOIN {_table(General)} ga ON ga.id = b.general_a_id
JOIN {_table(General)} gb ON gb.id = b.general_b_id
LEFT JOIN {_table(User)} ua ON ua.id = ga.user_id
LEFT JOIN {_table(NotificationSettings)} sa ON sa.user_id = ua.id
LEFT JOIN {_table(User)} ub ON ub.id = gb.user_id
LEFT JOIN {_table(NotificationSettings)} sb ON sb.user_id = ub.id
LEFT JOIN {_table(Group)} g ON g.id = b.group_id
LEFT JOIN {_table(Season)} s ON s.id = b.season_id
"""


def _postgres():
    return connection.vendor == "postgresql"


@cache
def _prepared_cursor_class():
    from django.db.backends.postgresql.base import ServerBindingCursor  # psycopg 3: PostgreSQL only

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    return PreparedCursor


def _prepared_cursor():
    """A Django cursor (counted by the test's and the benchmark's statement captures, like any other)
    whose statements are prepared on the server: psycopg binds the parameters server-side and keeps the
    prepared statement with the connection."""
    connection.ensure_connection()
    raw = _prepared_cursor_class()(connection.connection)
    return _PreparedDebugCursor(raw, connection) if connection.queries_logged else connection.make_cursor(raw)


class _PreparedDebugCursor(CursorDebugWrapper):
    """Logs a prepared statement's text as this module wrote it (placeholders, not values): psycopg keeps
    no "last query" for a statement run by its name, where Django's own debug cursor looks for it."""

    def execute(self, sql, params=None):
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


def take(adjudication_id):
    """Takes the job: None when it has ended or does not exist (a second delivery, a retry after the
    verdict), else the report as the job needs it, with `report.adjudication` (running, the attempt
    counted), its battle, event, generals and their players (with `notification_settings` read, None
    when they never changed them)."""
    if not _postgres():
        return _take_with_orm(adjudication_id)
    with _prepared_cursor() as cursor:
        cursor.execute(_TAKE, [timezone.now(), adjudication_id])
        row = cursor.fetchone()
    if row is None:
        return None
    objects, start = [], 0
    for (model, _alias), width, converters in zip(_READ, _WIDTHS, _row_converters(), strict=True):
        values = list(row[start:start + width])
        start += width
        for index, column, functions in converters:
            for function in functions:
                values[index] = function(values[index], column, connection)
        objects.append(None if values[0] is None else model.from_db(connection.alias, None, values))
    adjudication, report, battle, event, general_a, general_b, user_a, settings_a, user_b, settings_b, group, season \
        = objects
    if row[-1]:
        report.status = Report.Status.ADJUDICATING
    for general, user, settings in ((general_a, user_a, settings_a), (general_b, user_b, settings_b)):
        if user is not None:
            user._state.fields_cache["notification_settings"] = settings
            general.user = user
    battle.event, battle.general_a, battle.general_b = event, general_a, general_b
    # The group or season names the battle in the mails and the audit entry; None is cached too.
    battle._state.fields_cache.update(group=group, season=season)
    report.battle = battle
    return _linked(report, adjudication)


def _take_with_orm(adjudication_id):
    """`take` through the ORM (SQLite): the two conditional UPDATEs, each committed on its own (a worker
    that dies between them leaves the job running and the report queued: the redelivered job takes it
    again, as the adjudication has not ended, and marks the report), then the read."""
    taken = Adjudication.objects.filter(pk=adjudication_id).exclude(state__in=ENDED).update(
        state=Adjudication.State.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1)
    if not taken:
        return None
    Report.objects.filter(adjudication__pk=adjudication_id, status=Report.Status.QUEUED).update(
        status=Report.Status.ADJUDICATING)
    report = (Report.objects.select_related(
        "adjudication", "battle", "battle__event", "battle__group", "battle__season",
        "battle__general_a__user__notification_settings", "battle__general_b__user__notification_settings")
        .filter(adjudication__pk=adjudication_id).order_by().first())
    return None if report is None else _linked(report, report.adjudication)


def _linked(report, adjudication):
    """The report's generals (winner, Player-1, who forfeited) are the battle's: set, never read lazily."""
    battle = report.battle
    by_id = {battle.general_a_id: battle.general_a, battle.general_b_id: battle.general_b}
    for field in ("winner", "player_1", "forfeited_by"):
        general = by_id.get(getattr(report, f"{field}_id"))
        if general is not None:
            setattr(report, field, general)
    adjudication.report = report
    report._state.fields_cache["adjudication"] = adjudication
    return report


def _assignments(model, values):
    """`col = %s` pairs and their parameters, each value prepared by its field as the ORM would."""
    sql, params = [], []
    for name, value in values.items():
        field = model._meta.get_field(name)
        sql.append(f"{connection.ops.quote_name(field.column)} = %s")
        if hasattr(value, "pk"):  # a General for player_1
            value = value.pk
        params.append(field.get_db_prep_save(value, connection))
    return ", ".join(sql), params


def write_verdict(adjudication_id, report_id, done, status):
    """Writes the verdict (`done`: Adjudication fields) if no other run finished the job first, and the
    report's status change (`status`: Report fields) if the report is still being adjudicated. Returns
    (verdict written, report changed); the report never changes without the verdict. Call it inside the
    transaction that also writes what follows from the verdict (audit entry, mails)."""
    if not _postgres():
        if not Adjudication.objects.filter(pk=adjudication_id).exclude(state__in=ENDED).update(**done):
            return False, False
        changed = Report.objects.filter(pk=report_id, status__in=Report.BEING_ADJUDICATED_STATUSES).update(**status)
        return True, bool(changed)
    done_sql, done_params = _assignments(Adjudication, done)
    status_sql, status_params = _assignments(Report, status)
    sql = f"""
    WITH relaxed AS MATERIALIZED (
        SELECT set_config('synchronous_commit', 'off', true)
    ), done AS (
        UPDATE {_table(Adjudication)} SET {done_sql}
        WHERE id = %s AND state NOT IN ({ENDED_SQL}) AND EXISTS (SELECT 1 FROM relaxed) RETURNING id
    ), changed AS (
        UPDATE {_table(Report)} SET {status_sql}
        WHERE id = %s AND status IN ({BEING_ADJUDICATED_SQL}) AND EXISTS (SELECT 1 FROM done) RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM done), EXISTS (SELECT 1 FROM changed)"""
    with _prepared_cursor() as cursor:
        cursor.execute(sql, [*done_params, adjudication_id, *status_params, report_id])
        written, changed = cursor.fetchone()
    return bool(written), bool(changed)
