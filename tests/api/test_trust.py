"""The trust model (R75-R78): each abuse seen when trying the product as a cheating player or a
stranger is refused or held until both generals stand behind the result or an organizer decides."""
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from tests.reporting.conftest import replay_between, reported, reported_shackle
from tournaments.domain import Conflict, NotAllowed
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Battle, Event, General, Registration, Report
from tournaments.results import confirmation, recording, reporting
from tournaments.standings import tables

from .conftest import as_user

pytestmark = pytest.mark.django_db
User = get_user_model()


# --- attestation ----------------------------------------------------------------------------------

def test_a_forged_replay_waits_for_the_opponent_whose_dispute_is_accepted(event_day,
                                                                          django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    forged = replay_between("victory-shackle", a, b)
    forged["meta"] = {"general_ids": {"p1": a.pk, "p2": b.pk}}  # a legal game the reporter made up
    created = reported(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                       condition="shackle", replay=forged)
    assert created.status == Report.Status.CHECKED and not battle.kind
    assert tables.group_standings(battle.group).pending_results == 1
    answer = as_user(b.user).post(f"/api/v1/reports/{created.pk}/dispute/", {"reason": "We never played."},
                                  format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "disputed"
    assert confirmation.confirm_expired(now=timezone.now() + timedelta(days=30)) == []  # a dispute never expires
    battle.refresh_from_db()
    assert not battle.kind and created in reporting.open_reports(event)


def test_a_report_counts_by_itself_once_the_window_passes(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="blunt")
    assert event.confirmation_minutes == 30
    assert abs(created.confirm_by - created.created_at - timedelta(minutes=30)) < timedelta(seconds=1)
    assert confirmation.confirm_expired(now=created.confirm_by - timedelta(seconds=1)) == []
    done = confirmation.confirm_expired(now=created.confirm_by + timedelta(seconds=1))
    assert [item.report.pk for item in done] == [created.pk]
    battle.refresh_from_db()
    created.refresh_from_db()
    assert battle.kind == "victory" and battle.winner == a
    assert created.status == Report.Status.CONFIRMED and f"{b.name} did not confirm" in created.status_reason
    with pytest.raises(Conflict, match="dispute"):  # too late to dispute
        reporting.dispute_report(created, user=b.user, reason="late")


def test_the_next_request_and_the_command_confirm_expired_reports_without_a_worker(event_day):
    event, organizer, battle = event_day
    a = battle.general_a
    created = reporting.submit_report(battle, user=a.user, kind="stalemate")
    Report.objects.filter(pk=created.pk).update(confirm_by=timezone.now() - timedelta(minutes=1))
    standings = as_user().get(f"/api/v1/events/{event.slug}/standings/").json()
    row = next(r for t in standings["tables"] for r in t["rows"] if r["general"]["id"] == a.pk)
    assert row["played"] == 1
    other = event.battles.filter(kind="").exclude(pk=battle.pk).first()
    late = reporting.submit_report(other, user=other.general_a.user, kind="resolve")
    Report.objects.filter(pk=late.pk).update(confirm_by=timezone.now() - timedelta(minutes=1))
    call_command("confirm_expired", stdout=(out := __import__("io").StringIO()))
    assert "1 report(s) confirmed" in out.getvalue()
    other.refresh_from_db()
    assert other.kind == "resolve"


def test_two_matching_uploads_confirm_at_once(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = reported(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                     condition="shackle", replay=replay_between("victory-shackle", a, b,
                                                                          meta={"tool": "A's laptop"}))
    assert first.status == Report.Status.CHECKED
    second = reported(battle, b.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                      condition="shackle", replay=replay_between("victory-shackle", a, b,
                                                                           meta={"tool": "B's phone"}))
    first.refresh_from_db()
    assert first.status == second.status == Report.Status.CONFIRMED
    assert "same result" in first.status_reason  # the same result and the same log, with the same sides (R92)
    assert battle.kind == "victory" and battle.winner == a


def test_the_opponent_reporting_another_result_disputes_both(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    first = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="crush")
    second = reporting.submit_report(battle, user=b.user, kind="victory", winner=b, condition="crush")
    first.refresh_from_db()
    assert first.status == second.status == Report.Status.DISPUTED
    assert f"{b.name} reported another result" in first.status_reason
    battle.refresh_from_db()
    assert not battle.kind


def test_a_decided_playoff_cannot_be_reported_again(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    playoff = Battle.objects.create(event=event, group=battle.group, playoff=True, number=99, general_a=a,
                                    general_b=b)
    recording.record_result(playoff, kind="stalemate", actor=organizer)
    response = as_user(a.user).post(f"/api/v1/battles/{playoff.pk}/reports/",
                                    {"kind": "victory", "winner": a.pk, "condition": "crush"}, format="json")
    detail = response.json()["detail"]
    assert response.status_code == 409
    assert "playoff battle is decided (Stalemate)" in detail and "an organizer corrects" in detail
    playoff.refresh_from_db()
    assert playoff.kind == "stalemate" and not playoff.reports.exists()


def test_an_override_or_a_result_over_a_report_needs_a_reason_and_is_audited_as_such(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="crush")
    reporting.dispute_report(created, user=b.user, reason="It was a stalemate.")
    org = as_user(organizer)
    assert org.post(f"/api/v1/reports/{created.pk}/override/", {"reason": ""}, format="json").status_code == 400
    empty = org.post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "stalemate"}, format="json")
    assert empty.status_code == 400 and "reason" in empty.json()["fields"]
    done = org.post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "stalemate", "reason": "Judge saw it"},
                    format="json")
    assert done.status_code == 200 and done.json()["result"]["kind"] == "stalemate"
    entry = AuditEntry.objects.get(event=event, action="report overridden")
    assert entry.reason == "Judge saw it" and entry.after["kind"] == "stalemate"
    created.refresh_from_db()
    assert created.status == Report.Status.OVERRIDDEN
    assert org.post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "resolve"}, format="json").status_code == 400
    org.post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "resolve", "reason": "Misread the log"},
             format="json")
    corrected = AuditEntry.objects.get(event=event, action="result corrected")
    assert corrected.before["kind"] == "stalemate" and corrected.after["kind"] == "resolve"


def test_a_confirmed_forfeit_reaching_the_limit_offers_disqualification_everywhere(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    event.forfeits_to_disqualify = 1
    event.save()
    created = reporting.submit_report(battle, user=a.user, kind="forfeit", forfeited_by=b)
    confirmed = as_user(b.user).post(f"/api/v1/reports/{created.pk}/confirm/").json()
    assert confirmed["offer_disqualification"] == {"id": b.pk, "name": b.name, "reason": "forfeits"}
    offers = as_user(organizer).get(f"/api/v1/events/{event.slug}/offers/").json()
    assert offers == [{"id": b.pk, "name": b.name}]
    page = _client_page(organizer, f"/events/{event.slug}/manage/")
    assert "Forfeit limit reached" in page and b.name in page


# --- who sees what --------------------------------------------------------------------------------

def test_reports_and_replays_are_hidden_from_the_public(event_day, django_capture_on_commit_callbacks, client):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reported(battle, a.user, django_capture_on_commit_callbacks, kind="victory", winner=a,
                       condition="crush", replay=replay_between("victory-shackle", a, b))
    reporting.override_report(created, user=organizer, reason="Secret judge note", kind="victory", winner=a,
                              condition="shackle")
    outsider = next(m.general for g in event.groups.all() for m in g.members.all() if not battle.involves(m.general))
    for who in (None, outsider.user):
        assert as_user(who).get(f"/api/v1/reports/{created.pk}/").status_code in (401, 403, 404)
        assert as_user(who).get(f"/api/v1/battles/{battle.pk}/reports/").status_code in (401, 403)
    assert as_user(b.user).get(f"/api/v1/reports/{created.pk}/").status_code == 200
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert f"{a.name} wins by Shackle" in page  # the counted result is public
    assert "Secret judge note" not in page and "reported by" not in page
    assert client.get(f"/battles/{battle.pk}/replay/").status_code == 404


# --- organizing is granted ------------------------------------------------------------------------

def test_without_the_granted_role_nobody_creates_events(client):
    sam = User.objects.create_user("sam", password="pw")
    with pytest.raises(NotAllowed, match="site staff grant"):
        services.create_event(name="Fake Cup", slug="fake", actor=sam)
    client.force_login(sam)
    assert "New event" not in client.get("/").content.decode()
    refused = client.get("/events/new/")
    assert refused.status_code == 403 and "site staff grant" in refused.content.decode()
    call_command("grant_organizer", "sam", stdout=__import__("io").StringIO())
    assert "New event" in client.get("/").content.decode()
    assert client.get("/events/new/").status_code == 200


def test_an_organizer_adds_and_removes_co_organizers(event_day):
    event, organizer, battle = event_day
    cora = grant_organizer_role(User.objects.create_user("cora"))
    org = as_user(organizer)
    invited = org.post(f"/api/v1/events/{event.slug}/organizers/", {"username": "cora"}, format="json")
    assert invited.status_code == 201 and invited.json()["status"] == "pending"
    assert as_user(cora).get(f"/api/v1/events/{event.slug}/queue/").status_code == 403  # not before she accepts
    accepted = as_user(cora).post(f"/api/v1/organizer-invitations/{invited.json()['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert as_user(cora).get(f"/api/v1/events/{event.slug}/queue/").status_code == 200
    assert as_user(battle.general_a.user).post(f"/api/v1/events/{event.slug}/organizers/", {"username": "ada"},
                                               format="json").status_code == 403
    assert org.delete(f"/api/v1/events/{event.slug}/organizers/cora/").status_code == 204
    assert as_user(cora).get(f"/api/v1/events/{event.slug}/queue/").status_code == 403
    assert AuditEntry.objects.filter(event=event, action="organizer removed", subject="cora").exists()


# --- generals belong to players -------------------------------------------------------------------

def test_a_claimed_general_enters_only_with_its_players_consent(harbour):
    event, organizer = harbour
    goran = User.objects.create_user("goran")
    general = General.objects.create(name="Goran Golub", user=goran)
    with pytest.raises(NotAllowed, match="belongs to a player"):
        services.register(event, general, actor=organizer)
    refused = as_user(organizer).post(f"/api/v1/events/{event.slug}/registrations/", {"general": general.pk},
                                      format="json")
    assert refused.status_code == 403 and "invitation" in refused.json()["detail"]
    invitation = as_user(organizer).post(f"/api/v1/events/{event.slug}/invitations/", {"general": general.pk},
                                         format="json").json()
    assert not event.registrations.exists()
    me = as_user(goran).get("/api/v1/me/").json()
    assert [i["id"] for i in me["invitations"]] == [invitation["id"]]
    accepted = as_user(goran).post(f"/api/v1/invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert event.registrations.get().general == general
    withdrawn = as_user(goran).post(f"/api/v1/events/{event.slug}/withdraw/", {}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    joined = as_user(goran).post(f"/api/v1/events/{event.slug}/join/", {}, format="json")
    assert joined.status_code == 201 and joined.json()["status"] == "active"


def test_same_names_are_shown_and_a_new_general_needs_create_new(harbour):
    event, organizer = harbour
    org = as_user(organizer)
    first = org.post(f"/api/v1/events/{event.slug}/registrations/", {"name": "Goran Golub"}, format="json")
    assert first.status_code == 201
    existing = first.json()["general"]
    again = org.post(f"/api/v1/events/{event.slug}/registrations/", {"name": "goran  golub"}, format="json")
    assert again.status_code == 409 and again.json()["matches"] == [dict(existing, claimed=False)]
    assert General.objects.count() == 1
    other = User.objects.create_user("other")
    org.post(f"/api/v1/events/{event.slug}/withdraw/", {"general": existing["id"]}, format="json")
    created = org.post(f"/api/v1/events/{event.slug}/registrations/", {"name": "goran golub", "create_new": True},
                       format="json")
    assert created.status_code == 201 and General.objects.count() == 2
    assert as_user(other).post(f"/api/v1/generals/{existing['id']}/", {"name": "x"}).status_code in (403, 405)


def test_a_general_is_claimed_once_with_its_code_and_then_only_its_player_renames_it(harbour):
    event, organizer = harbour
    org = as_user(organizer)
    created = org.post("/api/v1/generals/", {"name": "Hana Horvat"}, format="json").json()
    code = created["claim_code"]
    assert code and not created["claimed"]
    assert as_user().get(f"/api/v1/generals/{created['id']}/").json()["claim_code"] is None
    hana, thief = User.objects.create_user("hana"), User.objects.create_user("thief")
    claimed = as_user(hana).post("/api/v1/generals/claim/", {"code": code}, format="json")
    assert claimed.status_code == 200 and claimed.json()["claimed"]
    reused = as_user(thief).post("/api/v1/generals/claim/", {"code": code}, format="json")
    assert reused.status_code == 400 and "used already" in reused.json()["detail"]
    assert org.patch(f"/api/v1/generals/{created['id']}/", {"name": "Fake"}, format="json").status_code == 403
    renamed = as_user(hana).patch(f"/api/v1/generals/{created['id']}/", {"name": "Hana H."}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Hana H."
    assert as_user(hana).get("/api/v1/me/").json()["general"]["name"] == "Hana H."


# --- registration and disqualification that hold -----------------------------------------------------

def test_closing_registration_closes_it(harbour):
    event, organizer = harbour
    for name in ("Ada", "Ben", "Cyd"):
        services.register(event, General.objects.create(name=name), actor=organizer)
    as_user(organizer).post(f"/api/v1/events/{event.slug}/close-registration/")
    event.refresh_from_db()
    assert event.state == Event.State.REGISTRATION_CLOSED
    late = as_user(organizer).post(f"/api/v1/events/{event.slug}/registrations/", {"name": "Latecomer"},
                                   format="json")
    assert late.status_code == 409 and "closed" in late.json()["detail"]
    player = User.objects.create_user("late")
    joined = as_user(player).post(f"/api/v1/events/{event.slug}/join/", {"name": "Late Lou"}, format="json")
    assert joined.status_code == 409
    eliminated = event.registrations.get(status=Registration.Status.ELIMINATED).general
    refused = as_user(organizer).post(f"/api/v1/events/{event.slug}/disqualifications/",
                                      {"general": eliminated.pk, "reason": "conduct"}, format="json")
    assert refused.status_code == 409 and "eliminated" in refused.json()["detail"]
    assert not event.disqualifications.exists()


def test_forfeit_count_reached_needs_the_forfeits_on_record(event_day):
    event, organizer, battle = event_day
    refused = as_user(organizer).post(f"/api/v1/events/{event.slug}/disqualifications/",
                                      {"general": battle.general_a.pk, "reason": "forfeits"}, format="json")
    assert refused.status_code == 400 and "0 forfeit(s) on record" in refused.json()["detail"]
    assert not event.disqualifications.exists()


def test_me_lists_the_reports_waiting_for_my_confirmation(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reporting.submit_report(battle, user=a.user, kind="resolve")
    mine = as_user(b.user).get("/api/v1/me/").json()
    assert mine["general"]["id"] == b.pk and [r["id"] for r in mine["awaiting_my_confirmation"]] == [created.pk]
    theirs = as_user(a.user).get("/api/v1/me/").json()
    assert theirs["awaiting_my_confirmation"] == [] and [r["id"] for r in theirs["my_open_reports"]] == [created.pk]


def _client_page(user, url):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def test_the_organizer_changes_the_confirmation_window(event_day):
    event, organizer, battle = event_day
    response = as_user(organizer).patch(f"/api/v1/events/{event.slug}/", {"confirmation_minutes": 90},
                                        format="json")
    assert response.status_code == 200 and response.json()["confirmation_minutes"] == 90
    assert AuditEntry.objects.get(event=event, action="confirmation window changed").after == {"minutes": 90}
    created = reporting.submit_report(battle, user=battle.general_a.user, kind="resolve")
    assert abs(created.confirm_by - created.created_at - timedelta(minutes=90)) < timedelta(seconds=1)
    player = as_user(battle.general_b.user).patch(f"/api/v1/events/{event.slug}/", {"confirmation_minutes": 1},
                                                  format="json")
    assert player.status_code == 403


# --- the audit's gaps: an organizer who plays (R90), rules in every service, R68 in the queue, the
# public verdict summary --------------------------------------------------------------------------

def test_an_organizers_report_on_their_own_battle_waits_for_the_opponent(event_day):
    """R90: an organizer who is one of the battle's generals reports as a general."""
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    event.organizers.add(a.user)  # Ada co-organizes the event she plays in
    created = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                   {"kind": "victory", "winner": a.pk, "condition": "crush"}, format="json")
    assert created.status_code == 201 and created.json()["status"] == "awaiting_opponent"
    assert created.json()["waiting_for"] == {"id": b.pk, "name": b.name}
    battle.refresh_from_db()
    assert not battle.kind
    report_id = created.json()["id"]
    own = as_user(a.user).post(f"/api/v1/reports/{report_id}/confirm/")
    assert own.status_code == 403
    decided = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/result/",
                                   {"kind": "victory", "winner": a.pk, "condition": "crush", "reason": "I won"},
                                   format="json")
    assert decided.status_code == 403 and "R90" in decided.json()["detail"]
    assert as_user(a.user).post(f"/api/v1/reports/{report_id}/override/", {"reason": "I won"},
                                format="json").status_code == 403
    with pytest.raises(NotAllowed, match="R90"):
        recording.record_result(battle, kind="victory", winner=a, condition="crush", actor=a.user)
    battle.refresh_from_db()
    assert not battle.kind
    assert as_user(b.user).post(f"/api/v1/reports/{report_id}/confirm/").status_code == 200  # the opponent
    battle.refresh_from_db()
    assert battle.kind == "victory" and battle.winner == a
    # Organizers outside the battle still decide at once (R75).
    other = event.battles.exclude(pk=battle.pk).first()
    by_organizer = as_user(organizer).post(f"/api/v1/battles/{other.pk}/reports/", {"kind": "stalemate"},
                                           format="json")
    assert by_organizer.json()["status"] == "confirmed"


def test_the_services_refuse_a_player_acting_as_an_organizer(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    for step in (lambda: recording.record_result(battle, kind="stalemate", actor=b.user),
                 lambda: services.disqualify(event, a, reason="conduct", details="Rude", actor=b.user)):
        with pytest.raises(NotAllowed, match="Only an organizer"):
            step()
    battle.refresh_from_db()
    assert not battle.kind and not event.disqualifications.exists()
    harbour = services.create_event(name="Harbour Open", slug="harbour", actor=organizer)
    for general in event.registrations.values_list("general", flat=True):
        services.register(harbour, General.objects.get(pk=general), actor=General.objects.get(pk=general).user)
    with pytest.raises(NotAllowed, match="Only an organizer"):
        services.close_registration(harbour, actor=a.user)
    with pytest.raises(NotAllowed, match="Only an organizer"):
        services.form_groups(harbour, 2, "random", seed=1, actor=a.user)
    harbour.refresh_from_db()
    assert harbour.state == Event.State.REGISTRATION and not harbour.groups.exists()
    services.close_registration(harbour)  # the server's own use (commands, the demo) needs no actor
    services.form_groups(harbour, 2, "random", seed=1, actor=organizer)
    assert harbour.groups.count() == 2


def test_an_automatically_confirmed_forfeit_shows_the_offer_in_the_queue(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    Event.objects.filter(pk=event.pk).update(forfeits_to_disqualify=1)
    queue = as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/")
    assert queue.headers["X-Disqualification-Offers"] == ""
    created = reporting.submit_report(battle, user=a.user, kind="forfeit", forfeited_by=b)
    done = confirmation.confirm_expired(now=created.confirm_by + timedelta(seconds=1))
    assert [item.offer_disqualification for item in done] == [b]  # R68, by the window
    queue = as_user(organizer).get(f"/api/v1/events/{event.slug}/queue/")
    assert queue.status_code == 200 and isinstance(queue.json(), list)  # the body stays the list of reports
    assert queue.headers["X-Disqualification-Offers"] == str(b.pk)
    assert f"/api/v1/events/{event.slug}/offers/" in queue.headers["Link"]
    assert as_user(organizer).get(f"/api/v1/events/{event.slug}/offers/").json() == [{"id": b.pk, "name": b.name}]


def test_the_public_sees_the_counted_result_and_the_verdict_summary_only(event_day,
                                                                          django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    created = reported_shackle(battle, django_capture_on_commit_callbacks)
    reporting.dispute_report(created, user=b.user, reason="Private dispute words")
    reporting.override_report(created, user=organizer, reason="Private override words")
    body = as_user().get(f"/api/v1/battles/{battle.pk}/")
    assert body.status_code == 200
    data = body.json()
    assert data["result"]["kind"] == "victory" and data["result"]["winner"] == a.pk
    verdict = data["verdict"]
    assert verdict["valid"] is True and verdict["outcome"] == "victory"
    assert verdict["winner"] == a.pk and verdict["condition"] == "shackle" and verdict["sentence"] == ""
    assert verdict["engine_version"] and "accepted" in verdict
    text = body.content.decode()
    for private in ("Private dispute words", "Private override words", "replay", "reports", "status_reason"):
        assert private not in text
    listed = as_user().get("/api/v1/battles/", {"event": event.slug}).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert next(row for row in rows if row["id"] == battle.pk)["verdict"] == verdict
    assert next(row for row in rows if row["id"] != battle.pk)["verdict"] is None  # no replay, no verdict
