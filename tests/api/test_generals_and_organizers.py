"""Generals belong to their events (R96) and organizers are chosen with consent and have an owner
(R95): each attack a rival organizer, a co-organizer or a playing organizer tried, through the API with
real accounts."""
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from tournaments.eventday import archive
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import AuditEntry, Battle, Event, General, Report

from .conftest import as_user

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def walk_in():
    """Olga's event with a walk-in she registered by name (its claim code handed to the real player),
    and Rex, an organizer of his own hidden event."""
    olga = grant_organizer_role(User.objects.create_user("olga", email="olga@example.com"))
    harbour = services.create_event(name="Harbour Open", slug="harbour", actor=olga)
    registered = as_user(olga).post("/api/v1/events/harbour/registrations/", {"name": "Walter Walk"}, format="json")
    assert registered.status_code == 201
    walter = General.objects.get(pk=registered.json()["general"]["id"])
    walter.external_id = "LM-7"
    walter.save(update_fields=["external_id"])
    rex = grant_organizer_role(User.objects.create_user("rex"))
    services.create_event(name="Rex Secret", slug="rex-secret", actor=rex, published=False)
    return harbour, olga, walter, rex


def _answers_of(client, walter):
    """Every answer the rival gets about the general, as text."""
    return [client.get(f"/api/v1/generals/{walter.pk}/").content.decode(),
            client.get(f"/api/v1/generals/?external_id={walter.external_id}").content.decode(),
            client.get("/api/v1/events/rex-secret/registrations/").content.decode()]


# --- finding 2: a rival organizer takes over another event's walk-in ---------------------------------

def test_a_rival_organizer_cannot_enter_another_events_walk_in_into_his_hidden_event(walk_in):
    harbour, olga, walter, rex = walk_in
    code = walter.claim_code
    refused = as_user(rex).post("/api/v1/events/rex-secret/registrations/", {"general": walter.pk}, format="json")
    assert refused.status_code == 403
    assert "only the organizers of an event Walter Walk is registered in" in refused.json()["detail"]
    assert not walter.registrations.filter(event__slug="rex-secret").exists()
    assert all(code not in text for text in _answers_of(as_user(rex), walter))


def test_a_rival_organizer_neither_reads_nor_renews_nor_renames_the_walk_in(walk_in):
    harbour, olga, walter, rex = walk_in
    code = walter.claim_code
    rival = as_user(rex)
    # The attack: enter the walk-in into his own hidden event first, then act as "its" organizer.
    rival.post("/api/v1/events/rex-secret/registrations/", {"general": walter.pk}, format="json")
    assert rival.get(f"/api/v1/generals/{walter.pk}/").json()["claim_code"] is None
    renewed = rival.post(f"/api/v1/generals/{walter.pk}/claim-code/")
    assert renewed.status_code == 403 and "Only the organizers of an event" in renewed.json()["detail"]
    renamed = rival.patch(f"/api/v1/generals/{walter.pk}/", {"name": "Rex's Puppet"}, format="json")
    assert renamed.status_code == 403
    walter.refresh_from_db()
    assert walter.claim_code == code and walter.name == "Walter Walk"
    # The code handed to the real player still works; a second account of Rex's has nothing to claim with.
    sock = User.objects.create_user("rex-sock")
    assert as_user(sock).post("/api/v1/generals/claim/", {"code": ""}, format="json").status_code == 400
    walt = User.objects.create_user("walt")
    assert as_user(walt).post("/api/v1/generals/claim/", {"code": code}, format="json").status_code == 200


def test_a_co_organizer_without_the_permission_cannot_take_the_walk_in_either(walk_in):
    harbour, olga, walter, rex = walk_in
    cody = User.objects.create_user("cody")  # made co-organizer before invitations existed, no permission
    Event.objects.get(slug="rex-secret").organizers.add(cody)
    helper = as_user(cody)
    refused = helper.post("/api/v1/events/rex-secret/registrations/", {"general": walter.pk}, format="json")
    assert refused.status_code == 403
    assert helper.get(f"/api/v1/generals/{walter.pk}/").json()["claim_code"] is None
    assert helper.post(f"/api/v1/generals/{walter.pk}/claim-code/").status_code == 403
    assert helper.patch(f"/api/v1/generals/{walter.pk}/", {"name": "Cody's"}, format="json").status_code == 403
    walter.refresh_from_db()
    assert walter.name == "Walter Walk" and not walter.registrations.filter(event__slug="rex-secret").exists()


def test_the_same_name_offers_no_other_events_walk_in(walk_in):
    harbour, olga, walter, rex = walk_in
    created = as_user(rex).post("/api/v1/events/rex-secret/registrations/", {"name": "walter  walk"}, format="json")
    assert created.status_code == 201 and created.json()["general"]["id"] != walter.pk  # his own general
    assert walter.claim_code not in created.content.decode()


def test_an_archive_import_naming_the_walk_ins_external_id_neither_reveals_nor_reuses_its_code(walk_in, client):
    harbour, olga, walter, rex = walk_in
    code = walter.claim_code
    document = archive.build_archive(harbour)
    assert document["generals"][0]["external_id"] == "LM-7"
    client.force_login(rex)
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "harbour.json"
    imported = client.post("/events/import/", {"archive": upload, "slug": "rex-copy"})
    assert imported.status_code == 302
    copy_ = Event.objects.get(slug="rex-copy")
    theirs = copy_.registrations.get().general
    assert theirs.pk != walter.pk and theirs.claim_code != code and theirs.external_id == ""
    assert not walter.registrations.filter(event=copy_).exists()
    assert AuditEntry.objects.filter(event=copy_, action="general imported as new", subject="Walter Walk").exists()
    pages = [client.get("/events/rex-copy/manage/").content.decode(), *_answers_of(as_user(rex), walter),
             as_user(rex).get("/api/v1/events/rex-copy/registrations/").content.decode()]
    assert all(code not in page for page in pages)
    walter.refresh_from_db()
    assert walter.claim_code == code


def test_the_walk_ins_own_organizers_still_manage_it_and_a_renewed_code_is_audited(walk_in):
    harbour, olga, walter, rex = walk_in
    old = walter.claim_code
    organizer = as_user(olga)
    renewed = organizer.post(f"/api/v1/generals/{walter.pk}/claim-code/")
    assert renewed.status_code == 200 and renewed.json()["claim_code"] not in (None, old)
    entry = AuditEntry.objects.get(event=harbour, action="claim code renewed")
    assert entry.subject == "Walter Walk" and entry.actor == olga
    assert renewed.json()["claim_code"] not in json.dumps([entry.before, entry.after, entry.reason])
    # Olga enters him into her next event: she organizes an event he plays in.
    services.create_event(name="Harbour League", slug="harbour-league", actor=olga, kind=Event.Kind.LEAGUE)
    assert organizer.post("/api/v1/events/harbour-league/registrations/", {"general": walter.pk},
                          format="json").status_code == 201
    # Once claimed, the general is its player's: no organizer manages it any longer.
    walt = User.objects.create_user("walt")
    as_user(walt).post("/api/v1/generals/claim/", {"code": renewed.json()["claim_code"]}, format="json")
    assert organizer.post(f"/api/v1/generals/{walter.pk}/claim-code/").status_code == 409
    assert organizer.patch(f"/api/v1/generals/{walter.pk}/", {"name": "W."}, format="json").status_code == 403


# --- finding 5: organizers are chosen with consent -------------------------------------------------

def test_a_co_organizer_is_invited_accepts_and_only_with_the_organizer_permission(
        walk_in, django_capture_on_commit_callbacks):
    harbour, olga, walter, rex = walk_in
    organizer = as_user(olga)
    plain = User.objects.create_user("plain")
    refused = organizer.post("/api/v1/events/harbour/organizers/", {"username": "plain"}, format="json")
    assert refused.status_code == 400 and "organizer permission" in refused.json()["detail"]
    cora = grant_organizer_role(User.objects.create_user("cora", email="cora@example.com"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        invited = organizer.post("/api/v1/events/harbour/organizers/", {"username": "cora"}, format="json")
    assert invited.status_code == 201 and invited.json()["status"] == "pending"
    assert "cora" not in Event.objects.get(slug="harbour").organizers.values_list("username", flat=True)
    [sent] = mail.outbox
    assert sent.to == ["cora@example.com"] and f"/organizer-invitations/{invited.json()['id']}/" in sent.body
    twice = organizer.post("/api/v1/events/harbour/organizers/", {"username": "cora"}, format="json")
    assert twice.status_code == 409
    # Nobody else answers it; Cora sees it in me/ and accepts.
    assert as_user(plain).post(f"/api/v1/organizer-invitations/{invited.json()['id']}/accept/").status_code == 404
    assert [i["event"] for i in as_user(cora).get("/api/v1/me/").json()["organizer_invitations"]] == ["harbour"]
    assert as_user(cora).post(f"/api/v1/organizer-invitations/{invited.json()['id']}/accept/").status_code == 200
    assert as_user(cora).get("/api/v1/events/harbour/queue/").status_code == 200
    entry = AuditEntry.objects.get(event=harbour, action="organizer added", subject="cora")
    assert entry.after == {"appointed_by": "olga"}
    assert plain.pk not in harbour.organizers.values_list("pk", flat=True)


def test_a_co_organizer_cannot_remove_the_owner_who_may_hand_ownership_over(walk_in):
    harbour, olga, walter, rex = walk_in
    cora = grant_organizer_role(User.objects.create_user("cora"))
    invited = as_user(olga).post("/api/v1/events/harbour/organizers/", {"username": "cora"}, format="json").json()
    as_user(cora).post(f"/api/v1/organizer-invitations/{invited['id']}/accept/")
    assert as_user(cora).get("/api/v1/events/harbour/").json()["owner"] == "olga"
    removed = as_user(cora).delete("/api/v1/events/harbour/organizers/olga/")
    assert removed.status_code == 403 and "nobody removes the owner" in removed.json()["detail"]
    assert as_user(olga).get("/api/v1/events/harbour/queue/").status_code == 200
    taken = as_user(cora).post("/api/v1/events/harbour/owner/", {"username": "cora"}, format="json")
    assert taken.status_code == 403 and taken.json()["detail"] == "Only the event's owner hands its ownership over."
    handed = as_user(olga).post("/api/v1/events/harbour/owner/", {"username": "cora"}, format="json")
    assert handed.status_code == 200 and handed.json()["owner"] == "cora"
    assert AuditEntry.objects.filter(event=harbour, action="ownership handed over", subject="cora").exists()
    # The new owner may remove the former one, who is a co-organizer now; not the other way round.
    assert as_user(olga).delete("/api/v1/events/harbour/organizers/cora/").status_code == 403
    assert as_user(cora).delete("/api/v1/events/harbour/organizers/olga/").status_code == 204
    assert as_user(olga).get("/api/v1/events/harbour/queue/").status_code == 403


# --- R95: an organizer appointed by a general of the battle does not decide it ------------------------

@pytest.fixture
def playing_organizer():
    """Pete owns a tournament and plays in it; Mia accepted his invitation to co-organize."""
    pete = grant_organizer_role(User.objects.create_user("pete"))
    event = services.create_event(name="Pier Cup", slug="pier", actor=pete)
    as_user(pete).post("/api/v1/events/pier/join/", {"name": "Pete"}, format="json")
    for name in ("Quin", "Rosa", "Sven"):
        player = User.objects.create_user(name.lower())
        assert as_user(player).post("/api/v1/events/pier/join/", {"name": name}, format="json").status_code == 201
    services.form_groups(event, 2, "random", seed=3, actor=pete)
    mia = grant_organizer_role(User.objects.create_user("mia"))
    invited = as_user(pete).post("/api/v1/events/pier/organizers/", {"username": "mia"}, format="json").json()
    assert as_user(mia).post(f"/api/v1/organizer-invitations/{invited['id']}/accept/").status_code == 200
    pete_general = General.objects.get(user=pete)
    battle = event.battles.get(general_a=pete_general) if event.battles.filter(general_a=pete_general).exists() \
        else event.battles.get(general_b=pete_general)
    other = event.battles.exclude(pk=battle.pk).get()
    return event, pete, mia, battle, other


def test_an_organizer_appointed_by_a_playing_organizer_does_not_confirm_his_report(playing_organizer):
    event, pete, mia, battle, other = playing_organizer
    pete_general = General.objects.get(user=pete)
    reported = as_user(pete).post(f"/api/v1/battles/{battle.pk}/reports/",
                                  {"kind": "victory", "winner": pete_general.pk, "condition": "blunt"},
                                  format="json")
    assert reported.status_code == 201
    report_id = reported.json()["id"]
    confirmed = as_user(mia).post(f"/api/v1/reports/{report_id}/confirm/")
    assert confirmed.status_code == 403
    overridden = as_user(mia).post(f"/api/v1/reports/{report_id}/override/", {"reason": "Saw it."}, format="json")
    assert overridden.status_code == 403 and "pete, whose general plays this battle, appointed you" in \
        overridden.json()["detail"]
    recorded = as_user(mia).post(f"/api/v1/battles/{battle.pk}/result/",
                                 {"kind": "victory", "winner": pete_general.pk, "condition": "blunt"}, format="json")
    assert recorded.status_code == 403
    battle.refresh_from_db()
    assert not battle.kind and Report.objects.get(pk=report_id).status != Report.Status.CONFIRMED
    # Mia decides the battles Pete does not play.
    assert as_user(mia).post(f"/api/v1/battles/{other.pk}/result/", {"kind": "stalemate"},
                             format="json").status_code == 200
    other.refresh_from_db()
    assert other.kind == Battle.Kind.STALEMATE


def test_an_appointee_of_the_appointee_is_appointed_by_the_general_too(playing_organizer):  # R95
    event, pete, mia, battle, other = playing_organizer
    nina = grant_organizer_role(User.objects.create_user("nina"))
    invited = as_user(mia).post("/api/v1/events/pier/organizers/", {"username": "nina"}, format="json").json()
    as_user(nina).post(f"/api/v1/organizer-invitations/{invited['id']}/accept/")
    recorded = as_user(nina).post(f"/api/v1/battles/{battle.pk}/result/", {"kind": "stalemate"}, format="json")
    assert recorded.status_code == 403 and "R95" in recorded.json()["detail"]
