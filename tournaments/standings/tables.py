"""Standings tables read from the database: the counters summed by SQL (`tallies`), ranked by the domain
(`tournaments.domain.standings`, R24), for a qualifying or final group, a league season (R88) or the
whole event. Read-only: nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db import connections
from django.db.models import Exists, OuterRef, Q
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from tournaments.domain import BattleResult, Kind, Outcome, rank_tallies
from tournaments.models import Battle, Disqualification, General
from tournaments.standings.tallies import count_in_database


def battle_result(battle):
    """The pure-domain view of a stored battle."""
    return result_from_row(battle.general_a_id, battle.general_b_id, battle.kind, battle.winner_id,
                           battle.condition, battle.forfeited_by_id, battle.playoff)


# The Battle columns `result_from_row` needs, in its argument order, for reading results with
# `values_list` instead of loading a model instance (and four generals) per battle.
RESULT_FIELDS = ("general_a_id", "general_b_id", "kind", "winner_id", "condition", "forfeited_by_id", "playoff")


def results_of(battles):
    """The pure-domain results of a Battle queryset, read column by column."""
    return [result_from_row(*row) for row in battles.order_by().values_list(*RESULT_FIELDS)]


def result_from_row(general_a_id, general_b_id, kind, winner_id, condition, forfeited_by_id, playoff):
    """`battle_result` from the battle's columns (RESULT_FIELDS)."""
    a, b = str(general_a_id), str(general_b_id)
    if not kind:
        outcome = None
    elif kind == Battle.Kind.VICTORY:
        outcome = Outcome(Kind.VICTORY, winner=str(winner_id), condition=condition)
    elif kind == Battle.Kind.FORFEIT:
        other = b if str(forfeited_by_id) == a else a
        outcome = Outcome(Kind.FORFEIT, winner=other, forfeited_by=str(forfeited_by_id))
    elif kind == Battle.Kind.UNPLAYED_DQ:
        dq = forfeited_by_id  # the disqualified general is kept in forfeited_by for unplayed battles
        outcome = Outcome(Kind.UNPLAYED_DQ, disqualified=str(dq))
    else:
        outcome = Outcome(Kind(kind))
    return BattleResult(a=a, b=b, outcome=outcome, playoff=playoff)


@dataclass(frozen=True)
class StandingsTable:
    rows: list  # domain StandingRow, in order
    generals: dict  # key -> General
    pending_results: int

    def entries(self):
        return [(row, self.generals[row.general]) for row in self.rows]


def standings_table(event, kind, *, using="default", **ids):
    """Counted by the database (tournaments/standings/tallies.py), ranked by the domain (R24). `kind`:
    "group" or "season"; `ids`: scope (the group's or the season's id), event_id, and a season's number. A
    general of a counted battle who is not among the members (e.g. withdrawn later) keeps a row: the
    table never loses a played battle."""
    # Two statements, the members and the counters. One statement for both was measured 5 % faster
    # for a group on a busy host and slower for a season, whose plan PostgreSQL then JIT-compiles at
    # length (docs/performance.md, section 2).
    generals = _read_members(kind, using, **ids)
    scope = {"group_id": ids["scope"]} if kind == "group" else {"season_id": ids["scope"]}
    tallies = count_in_database(generals=list(generals), forfeit_award=event.forfeit_award, add_unknown=True,
                                using=using, **scope)
    missing = [key for key in tallies if key not in generals]
    if missing:
        _members, disqualifications = _MEMBERS[kind](**ids)
        outsiders = _with_disqualification(General.objects.filter(pk__in=missing), disqualifications)
        generals.update({g.key: g for g in outsiders.using(using)})
    rows = rank_tallies(tallies, disqualified={key for key, g in generals.items() if g.is_disqualified})
    return StandingsTable(rows=rows, generals=generals,
                          pending_results=sum(t["pending"] for t in tallies.values()) // 2)


def group_standings(group):
    return standings_table(group.event, "group", scope=group.pk, event_id=group.event_id)


def counted_in_event(event):
    """Keys of the generals with a counted battle anywhere in the event (R112 for the Victor)."""
    counted = set()
    fought = event.battles.filter(playoff=False).exclude(kind__in=["", Battle.Kind.UNPLAYED_DQ])
    for a, b in fought.values_list("general_a_id", "general_b_id"):
        counted.update((str(a), str(b)))
    return counted


def season_standings(season):
    """The season's table: its members as it held them, its battles, its disqualifications."""
    return standings_table(season.event, "season", scope=season.pk, event_id=season.event_id, number=season.number)


# --- a table's members, with their disqualification ------------------------------------------------------
#
# Who is in a table is an ORM query (`_MEMBERS`). Django took longer to build and compile it than PostgreSQL
# took to answer it (0.6 of the 1.8 ms a 64-general group's members cost; docs/performance.md, section 2),
# so each kind of table's query is compiled once per database with stand-in ids, and every table runs
# that SQL with its own ids in their places. The rules (which disqualifications mark a season, R88) stay
# spelled once, in the ORM.

def _group_members(scope, event_id, number=None):
    """A group's members; the event's disqualifications (R23)."""
    return General.objects.filter(group_memberships__group_id=scope), Disqualification.objects.filter(event_id=event_id)


def _season_members(scope, event_id, number):
    """A season's members as it held them (R88); the disqualifications that mark it: decided in it or in
    an earlier season."""
    return (General.objects.filter(season_memberships__season_id=scope),
            Disqualification.objects.filter(event_id=event_id).filter(
                Q(season__isnull=True) | Q(season__number__lte=number)))


_MEMBERS = {"group": _group_members, "season": _season_members}


def _with_disqualification(generals, disqualifications):
    """The generals with `is_disqualified`, without `created_at`: no table shows it, and reading it back
    (Django's time-zone loader runs in Python) cost an eighth of a 64-general group's table. A caller
    that reads it gets it loaded, as any deferred field."""
    return generals.defer("created_at").annotate(
        is_disqualified=Exists(disqualifications.filter(general=OuterRef("pk"))))


# Two sets of ids each statement is compiled with. Plausible values (Django drops a condition that no value
# in a field's range can meet: a negative season number), and the two compilations must give the same SQL,
# so that no value changed the statement; a parameter that differs between them is an id, the others are
# the query's own constants.
_STAND_INS = ({"scope": 30_001, "event_id": 30_002, "number": 30_003},
              {"scope": 30_011, "event_id": 30_012, "number": 30_013})
_NEEDED = {"group": {"scope", "event_id"}, "season": {"scope", "event_id", "number"}}


class StatementError(RuntimeError):
    """The members' query cannot be compiled once for every table (a programming error, found at the
    first table read)."""


@dataclass(frozen=True)
class _MembersStatement:
    sql: str
    params: tuple  # (name of an id, None) or (None, a constant of the query), in order
    query: object  # the compiled Query: its columns' converters, on the caller's connection
    columns: tuple  # the select's expressions, in order
    fields: tuple  # General's attnames, for columns[first:end]
    first: int
    end: int
    flag: int  # the column of `is_disqualified`
    converted: bool  # whether the database has converters for any column (SQLite: it does)


@lru_cache(maxsize=8)
def _members_statement(kind, using):
    """The members' query of a kind of table compiled for the database `using`, once per process."""
    compiled = []
    for stand_ins in _STAND_INS:
        generals, disqualifications = _MEMBERS[kind](**stand_ins)
        compiler = _with_disqualification(generals, disqualifications).query.get_compiler(using=using)
        compiled.append((compiler, *compiler.as_sql()))
    (compiler, sql, params), (_other, other_sql, other_params) = compiled
    names = {value: name for name, value in _STAND_INS[0].items()}
    if sql != other_sql or len(params) != len(other_params):
        raise StatementError(f"The {kind} members' statement depends on the ids' values.")
    slots = tuple((None, first) if first == second else (names.get(first), None)
                  for first, second in zip(params, other_params, strict=True))
    if {name for name, _value in slots if name} != _NEEDED[kind] or (None, None) in slots:
        raise StatementError(f"The {kind} members' ids are not all parameters of the statement.")
    select_fields = compiler.klass_info["select_fields"]
    first, end = select_fields[0], select_fields[-1] + 1
    columns = tuple(column for column, _sql, _alias in compiler.select)
    return _MembersStatement(sql=sql, params=slots, query=compiler.query, columns=columns,
                             fields=tuple(column.target.attname for column in columns[first:end]), first=first,
                             end=end, flag=compiler.annotation_col_map["is_disqualified"],
                             converted=bool(compiler.get_converters(columns)))


def _read_members(kind, using, **ids):
    """{key: General with `is_disqualified`}: the table's members in the query's order, from the
    statement compiled once, as the ORM would give them (the database's converters; `_loaded`)."""
    statement = _members_statement(kind, using)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [ids[name] if name else value for name, value in statement.params])
        rows = cursor.fetchall()
    if statement.converted:
        compiler = statement.query.get_compiler(connection=connection)
        rows = compiler.apply_converters(rows, compiler.get_converters(statement.columns))
    listened = pre_init.has_listeners(General) or post_init.has_listeners(General)
    build = _from_db if listened else _loaded
    members = {}
    fields, first, end, flag = statement.fields, statement.first, statement.end, statement.flag
    for row in rows:
        general = build(General, using, fields, row[first:end])
        general.is_disqualified = row[flag]
        members[general.key] = general
    return members


def _from_db(model, using, fields, values):
    return model.from_db(using, fields, values)


def _loaded(model, using, fields, values):
    """The instance `model.from_db(using, fields, values)` gives (a field not in `fields` deferred: loaded
    when read), without running Model.__init__ field by field, which took a fifth of a 64-general group's
    table. Only while nothing listens to the model's pre_init or post_init: __init__ sends them."""
    instance = model.__new__(model)
    instance._state = ModelState()
    instance._state.adding = False
    instance._state.db = using
    instance.__dict__.update(zip(fields, values, strict=True))
    return instance
