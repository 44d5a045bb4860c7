"""The trust model on the pages (R75-R78): joining, same names, claiming, confirming a disqualification."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def organizer(client):
    user = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    client.force_login(user)
    return user


def test_the_organizer_is_shown_the_general_of_the_same_name(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    goran = General.objects.create(name="Goran Golub", user=User.objects.create_user("goran"))
    page = client.post("/events/quay/manage/", {"action": "register", "name": "goran  golub"}).content.decode()
    assert "Invite Goran Golub" in page and "Create a new general named" in page
    assert not event.registrations.exists() and General.objects.count() == 1
    client.post("/events/quay/manage/", {"action": "invite", "general": goran.pk})
    assert event.invitations.get().general == goran and not event.registrations.exists()
    client.force_login(goran.user)
    page = client.get("/events/quay/").content.decode()
    assert "You are invited" in page
    client.post(f"/invitations/{event.invitations.get().pk}/answer/", {"answer": "accept"})
    assert event.registrations.get().general == goran


def test_a_member_joins_a_league_from_its_page_and_withdraws(client, organizer):
    services.create_event(name="Pier League", slug="pier", kind="league", actor=organizer)
    client.force_login(User.objects.create_user("mira"))
    page = client.get("/events/pier/").content.decode()
    assert "You have no general yet" in page
    client.post("/events/pier/join/", {"name": "Mira Marsh"})
    event = Event.objects.get(slug="pier")
    assert event.registrations.get(status="active").general.name == "Mira Marsh"
    assert event.confirmation_minutes == 3 * 24 * 60
    client.post("/events/pier/withdraw/")
    assert event.registrations.get().status == "withdrawn"


def test_a_player_claims_their_general_with_the_link(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    client.post("/events/quay/manage/", {"action": "register", "name": "Hana Horvat"})
    general = event.registrations.get().general
    page = client.get("/events/quay/manage/").content.decode()
    assert f"/claim/{general.claim_code}/" in page
    hana = User.objects.create_user("hana")
    client.force_login(hana)
    client.post(f"/claim/{general.claim_code}/", {"code": general.claim_code})
    general.refresh_from_db()
    assert general.user == hana and general.claim_code == ""


def test_disqualifying_asks_for_confirmation(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    generals = [General.objects.create(name=name) for name in ("Ada", "Ben", "Cyd", "Dov")]
    for general in generals:
        services.register(event, general, actor=organizer)
    services.form_groups(event, 2, "random", seed=1, actor=organizer)
    form = {"action": "disqualify", "general": generals[0].pk, "reason": "conduct", "details": "Threw dice"}
    page = client.post("/events/quay/manage/", form).content.decode()
    assert "Tick the box to confirm" in page and not event.disqualifications.exists()
    client.post("/events/quay/manage/", dict(form, confirm="on"))
    assert event.disqualifications.get().general == generals[0]


# --- the audit's gaps: registration closed on the page, R68 after the window, R90, the admin -------------

def test_once_registration_is_closed_the_join_form_is_gone_and_joining_is_409(client, organizer):
    event = services.create_event(name="Quay Open", slug="quay", actor=organizer)
    for name in ("Ada", "Ben"):
        services.register(event, General.objects.create(name=name), actor=organizer)
    client.force_login(User.objects.create_user("late"))
    assert 'action="/events/quay/join/"' in client.get("/events/quay/").content.decode()
    services.close_registration(event, actor=organizer)
    page = client.get("/events/quay/").content.decode()
    assert 'action="/events/quay/join/"' not in page
    refused = client.post("/events/quay/join/", {"name": "Late Lou"})
    assert refused.status_code == 409
    assert "Registration for Quay Open is closed." in refused.content.decode()
    assert event.registrations.count() == 2 and not General.objects.filter(name="Late Lou").exists()


def test_a_forfeit_confirmed_by_the_window_offers_disqualification_on_the_event_page(client):
    from datetime import timedelta

    from tests.reporting.conftest import build_event_day
    from tournaments.results import confirmation, reporting

    event, organizer, battle = build_event_day()
    a, b = battle.general_a, battle.general_b
    Event.objects.filter(pk=event.pk).update(forfeits_to_disqualify=1)
    created = reporting.submit_report(battle, user=a.user, kind="forfeit", forfeited_by=b)
    client.force_login(organizer)
    assert "Forfeit limit reached" not in client.get(f"/events/{event.slug}/").content.decode()
    confirmation.confirm_expired(now=created.confirm_by + timedelta(seconds=1))  # nobody confirmed: R75
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "Forfeit limit reached (R68)" in page and b.name in page
    assert "Forfeit limit reached" in client.get(f"/events/{event.slug}/manage/").content.decode()
    client.force_login(a.user)  # the offer is the organizers'
    assert "Forfeit limit reached" not in client.get(f"/events/{event.slug}/").content.decode()


def test_an_organizer_who_plays_gets_the_report_form_not_the_result_form(client):
    """R90: on their own battle an organizer reports as a general."""
    from tests.reporting.conftest import build_event_day

    event, organizer, battle = build_event_day()
    a = battle.general_a
    event.organizers.add(a.user)
    client.force_login(a.user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Send the report" in page and "(organizer)" not in page
    client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "won": "a", "winner": a.pk,
                                                 "condition": "crush"})
    report = battle.reports.get()
    battle.refresh_from_db()
    assert report.status == "awaiting_opponent" and not battle.kind
    other = event.battles.exclude(pk=battle.pk).first()
    assert "(organizer)" in client.get(f"/battles/{other.pk}/").content.decode()  # not hers: she decides


@pytest.fixture
def staff(client):
    user = User.objects.create_superuser("root", password="pw")
    client.force_login(user)
    return user


def test_groups_and_seasons_are_read_only_in_the_admin(client, staff):
    from tournaments.leagues import seasons
    from tournaments.models import Group, Season

    event = services.create_event(name="Quay Open", slug="quay")
    generals = [General.objects.create(name=name) for name in ("Ada", "Ben", "Cyd", "Dov")]
    for general in generals:
        services.register(event, general)
    services.form_groups(event, 2, "random", seed=1)
    group = event.groups.first()
    refused = client.post(f"/admin/tournaments/group/{group.pk}/change/", {"name": "Group Z", "index": 7})
    assert refused.status_code == 403
    assert Group.objects.get(pk=group.pk).name == group.name
    league = services.create_event(name="Pier League", slug="pier", kind="league")
    season = seasons.open_season(league, "Autumn")
    refused = client.post(f"/admin/tournaments/season/{season.pk}/change/", {"name": "Renamed", "state": "closed",
                                                                             "number": 1})
    assert refused.status_code == 403
    season.refresh_from_db()
    assert season.name == "Autumn" and season.state == Season.State.OPEN
    assert client.post("/admin/tournaments/season/add/", {"event": league.pk, "name": "Extra"}).status_code == 403
    assert client.post(f"/admin/tournaments/season/{season.pk}/delete/", {"post": "yes"}).status_code == 403


def test_an_events_rules_are_read_only_in_the_admin(client, staff):
    from django.contrib import admin

    from tournaments.admin import EventAdmin

    event = services.create_event(name="Quay Open", slug="quay", forfeits_to_disqualify=2)
    page = client.get(f"/admin/tournaments/event/{event.pk}/change/").content.decode()
    for field in ("confirmation_minutes", "pair_battles_per_season", "forfeits_to_disqualify", "organizers"):
        assert f'name="{field}"' not in page
    assert 'name="name"' in page
    form = EventAdmin(Event, admin.site).get_form(None, event, change=True)(instance=event)
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update({"name": "Quay Open 2026", "confirmation_minutes": 1, "forfeits_to_disqualify": 9,
                 "registrations-TOTAL_FORMS": 0, "registrations-INITIAL_FORMS": 0})
    saved = client.post(f"/admin/tournaments/event/{event.pk}/change/", data)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    event.refresh_from_db()
    assert event.name == "Quay Open 2026"  # what the admin may change
    assert event.confirmation_minutes == 30 and event.forfeits_to_disqualify == 2  # what only the services change
    assert client.get("/admin/tournaments/event/add/").status_code == 403


def test_a_general_renamed_in_the_admin_is_audited(client, staff):
    from tournaments.models import AuditEntry

    event = services.create_event(name="Quay Open", slug="quay")
    goran = General.objects.create(name="Goran Golub", user=User.objects.create_user("goran"))
    services.register(event, goran, actor=goran.user)
    response = client.post(f"/admin/tournaments/general/{goran.pk}/change/", {"name": "Goran  Golubović",
                                                                              "external_id": ""})
    assert response.status_code == 302
    goran.refresh_from_db()
    assert goran.name == "Goran Golubović"
    entry = AuditEntry.objects.get(event=event, action="general renamed")
    assert entry.actor == staff and entry.before == {"name": "Goran Golub"} and entry.after == {"name": goran.name}
