"""The public CSV/JSON exports and the whole-event archive: what goes in, what stays out, and an
archive that imports on another site exactly as it was exported."""
import copy
import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.tournaments.helpers import make_tournament, open_battles, victory
from tournaments.domain import TIEBREAKERS
from tournaments.eventday import archive, exports
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, Disqualification, Event, General, Report
from tournaments.results import recording

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_event():
    """8 generals in 2 groups; group A has a victory by Crush, a Stalemate and a forfeit; a general
    whose name looks like a formula; a general of group B is disqualified (R23) with battles still to play."""
    event, generals = make_tournament(8, slug="quay-open", variants=["battle_arts"])
    event.organizers.add(grant_organizer_role(get_user_model().objects.create_user("olga")))
    alice = generals[0]
    alice.name, alice.external_id = "=HYPERLINK(\"http://evil\")", "LM-0001"
    alice.save()
    services.form_groups(event, 2, "random", seed=7)
    group_a = event.groups.get(index=0)
    first, second, third = open_battles(group_a)[:3]
    victory(first, first.general_a, condition="crush")
    recording.record_result(second, kind=Battle.Kind.STALEMATE)
    recording.record_result(third, kind=Battle.Kind.FORFEIT, forfeited_by=third.general_b)
    group_b = event.groups.get(index=1)
    disqualified = group_b.members.order_by("position").first().general
    services.disqualify(event, disqualified, reason=Disqualification.Reason.CONDUCT, details="Shouted")
    Report.objects.create(battle=open_battles(group_b)[0], kind=Battle.Kind.VICTORY, replay="SECRET-REPLAY",
                          status=Report.Status.DISPUTED, status_reason="SECRET-DISPUTE-REASON")
    event.refresh_from_db()
    return event, disqualified


def csv_rows(table):
    return list(csv.reader(io.StringIO(exports.to_csv(table))))


# --- CSV and JSON exports ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["=1+2", "+1", "-2+3", "@SUM(A1)", "\tx", "\r=x"])
def test_a_cell_that_would_start_a_formula_is_written_as_text(text):
    assert exports.safe_cell(text).startswith("'" + text[0])


def test_numbers_and_ordinary_text_are_written_as_they_are():
    assert exports.safe_cell(-10) == -10 and exports.safe_cell("Group A") == "Group A"
    assert exports.safe_cell(None) == "" and exports.safe_cell(True) == "yes"


def test_the_csv_has_a_header_row_and_defuses_a_formula_in_a_generals_name(played_event):
    event, _ = played_event
    rows = csv_rows(exports.registrations_table(event))
    assert rows[0][:4] == ["Number", "General", "Seed", "Status"]
    assert rows[1][1] == "'=HYPERLINK(\"http://evil\")"
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_standings_export_has_every_tie_break_figure_by_its_public_name(played_event):
    event, _ = played_event
    rows = csv_rows(exports.standings_table(event))
    header = rows[0]
    for metric in TIEBREAKERS:
        assert metric.label in header
    group_a = [dict(zip(header, row, strict=True)) for row in rows[1:] if row[0] == "Group A"]
    assert len(group_a) == 4
    winner_by_crush = next(r for r in group_a if r["Victories by Crush"] == "1")
    assert winner_by_crush["Place"] == "1" and winner_by_crush["Organized Play Points"] == "3"  # R21: Crush gives 3 OPP
    assert sum(int(r["Defeats by Stalemate"]) for r in group_a) == 2


def test_standings_export_marks_the_disqualified_general(played_event):
    event, disqualified = played_event
    document = exports.standings_table(event).as_json(event)
    row = next(r for r in document["rows"] if r["general"] == disqualified.name)
    assert row["disqualified"] is True and row["decided"] is False
    assert all(r["disqualified"] is False for r in document["rows"] if r["general"] != disqualified.name)
    assert {"key": "resolve_defeats", "label": "Defeats by Resolve"} in document["columns"]
    registration = next(r for r in exports.registrations_table(event).rows if r["general"] == disqualified.name)
    assert registration["disqualified"] and registration["disqualification"] == "Conduct"


def test_results_export_has_counted_results_only_and_nothing_private(played_event):
    event, disqualified = played_event
    table = exports.results_table(event)
    kinds = sorted(row["result"] for row in table.rows)
    assert kinds.count("Victory") == 1 and kinds.count("Stalemate") == 1 and kinds.count("Forfeit") == 1
    assert kinds.count("Not fought (disqualification)") == 3  # R23: the three battles the general had to play
    unplayed = next(r for r in table.rows if r["disqualified"])
    assert unplayed["disqualified"] == disqualified.name and unplayed["forfeited_by"] is None
    assert {unplayed["opp_a"], unplayed["opp_b"]} == {0, 1}
    victory_row = next(r for r in table.rows if r["result"] == "Victory")
    assert victory_row["condition"] == "Crush" and victory_row["opp_a"] + victory_row["opp_b"] == 3
    everything = json.dumps([exports.BUILDERS[what](event).as_json(event) for what in exports.EXPORTS])
    assert "SECRET" not in everything and "LM-0001" not in everything


def test_schedule_export_numbers_tables_per_round(played_event):
    event, _ = played_event
    rows = exports.schedule_table(event).rows
    group_a_round_1 = [r for r in rows if r["where"] == "Group A" and r["round"] == 1]
    assert [r["table"] for r in group_a_round_1] == [1, 2]
    assert len(rows) == event.battles.count()


# --- the whole-event archive ----------------------------------------------------------------------------

def without_identity(document):
    """An archive with what must differ between two sites (slug, export time) taken out."""
    document = copy.deepcopy(document)
    document.pop("exported_at")
    document["event"].pop("slug")
    return document


def test_an_archive_imports_under_a_new_slug_and_exports_again_the_same(played_event, tmp_path):
    event, _ = played_event
    first = archive.build_archive(event)
    path = tmp_path / "quay.json"
    path.write_text(json.dumps(first), encoding="utf-8")
    call_command("event_import", str(path), "--slug", "quay-copy", "--organizer", "olga", stdout=io.StringIO())
    copy_ = Event.objects.get(slug="quay-copy")
    second = archive.build_archive(copy_)
    # The original has no owner; the command makes its first --organizer the copy's (R97).
    assert (first["event"].pop("owner"), second["event"].pop("owner")) == (None, "olga")
    assert without_identity(second) == without_identity(first)
    assert first["audit"] and first["disqualifications"] and len(first["battles"]) == 12
    # The standings the copy shows are the original's.
    assert exports.standings_table(copy_).rows == exports.standings_table(event).rows


def test_an_archive_holds_every_report_with_its_replay_but_no_password_email_or_claim_code(played_event):
    """The organizer's archive is the whole event (R97): the disputed report, its replay and reason go in;
    accounts only by username, and no general's claim code."""
    event, _ = played_event
    olga = get_user_model().objects.get(username="olga")
    olga.email = "olga@example.org"
    olga.save()
    document = archive.build_archive(event)
    text = json.dumps(document)
    assert "SECRET-REPLAY" in text and "SECRET-DISPUTE-REASON" in text
    assert document["event"]["organizers"] == ["olga"]
    assert "password" not in text and "pbkdf2" not in text and "olga@example.org" not in text
    assert not any(general.claim_code in text for general in General.objects.all())
    assert document["format"] == "warline-opp-event-archive" and document["version"] == 2


def test_import_matches_generals_by_external_id_and_creates_the_others_without_an_account(played_event):
    event, _ = played_event
    document = archive.build_archive(event)
    before = General.objects.count()
    olga = get_user_model().objects.get(username="olga")  # she organizes the event Alice plays in (R96)
    copy_ = archive.import_archive(document, slug="quay-copy", organizers=[olga])
    alice = General.objects.get(external_id="LM-0001")
    assert copy_.registrations.filter(general=alice).exists() and copy_.owner == olga
    assert General.objects.count() == before + 7  # every general but the one with an external id is new
    assert not General.objects.filter(registrations__event=copy_).exclude(user=None).exists()


def test_import_refuses_to_enter_a_claimed_general_without_its_player(played_event, django_user_model):  # R78
    event, _ = played_event
    alice = General.objects.get(external_id="LM-0001")
    alice.user = django_user_model.objects.create_user("alice-player", password="pw")
    alice.save()
    with pytest.raises(archive.ArchiveError, match="LM-0001.*claimed"):
        archive.import_archive(archive.build_archive(event), slug="quay-copy")
    assert not Event.objects.filter(slug="quay-copy").exists()
    assert not alice.registrations.exclude(event=event).exists()


def test_import_refuses_a_slug_that_is_taken(played_event, tmp_path):
    event, _ = played_event
    with pytest.raises(archive.ArchiveError, match="quay-open.*exists already") as refused:
        archive.import_archive(archive.build_archive(event))
    assert refused.value.field == "slug" and "--slug" not in str(refused.value)  # the web page says it in its words
    path = tmp_path / "quay.json"
    path.write_text(json.dumps(archive.build_archive(event)), encoding="utf-8")
    with pytest.raises(CommandError, match="exists already. Import it under another with --slug"):
        call_command("event_import", str(path))


def broken(document, change):
    document = copy.deepcopy(document)
    change(document)
    return document


BAD_ARCHIVES = {
    "wrong format": (lambda d: d.update(format="something-else"), "not a WARLINE event archive"),
    "wrong version": (lambda d: d.update(version=3), "version 3 is not supported"),
    "version that is no number": (lambda d: d.update(version=True), "version True is not supported"),
    "missing battles": (lambda d: d.pop("battles"), "no 'battles'"),
    "battle without a round": (lambda d: d["battles"][0].pop("round"), "Battle 1 has no 'round'"),
    "unknown general": (lambda d: d["battles"][-1].update(general_a="g99"),
                        "Battle 12 names general 'g99', whom the archive's generals do not include"),
    "unknown group": (lambda d: d["battles"][0].update(group="final-7"), "names group 'final-7'"),
    "bad result kind": (lambda d: d["battles"][0].update(kind="landslide"), "Battle 1 is not valid: kind"),
    "generals not a list": (lambda d: d.update(generals={}), "'generals' must be a list"),
    "general named by a list": (lambda d: d["registrations"][0].update(general=["g1"]),
                                "Registration 1 names general \\['g1'\\]"),
    "battle not an object": (lambda d: d["battles"].append(7), "Battle 13 must be an object"),
    "unknown variant": (lambda d: d["event"].update(variants=["jetpacks"]), "Unknown Rules Variant"),
    "time that is no time": (lambda d: d["audit"][0].update(at="yesterday"), "Audit entry 1 is not valid: at"),
    "two registrations with one number": (lambda d: d["registrations"][1].update(number=1), "contradicts itself"),
}


@pytest.mark.parametrize("name", BAD_ARCHIVES)
def test_a_bad_archive_is_refused_with_a_clear_error_and_writes_nothing(played_event, name):
    event, _ = played_event
    change, message = BAD_ARCHIVES[name]
    counts = (Event.objects.count(), General.objects.count(), Battle.objects.count())
    with pytest.raises(archive.ArchiveError, match=message):
        archive.import_archive(broken(archive.build_archive(event), change), slug="quay-copy")
    assert (Event.objects.count(), General.objects.count(), Battle.objects.count()) == counts


def test_the_import_command_reports_a_malformed_file(tmp_path, db):
    path = tmp_path / "broken.json"
    path.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("event_import", str(path))
    path.write_text(json.dumps({"format": "warline-opp-event-archive", "version": 1}), encoding="utf-8")
    with pytest.raises(CommandError, match="The archive has no 'event'"):
        call_command("event_import", str(path))


@pytest.mark.django_db
def test_the_archive_keeps_the_events_board_and_refuses_one_off_the_rules(client):
    """An event fixes its board (R92, R109): the archive carries it, and an import with a board the
    rules do not allow is refused with a sentence, nothing imported."""
    organizer = grant_organizer_role(get_user_model().objects.create_user("bora"))
    event = services.create_event(name="Big Board Open", slug="big-board-open", actor=organizer,
                                  board_width=9, board_height=5)
    document = archive.build_archive(event)
    assert (document["event"]["board_width"], document["event"]["board_height"]) == (9, 5)
    imported = archive.import_archive(copy.deepcopy(document), slug="big-board-copy", organizers=[organizer])
    assert (imported.board_width, imported.board_height) == (9, 5)

    document["event"]["board_width"] = 40
    with pytest.raises(archive.ArchiveError, match="1 to 26"):
        archive.import_archive(document, slug="too-wide", organizers=[organizer])
    assert not Event.objects.filter(slug="too-wide").exists()
