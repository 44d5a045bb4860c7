"""The organizer's round page (/events/<slug>/round/, issue 15 item 1) and the one result form it shares
with the battle page, through Django's test client; one test in real Chromium. Also the event-day
defects of issue 15's "What was seen" list that belong to running a round."""
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.reporting.conftest import replay_between
from tests.web.conftest import ARTIFACTS, sign_in
from tournaments.domain import DomainError
from tournaments.eventday import round_desk
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.leagues import seasons
from tournaments.models import AuditEntry, Event, General, Report
from tournaments.results import recording, replays, reporting
from tournaments.results.agreement import variant_names

NAMES = ["Ada", "Ben", "Cyd", "Dov", "Eve", "Fox", "Gil", "Hal"]


def build_event(password=None):
    """8 generals with accounts, 2 groups of 4: 2 battles per group and round, 3 rounds. The
    organizer's password only for a browser to sign in with (hashing it takes a while)."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga", password=password))
    event = services.create_event(name="Harbour Open", slug="harbour-open", actor=organizer)
    for name in NAMES:
        general = General.objects.create(name=name, user=User.objects.create_user(name.lower()))
        services.register(event, general, actor=general.user)
    services.close_registration(event, actor=organizer)
    services.form_groups(event, 2, seed=11, actor=organizer)
    return Event.objects.get(pk=event.pk), organizer


@pytest.fixture
def event(db):
    return build_event()


def first_round(event):
    """The four battles of round 1: group A's two, then group B's."""
    return list(event.battles.filter(round=1).select_related("general_a", "general_b", "event")
                .order_by("group__index", "number"))


def report(battle, general, **result):
    return reporting.submit_report(battle, user=general.user, **result)


def win(battle, general, condition="shackle"):
    return {"kind": "victory", "winner": general, "condition": condition}


def line_of(page, battle):
    """The round page's entry of one battle."""
    return page.split(f'id="battle-{battle.pk}"')[1].split("</li>")[0]


def selected(html, field_id):
    select = html.split(f'id="{field_id}"')[1].split("</select>")[0]
    chosen = re.findall(r'<option value="([^"]*)" selected>', select)
    return chosen[0] if chosen else None


# --- what the page shows --------------------------------------------------------------------------

def test_the_page_shows_each_battle_of_the_current_round_with_its_state_in_words(client, event):
    event, organizer = event
    waiting, reported, disputed, counted = first_round(event)
    report(reported, reported.general_a, **win(reported, reported.general_a))
    created = report(disputed, disputed.general_a, **win(disputed, disputed.general_a, "blunt"))
    reporting.dispute_report(created, user=disputed.general_b.user, reason="He conceded, no blunt")
    recording.record_result(counted, kind="stalemate", actor=organizer)

    client.force_login(organizer)
    response = client.get("/events/harbour-open/round/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Group A — Round 1" in page and "Group B — Round 1" in page
    assert "Waiting for a report" in line_of(page, waiting)
    line = line_of(page, reported)
    assert "Reported" in line and f"waiting for {reported.general_b.name}" in line and "Counts by itself in" in line
    assert f"Accept the report: {reported.general_a.name} wins by Shackle" in line
    line = line_of(page, disputed)
    assert "Disputed" in line and "He conceded, no blunt" in line
    line = line_of(page, counted)
    assert "Counted" in line and "Stalemate" in line and "Accept the report" not in line
    disputes = page.split('id="disputes"')[1].split("</section>")[0]
    assert "He conceded, no blunt" in disputes and "waiting" in disputes
    confirmations = page.split('id="confirmations"')[1].split("</section>")[0]
    assert f"{reported.general_a.name} v {reported.general_b.name}" in confirmations
    assert "counts by itself in" in confirmations


def test_the_desk_is_gathered_without_http(event):
    event, organizer = event
    waiting, reported, _third, counted = first_round(event)
    report(reported, reported.general_a, kind="resolve")
    recording.record_result(counted, kind="victory", winner=counted.general_b, condition="crush", actor=organizer)
    desk = round_desk.gather(event)
    states = {line.battle.pk: line.state for sheet in desk.sheets for line in sheet.lines}
    assert states[waiting.pk] == "waiting" and states[reported.pk] == "reported" and states[counted.pk] == "counted"
    assert [line.battle.pk for line in desk.confirmations] == [reported.pk] and desk.disputes == []
    assert desk.confirmations[0].initial == {"kind": "resolve"}
    later = round_desk.gather(event, group_id=waiting.group_id, round_label="Round 2")
    assert [sheet.round_label for sheet in later.sheets] == ["Round 2"]
    assert all(line.battle.round == 2 for line in later.sheets[0].lines)


def test_a_report_the_engine_checked_or_disputed_is_shown_with_the_engines_sentence(
        client, event, django_capture_on_commit_callbacks):
    event, organizer = event
    checked, disputed = first_round(event)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        report(checked, checked.general_a, replay=replay_between("victory-shackle", checked.general_a,
                                                                 checked.general_b), **win(checked, checked.general_a))
        report(disputed, disputed.general_a, replay=replay_between("victory-shackle", disputed.general_a,
                                                                   disputed.general_b),
               **win(disputed, disputed.general_a, "crush"))
    client.force_login(organizer)
    page = client.get("/events/harbour-open/round/").content.decode()
    line = line_of(page, checked)
    assert "Checked by the engine" in line and f"waiting for {checked.general_b.name}" in line
    line = line_of(page, disputed)
    assert "Disputed" in line and "the engine disagrees" in line
    assert "The report says" in line and "the replay gives" in line  # the engine's sentence
    assert f"Accept the engine's verdict: {disputed.general_a.name} wins by Shackle" in line
    # The form starts from the verdict, the evidence, not from the contested report.
    assert selected(line, f"id_b{disputed.pk}_condition") == "shackle"


# --- one click ----------------------------------------------------------------------------------------

def test_one_click_accepts_a_report_as_reported_counts_it_and_audits_it(client, event):
    event, organizer = event
    battle = first_round(event)[1]
    created = report(battle, battle.general_a, **win(battle, battle.general_a))
    client.force_login(organizer)
    response = client.post(f"/events/harbour-open/round/?group={battle.group_id}",
                           {"action": "accept_report", "report": created.pk})
    assert response.status_code == 302 and response["Location"] == f"/events/harbour-open/round/?group={battle.group_id}"
    battle.refresh_from_db()
    created.refresh_from_db()
    assert battle.kind == "victory" and battle.winner == battle.general_a and battle.condition == "shackle"
    assert created.status == Report.Status.CONFIRMED and created.answered_by == organizer
    entry = AuditEntry.objects.filter(event=event, action="result recorded").latest("id")
    assert entry.actor == organizer and entry.after["winner"] == battle.general_a.name
    page = client.get(response["Location"]).content.decode()
    assert "Counted" in line_of(page, battle)


def test_one_click_accepts_the_engines_verdict_as_an_override_with_the_verdict_as_reason(
        client, event, django_capture_on_commit_callbacks):
    event, organizer = event
    battle = first_round(event)[0]
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        created = report(battle, a, replay=replay_between("victory-shackle", a, b), **win(battle, a, "crush"))
    created.refresh_from_db()
    assert created.status == Report.Status.DISPUTED
    client.force_login(organizer)
    client.post("/events/harbour-open/round/", {"action": "accept_verdict", "report": created.pk})
    battle.refresh_from_db()
    assert battle.winner == a and battle.condition == "shackle" and battle.player_1 == a
    entry = AuditEntry.objects.filter(event=event, action="report overridden").latest("id")
    assert entry.actor == organizer and "rules engine's verdict" in entry.reason and "Shackle" in entry.reason


def test_a_stale_click_is_refused_with_a_sentence(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    created = report(battle, battle.general_a, kind="stalemate")
    reporting.confirm_report(created, user=battle.general_b.user)
    client.force_login(organizer)
    response = client.post("/events/harbour-open/round/", {"action": "accept_report", "report": created.pk},
                           follow=True)
    assert "cannot be confirmed" in response.content.decode()


# --- the one form ------------------------------------------------------------------------------------

def test_a_result_entered_inline_counts_and_is_audited(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(organizer)
    response = client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk,
                                                           "kind": "resolve", "reason": ""})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.kind == "resolve" and battle.winner is None
    assert AuditEntry.objects.filter(event=event, action="result recorded", actor=organizer).exists()


def test_a_surrender_is_a_victory_of_the_other_general(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(organizer)
    client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk, "kind": "surrender",
                                                "surrendered_by": battle.general_a.pk,
                                                "surrender": "voluntary_surrender"})
    battle.refresh_from_db()
    assert battle.kind == "victory" and battle.winner == battle.general_b
    assert battle.condition == "voluntary_surrender"


def test_a_stalemate_with_a_winner_is_refused_with_a_sentence_and_what_was_typed_is_kept(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(organizer)
    response = client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk,
                                                           "kind": "stalemate", "winner": battle.general_a.pk,
                                                           "reason": "typed by hand"})
    page = response.content.decode()
    assert response.status_code == 200
    line = line_of(page, battle)
    assert "A Stalemate has no winner" in line and "<details open>" in line
    assert selected(line, f"id_b{battle.pk}_kind") == "stalemate"
    assert selected(line, f"id_b{battle.pk}_winner") == str(battle.general_a.pk)
    assert "typed by hand" in line
    battle.refresh_from_db()
    assert not battle.kind


def test_the_services_refuse_a_stalemate_with_a_winner_too(event):
    event, organizer = event
    battle = first_round(event)[0]
    with pytest.raises(DomainError, match="A Stalemate has no winner"):
        reporting.decide_battle(battle, user=organizer, kind="stalemate", winner=battle.general_a)
    with pytest.raises(DomainError, match="A Resolve has no winner"):
        report(battle, battle.general_a, kind="resolve", winner=battle.general_b)
    assert not Report.objects.exists()
    battle.refresh_from_db()
    assert not battle.kind


def test_an_incomplete_victory_keeps_what_was_typed(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(organizer)
    page = client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk,
                                                       "kind": "victory", "winner": battle.general_b.pk}
                       ).content.decode()
    line = line_of(page, battle)
    assert "By which victory condition?" in line
    assert selected(line, f"id_b{battle.pk}_winner") == str(battle.general_b.pk)


def test_the_form_starts_from_the_report_and_sent_as_it_is_accepts_it_without_a_reason(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    a, b = battle.general_a, battle.general_b
    created = report(battle, b, player_1=a, **win(battle, b, "crush"))
    client.force_login(organizer)
    line = line_of(client.get("/events/harbour-open/round/").content.decode(), battle)
    assert selected(line, f"id_b{battle.pk}_kind") == "victory"
    assert selected(line, f"id_b{battle.pk}_winner") == str(b.pk)
    assert selected(line, f"id_b{battle.pk}_condition") == "crush"
    assert selected(line, f"id_b{battle.pk}_player_1") == str(a.pk)
    client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk, "kind": "victory",
                                                "winner": b.pk, "condition": "crush", "player_1": a.pk})
    created.refresh_from_db()
    battle.refresh_from_db()
    assert created.status == Report.Status.CONFIRMED and battle.winner == b and battle.player_1 == a


def test_deciding_otherwise_than_the_report_needs_a_reason(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    a, b = battle.general_a, battle.general_b
    created = report(battle, a, **win(battle, a))
    client.force_login(organizer)
    data = {"action": "record", "battle": battle.pk, "kind": "victory", "winner": b.pk, "condition": "crush"}
    page = client.post("/events/harbour-open/round/", data).content.decode()
    assert "An override needs a reason" in line_of(page, battle)
    client.post("/events/harbour-open/round/", {**data, "reason": "Judge saw the board"})
    battle.refresh_from_db()
    created.refresh_from_db()
    assert battle.winner == b and created.status == Report.Status.OVERRIDDEN
    entry = AuditEntry.objects.filter(event=event, action="report overridden").latest("id")
    assert entry.reason == "Judge saw the board"


def test_only_organizers_open_the_round_page(client, event):
    event, organizer = event
    assert client.get("/events/harbour-open/round/")["Location"].startswith("/accounts/login/")
    client.force_login(General.objects.get(name="Ada").user)
    assert client.get("/events/harbour-open/round/").status_code == 403
    battle = first_round(event)[0]
    refused = client.post("/events/harbour-open/round/", {"action": "record", "battle": battle.pk, "kind": "resolve"})
    assert refused.status_code == 403
    battle.refresh_from_db()
    assert not battle.kind
    client.force_login(organizer)
    assert client.get("/events/harbour-open/round/?group=999999").status_code == 404


def test_an_organizer_who_plays_does_not_decide_their_own_battle_on_the_round_page(client, event):
    event, organizer = event
    own, other = first_round(event)[:2]
    event.organizers.add(own.general_a.user)  # R90: a playing organizer reports as a general
    created = report(own, own.general_a, kind="stalemate")  # waits for the opponent like any general's
    assert created.status == Report.Status.AWAITING_OPPONENT
    client.force_login(own.general_a.user)
    page = client.get("/events/harbour-open/round/").content.decode()
    line = line_of(page, own)
    assert "Your own battle" in line and "Accept the report" not in line and 'name="kind"' not in line
    assert 'name="kind"' in line_of(page, other)
    refused = client.post("/events/harbour-open/round/", {"action": "accept_report", "report": created.pk},
                          follow=True)
    assert "Only the opponent of the general who reported, or an organizer" in refused.content.decode()
    own.refresh_from_db()
    assert not own.kind


def test_the_round_page_is_linked_for_organizers_only(client, event):
    event, organizer = event
    assert "/events/harbour-open/round/" not in client.get("/events/harbour-open/").content.decode()
    client.force_login(organizer)
    assert "/events/harbour-open/round/" in client.get("/events/harbour-open/").content.decode()
    assert "/events/harbour-open/round/" in client.get("/events/harbour-open/manage/").content.decode()


def test_a_league_season_is_run_from_the_same_page(client, db):
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga"))
    league = services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    ada, ben = (General.objects.create(name=n, user=User.objects.create_user(n.lower())) for n in ("Ada", "Ben"))
    for general in (ada, ben):
        services.register(league, general, actor=general.user)
    season = seasons.open_season(league, "Autumn", actor=organizer)
    battle = seasons.schedule_battle(season, ada, ben, actor=organizer)
    client.force_login(organizer)
    page = client.get("/events/pier/round/").content.decode()
    assert "Autumn — Scheduled battles" in page and "Waiting for a report" in line_of(page, battle)
    client.post(f"/events/pier/round/?season={season.pk}", {"action": "record", "battle": battle.pk,
                                                             "kind": "stalemate"})
    battle.refresh_from_db()
    assert battle.kind == "stalemate"


# --- the battle page: one form for organizers, the report form for players ------------------------

def test_the_battle_page_has_one_form_for_organizers_and_the_report_form_for_players(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    a, b = battle.general_a, battle.general_b
    report(battle, a, **win(battle, a, "blunt"))
    client.force_login(organizer)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert page.count('name="kind"') == 1 and "Send the report" not in page and "Organizer: record" not in page
    assert "Decide the report" in page and f"Accept the report: {a.name} wins by Blunt" in page
    assert selected(page, "id_condition") == "blunt" and selected(page, "id_winner") == str(a.pk)
    assert 'data-kinds="victory"' in page and "js/result-form.js" in page
    client.force_login(b.user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Record the result" not in page and 'name="reason"' in page  # the dispute's reason only
    other = first_round(event)[1]
    client.force_login(other.general_a.user)
    page = client.get(f"/battles/{other.pk}/").content.decode()
    assert page.count('name="kind"') == 1 and "Send the report" in page


def test_the_battle_pages_form_refuses_a_stalemate_with_a_winner(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(organizer)
    page = client.post(f"/battles/{battle.pk}/result/", {"kind": "stalemate", "winner": battle.general_b.pk}
                       ).content.decode()
    assert "A Stalemate has no winner" in page
    battle.refresh_from_db()
    assert not battle.kind
    client.force_login(battle.general_a.user)  # the players' report form says the same
    page = client.post(f"/battles/{battle.pk}/report/", {"kind": "stalemate", "winner": battle.general_b.pk}
                       ).content.decode()
    assert "A Stalemate has no winner" in page and not Report.objects.exists()


def test_accepting_from_the_battle_page_returns_to_it(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    created = report(battle, battle.general_a, kind="stalemate")
    client.force_login(organizer)
    response = client.post("/events/harbour-open/round/", {"action": "accept_report", "report": created.pk,
                                                           "next": f"/battles/{battle.pk}/"})
    assert response["Location"] == f"/battles/{battle.pk}/"
    evil = client.post("/events/harbour-open/round/", {"action": "accept_report", "report": created.pk,
                                                       "next": "https://elsewhere.example/"})
    assert evil["Location"] == "/events/harbour-open/round/"


# --- defects from issue 15's "What was seen" -------------------------------------------------------

def test_the_schedule_says_a_disputed_battle_is_disputed_not_unplayed(client, event):
    event, organizer = event
    disputed, reported = first_round(event)[:2]
    created = report(disputed, disputed.general_a, kind="stalemate")
    reporting.dispute_report(created, user=disputed.general_b.user, reason="private reason")
    report(reported, reported.general_a, kind="resolve")
    page = client.get("/events/harbour-open/").content.decode()
    schedule_line = page.split(f'href="/battles/{disputed.pk}/"')[1].split("</li>")[0]
    assert "disputed: an organizer decides" in schedule_line and "not played yet" not in schedule_line
    assert "private reason" not in page  # the reason is for the generals and the organizers
    schedule_line = page.split(f'href="/battles/{reported.pk}/"')[1].split("</li>")[0]
    assert "reported, waiting for confirmation" in schedule_line


def test_my_battles_tells_the_one_who_must_confirm_that_it_is_their_turn(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    a, b = battle.general_a, battle.general_b
    report(battle, a, kind="stalemate")
    client.force_login(b.user)
    row = client.get("/my/battles/").content.decode().split("<tbody>")[1]
    assert "Waiting for your confirmation" in row and "Waiting for the opponent" not in row
    client.force_login(a.user)
    row = client.get("/my/battles/").content.decode().split("<tbody>")[1]
    assert f"Waiting for {b.name}&#x27;s confirmation" in row or f"Waiting for {b.name}'s confirmation" in row


def test_a_broken_upload_error_reads_well(client, event):
    event, organizer = event
    battle = first_round(event)[0]
    client.force_login(battle.general_a.user)
    upload = SimpleUploadedFile("battle.json", b'{"generals": "Ada')
    page = client.post(f"/battles/{battle.pk}/report/", {"kind": "stalemate", "replay_file": upload}).content.decode()
    assert "not valid JSON: Unterminated string starting at line 1, column 14." in page
    assert "at at" not in page
    with pytest.raises(DomainError) as refused:
        replays.read_replay_upload('{"a": 1,,}')
    assert "at at" not in str(refused.value) and "line 1, column 9" in str(refused.value)


def test_the_wrong_variants_sentence_names_the_variants_not_their_keys(event):
    event, organizer = event
    assert variant_names(["battle_arts", "double_time"]) == "Battle Arts, Double Time"
    assert variant_names(["moon_rules"]) == "'moon_rules'"


def test_the_forfeit_checkbox_sits_with_its_label():
    from django import forms
    from django.template.loader import render_to_string

    from tournaments.web.forms import EventForm

    class Rules(forms.Form):  # the event form's checkbox, through the partial every form is drawn with
        forfeit_counts_as_victory = EventForm.base_fields["forfeit_counts_as_victory"]

    page = render_to_string("tournaments/partials/form.html", {"form": Rules()})
    label = page.split('<label for="id_forfeit_counts_as_victory">')[1].split("</label>")[0]
    assert label.lstrip().startswith("<input") and 'type="checkbox"' in label
    assert "A forfeit counts as a Victory" in label


def test_the_result_form_script_is_a_local_static_file(client, event):
    from django.contrib.staticfiles import finders

    path = finders.find("js/result-form.js")
    assert path and "data-kinds" in Path(path).read_text()
    event, organizer = event
    client.force_login(organizer)
    page = client.get("/events/harbour-open/round/").content.decode()
    assert "/static/js/result-form.js" in page and "cdn" not in page.lower()


# --- in Chromium ----------------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organizer_records_a_result_on_the_round_page_and_sees_it_counted(live_server, browser):
    event, organizer = build_event(password="pw")
    battle = first_round(event)[0]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(page, live_server.url, "olga")
    page.goto(f"{live_server.url}/events/harbour-open/round/")
    line = page.locator(f"#battle-{battle.pk}")
    assert "Waiting for a report" in line.inner_text()
    line.locator("summary").click()
    kind = line.locator("select[name=kind]")
    kind.select_option("stalemate")
    assert not line.locator("select[name=winner]").is_visible()  # the fields follow the kind
    assert line.locator("select[name=player_1]").is_visible()
    kind.select_option("victory")
    line.locator("select[name=winner]").select_option(str(battle.general_b.pk))
    line.locator("select[name=condition]").select_option("paralyze")
    assert not line.locator("select[name=forfeited_by]").is_visible()
    line.locator("button:has-text('Record the result')").click()
    line = page.locator(f"#battle-{battle.pk}")
    line.locator(".badge.state-counted").wait_for()
    assert f"{battle.general_b.name} wins by Paralyze" in line.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "round-page-phone.png"), full_page=True)
    battle.refresh_from_db()
    assert battle.winner_id == battle.general_b.pk and battle.condition == "paralyze"
    standings = page.context.new_page()
    standings.goto(f"{live_server.url}/events/harbour-open/")
    assert standings.locator("table.standings tr", has_text=battle.general_b.name).first.is_visible()
