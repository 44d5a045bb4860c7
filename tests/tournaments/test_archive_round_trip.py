"""An event archive loses nothing (issue 24, item 3; R97): export an event holding every kind of record,
delete it, import the file, and every field of every row the event holds is as it was, compared
generically over each model's concrete fields, rows and references named by their natural identity."""
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import models
from django.utils import timezone

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tournaments import models as records
from tournaments.eventday import archive
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.results import recording

pytestmark = pytest.mark.django_db

REPLAYS = Path("/work/shared/examples/replays")
User = get_user_model()

# What an import cannot keep, and why: a general is a site's identity, not the event's. The importing
# site creates its own (R96), unclaimed until its player claims it there (R78), with a new claim code.
NOT_CARRIED = {
    records.General: {"claim_code": "R96: a code is never carried to another site",
              "created_at": "the general is created by the import", "created_by": "R96: the importer's own",
              "user": "R78: a claimed general enters another site's event only with its player's consent"},
}


def replay_text(name="invalid-formation-row.json"):
    path = REPLAYS / name
    return path.read_text(encoding="utf-8") if path.exists() else json.dumps({"meta": {"name": name}, "turns": []})


# --- natural identity ------------------------------------------------------------------------------------

def _position(obj, siblings, *order):
    return list(siblings.order_by(*order, "pk").values_list("pk", flat=True)).index(obj.pk)


IDENTITY = {
    records.Event: lambda e: ("event", e.slug),
    records.General: lambda g: ("general", g.name),
    User: lambda u: ("user", u.username),
    records.Registration: lambda r: (identity(r.event), identity(r.general)),
    records.Season: lambda s: (identity(s.event), "season", s.number),
    records.SeasonMember: lambda m: (identity(m.season), identity(m.general)),
    records.Group: lambda g: (identity(g.event), g.stage, g.index),
    records.GroupMember: lambda m: (identity(m.group), identity(m.general)),
    records.Battle: lambda b: (identity(b.event), identity(b.group) if b.group_id else None,
                       identity(b.season) if b.season_id else None, b.playoff, b.round, b.number,
                       identity(b.general_a), identity(b.general_b)),
    records.Report: lambda r: (identity(r.battle), "report", _position(r, r.battle.reports.all(), "created_at")),
    records.Adjudication: lambda a: (identity(a.report), "adjudication"),
    records.Disqualification: lambda d: (identity(d.event), "disqualified", identity(d.general)),
    records.AuditEntry: lambda a: (identity(a.event), "audit", _position(a, a.event.audit_entries.all(), "at")),
    records.Invitation: lambda i: (identity(i.event), "invited", identity(i.general), i.created_at),
    records.OrganizerInvitation: lambda i: (identity(i.event), "invited to organize", identity(i.user), i.created_at),
}


def identity(obj):
    model = type(obj)
    assert model in IDENTITY, f"{model.__name__} belongs to an event: give it a natural identity here"
    return IDENTITY[model](obj)


def rows_of(event):
    """Every row the event holds: what its relations that delete with it (CASCADE) reach, from the
    event down (a model added later is found without naming it), and the generals those rows name."""
    found, todo = {}, [event]
    while todo:
        obj = todo.pop()
        if (type(obj), obj.pk) in found:
            continue
        found[(type(obj), obj.pk)] = obj
        for relation in obj._meta.related_objects:
            if relation.many_to_many or relation.on_delete is not models.CASCADE:
                continue
            if relation.one_to_one:
                child = getattr(obj, relation.get_accessor_name(), None) if hasattr(
                    obj, relation.get_accessor_name()) else None
                todo.extend([child] if child is not None else [])
            else:
                todo.extend(getattr(obj, relation.get_accessor_name()).all())
    for obj in list(found.values()):
        for field in obj._meta.concrete_fields:
            if field.is_relation and field.related_model is records.General and getattr(obj, field.attname):
                general = getattr(obj, field.name)
                found[(records.General, general.pk)] = general
    return list(found.values())


def snapshot(event):
    """{natural identity: {field: value}} over every concrete field, primary keys and references
    replaced by the natural identity of the row they name; the event's organizers by username."""
    rows = {}
    for obj in rows_of(event):
        skipped = NOT_CARRIED.get(type(obj), {})
        values = {}
        for field in obj._meta.concrete_fields:
            if field.primary_key or field.name in skipped:
                continue
            if field.is_relation:
                related = getattr(obj, field.name) if getattr(obj, field.attname) is not None else None
                values[field.name] = identity(related) if related is not None else None
            else:
                values[field.name] = getattr(obj, field.attname)
        if type(obj) is records.Event:
            values["organizers"] = sorted(obj.organizers.values_list("username", flat=True))
        key = (type(obj).__name__, identity(obj))
        assert key not in rows, f"two rows have the identity {key}"
        rows[key] = values
    return rows


def differences(before, after):
    lines = [f"missing after the import: {key}" for key in before.keys() - after.keys()]
    lines += [f"new after the import: {key}" for key in after.keys() - before.keys()]
    for key in before.keys() & after.keys():
        lines += [f"{key[0]} {key[1]}: {name} was {value!r}, is {after[key].get(name)!r}"
                  for name, value in before[key].items() if after[key].get(name) != value]
    return sorted(lines)


# --- events holding every kind of record ------------------------------------------------------------------

def organizers_of(event, owner):
    """A co-organizer who accepted the owner's invitation, and one invitation still pending."""
    oren, pia = User.objects.create_user("oren"), User.objects.create_user("pia")
    event.organizers.add(oren)
    records.OrganizerInvitation.objects.create(event=event, user=oren, invited_by=owner, status="accepted",
                                       answered_at=timezone.now())
    records.OrganizerInvitation.objects.create(event=event, user=pia, invited_by=owner)
    return oren


def reports_on(battles, organizer, reporter):
    """A confirmed report with the engine's verdict, a pending one, a disputed one with its reason and
    turn, one replaced by a newer one, and one checked by the engine waiting for the opponent."""
    now = timezone.now()
    confirmed, pending, disputed, checked = battles[:4]
    first = records.Report.objects.create(battle=confirmed, reported_by=reporter, kind="victory", winner=confirmed.general_a,
                                  condition="crush", player_1=confirmed.general_a, replay=replay_text(),
                                  replay_sha256="a" * 64, replay_bytes=123, status="superseded")
    records.Adjudication.objects.create(report=first, state="done", engine_version="1.4", verdict={"result": "victory"},
                                agrees=False, disagreement="The engine says p2 wins.", attempts=1,
                                started_at=now, finished_at=now, sent_at=now, engine_ms=12.5)
    counted = records.Report.objects.create(battle=confirmed, reported_by=reporter, kind="victory", winner=confirmed.general_a,
                                    condition="crush", replay=replay_text(), status="confirmed",
                                    answered_by=organizer, status_reason="Confirmed by the opponent.")
    records.Adjudication.objects.create(report=counted, state="done", verdict={"result": "victory", "winner": "p1"},
                                previous_verdict={"result": "stalemate"}, agrees=True, attempts=2,
                                last_error="timeout once", sent_at=now, started_at=now, finished_at=now)
    victory(confirmed, confirmed.general_a, condition="crush")
    records.Report.objects.create(battle=pending, reported_by=reporter, kind="stalemate", replay=replay_text(),
                          status="awaiting_opponent", confirm_by=now + dt.timedelta(days=30))
    records.Report.objects.create(battle=disputed, reported_by=reporter, kind="victory", winner=disputed.general_b,
                          condition="crush", replay=replay_text(), status="disputed",
                          status_reason="He moved twice in turn 7.", dispute_turn=7, answered_by=organizer)
    waiting = records.Report.objects.create(battle=checked, reported_by=None, kind="forfeit", forfeited_by=checked.general_b,
                                    status="checked", confirm_by=now + dt.timedelta(hours=1))
    records.Adjudication.objects.create(report=waiting, state="running", attempts=1, sent_at=now, started_at=now)


@pytest.fixture
def tournament():
    olga = grant_organizer_role(User.objects.create_user("olga"))
    emil = User.objects.create_user("emil")
    event, generals = make_tournament(8, slug="quay-open", organizer=olga, variants=["battle_arts"],
                                      confirmation_minutes=43_200, board_width=9, board_height=5)
    generals[0].external_id = "LM-0001"
    generals[0].save()
    oren = organizers_of(event, olga)
    services.form_groups(event, 2, "random", seed=7, actor=olga)
    group_a = event.groups.get(index=0)
    battles = open_battles(group_a)
    reports_on(battles, oren, emil)
    recording.record_result(battles[4], kind=records.Battle.Kind.STALEMATE)
    group_b = event.groups.get(index=1)
    services.disqualify(event, group_b.members.order_by("position").first().general,
                        reason=records.Disqualification.Reason.CONDUCT, details="Shouted", actor=olga)
    walk_in = records.General.objects.create(name="Walter Walk", created_by=olga)
    records.Invitation.objects.create(event=event, general=walk_in, invited_by=olga)
    event.refresh_from_db()
    return event


@pytest.fixture
def league():
    """Olga's league whose members entered their own generals with their own accounts (R78)."""
    olga = grant_organizer_role(User.objects.create_user("olga"))
    event = services.create_event(name="Pier League", slug="pier", kind=records.Event.Kind.LEAGUE, actor=olga)
    members = []
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        general = records.General.objects.create(name=name, user=User.objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
        members.append(general)
    organizers_of(event, olga)
    autumn = seasons.open_season(event, "Autumn", actor=olga)
    played = seasons.schedule_battle(autumn, members[0], members[1], actor=olga)
    victory(played, members[0], condition="crush")
    battles = [played, *(seasons.schedule_battle(autumn, a, b, actor=olga)
                         for a, b in ((members[0], members[2]), (members[1], members[2]), (members[2], members[3])))]
    reports_on([*battles[1:], battles[0]], olga, members[3].user)
    event.refresh_from_db()
    return event


def export_delete_import(event, tmp_path):
    """The archive of `event` imported into a site without it: the event and its generals deleted
    (the accounts stay, as on a second site sharing them)."""
    path = tmp_path / "archive.json"
    call_command("event_export", event.slug, "--out", str(path), stdout=io.StringIO())
    generals = [row.pk for row in rows_of(event) if type(row) is records.General]
    event.delete()
    records.General.objects.filter(pk__in=generals).delete()
    out, err = io.StringIO(), io.StringIO()
    call_command("event_import", str(path), stdout=out, stderr=err)
    return records.Event.objects.get(slug=json.loads(path.read_text())["event"]["slug"]), out.getvalue(), err.getvalue()


# --- the round trip ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["tournament", "league"])
def test_every_field_of_every_row_of_an_event_comes_back_from_its_archive(kind, request, tmp_path):
    event = request.getfixturevalue(kind)
    before = snapshot(event)
    held = {name for name, _ in before}
    assert {"Report", "Adjudication", "OrganizerInvitation", "AuditEntry", "Registration"} <= held
    assert {"Report": 5}.items() <= {"Report": sum(name == "Report" for name, _ in before)}.items()
    imported, out, err = export_delete_import(event, tmp_path)
    assert differences(before, snapshot(imported)) == []
    assert "5 reports" in out and err == ""  # every account is here: nothing to warn about


def test_the_confirmation_window_owner_and_a_pending_report_come_back(tournament, tmp_path):
    """What issue 24 saw lost, in the words of the pages: 30 days stay 30 days, Olga still owns it."""
    imported, _, _ = export_delete_import(tournament, tmp_path)
    assert imported.confirmation_minutes == 43_200 and imported.owner.username == "olga"
    assert sorted(imported.organizers.values_list("username", flat=True)) == ["olga", "oren"]
    pending = records.Report.objects.get(battle__event=imported, status="awaiting_opponent")
    assert pending.replay == replay_text() and pending.reported_by.username == "emil"
    assert records.Report.objects.get(battle__event=imported, status="disputed").status_reason == "He moved twice in turn 7."


def test_a_league_keeps_its_three_day_window(league, tmp_path):
    imported, _, _ = export_delete_import(league, tmp_path)
    assert imported.confirmation_minutes == 3 * 24 * 60
    assert imported.seasons.get().memberships.count() == 4


# --- accounts missing on the importing site ------------------------------------------------------------------

def test_the_command_warns_of_each_account_the_site_lacks(tournament, tmp_path):
    document = archive.build_archive(tournament)
    document["event"].update(owner="olga-elsewhere", organizers=["olga-elsewhere"])
    for battle in document["battles"]:
        for report in battle["reports"]:
            if report["reported_by"] == "emil":
                report["reported_by"] = "emil-elsewhere"
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    err = io.StringIO()
    call_command("event_import", str(path), "--slug", "quay-copy", stdout=io.StringIO(), stderr=err)
    warnings = err.getvalue()
    assert "No account on this site is called 'olga-elsewhere' (in the archive: owner, organizer)" in warnings
    assert "'emil-elsewhere' (in the archive: reported a result)" in warnings
    assert "Quay Open has no organizer on this site" in warnings
    copy_ = records.Event.objects.get(slug="quay-copy")
    assert copy_.owner is None and not records.Report.objects.filter(battle__event=copy_, reported_by__isnull=False,
                                                             status="awaiting_opponent").exists()


def test_the_command_makes_its_organizer_the_owner_when_the_archives_owner_is_absent(tournament, tmp_path):
    document = archive.build_archive(tournament)
    document["event"].update(owner="olga-elsewhere", organizers=["olga-elsewhere", "oren"])
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    User.objects.create_user("ida")
    call_command("event_import", str(path), "--slug", "quay-copy", "--organizer", "ida", stdout=io.StringIO(),
                 stderr=io.StringIO())
    copy_ = records.Event.objects.get(slug="quay-copy")
    assert copy_.owner.username == "ida"
    assert sorted(copy_.organizers.values_list("username", flat=True)) == ["ida", "oren"]


# --- an older archive ------------------------------------------------------------------------------------------

V2_ONLY = {"event": ("confirmation_minutes", "pair_battles_per_season", "created_at", "updated_at", "owner",
                     "organizers")}


def as_version_1(document):
    """The archive as version 1 wrote it: none of what version 2 added."""
    document = json.loads(json.dumps(document))
    document["version"] = 1
    for name in V2_ONLY["event"]:
        document["event"].pop(name)
    for key in ("invitations", "organizer_invitations"):
        document.pop(key)
    for season in document["seasons"]:
        season.pop("members")
    for battle in document["battles"]:
        battle.pop("reports")
    for record in document["disqualifications"]:
        record.pop("season"), record.pop("decided_by")
    for entry in document["audit"]:
        entry.pop("actor")
    return document


def test_a_version_1_archive_still_imports_with_a_new_events_window(league):
    document = as_version_1(archive.build_archive(league))
    olga = User.objects.get(username="olga")
    imported = archive.import_archive(document, slug="pier-v1", organizers=[olga])
    assert imported.confirmation_minutes == 3 * 24 * 60  # a league's default, not a tournament's 30 minutes
    assert imported.owner == olga and imported.battles.count() == league.battles.count()
    # Who a season held was not in version 1: everyone registered in the league.
    assert set(imported.seasons.get().memberships.values_list("general__name", flat=True)) == {
        "Ada", "Ben", "Cyd", "Dov"}
