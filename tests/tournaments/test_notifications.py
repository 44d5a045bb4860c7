"""Email notifications (tournaments.notifications): who gets which mail, once, and that a failing
mail server never breaks the step that caused the mail."""
import smtplib
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.mail.backends.base import BaseEmailBackend
from rest_framework.test import APIClient

from tests.reporting.conftest import replay_between
from tournaments import notifications
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, General, Notification, NotificationSettings, Report
from tournaments.results import reporting

pytestmark = pytest.mark.django_db


class BrokenBackend(BaseEmailBackend):
    """A mail server that refuses every message."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("the mail server hung up")


@pytest.fixture
def day(django_capture_on_commit_callbacks):
    """A 4-general tournament in Europe/Berlin whose players and organizer have email addresses;
    the groups are formed with the mails sent after the commit."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw", email="org@example.org"))
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer, time_zone="Europe/Berlin")
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password="pw", email=f"{name.lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    return event, organizer


def form_groups(event, organizer, callbacks):
    with callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    return event.battles.select_related("general_a__user", "general_b__user").order_by("pk").first()


def opt_out(user, **kinds):
    notifications.update_settings(user, **kinds)


def recipients(outbox):
    return sorted(address for message in outbox for address in message.to)


def test_each_general_gets_their_new_pairings_once(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    assert recipients(mailoutbox) == ["ada@example.org", "ben@example.org", "cyd@example.org", "dov@example.org"]
    mail = next(m for m in mailoutbox if m.to == [battle.general_a.user.email])
    assert "Quay Cup" in mail.subject and battle.general_b.name in mail.body
    assert f"/battles/{battle.pk}/" in mail.body and "Europe/Berlin" in mail.body
    assert "/my/notifications/" in mail.body  # how to opt out
    # Nothing new: no second mail for the same battles.
    notifications.pairings_made(event.pk)
    assert len(mailoutbox) == 4


def test_an_opted_out_general_gets_no_pairings(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    opt_out(get_user_model().objects.get(username="ada"), pairings=False)
    form_groups(event, organizer, django_capture_on_commit_callbacks)
    assert "ada@example.org" not in recipients(mailoutbox) and len(mailoutbox) == 3


def test_the_opponent_is_asked_to_confirm_with_the_link_and_the_deadline(day, mailoutbox,
                                                                         django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind=Battle.Kind.VICTORY, winner=a, condition="crush")
    assert recipients(mailoutbox) == [b.user.email]  # not the reporter
    mail = mailoutbox[0]
    assert "Confirm" in mail.subject and f"/battles/{battle.pk}/" in mail.body
    assert f"{a.name} wins by Crush" in mail.body
    local = report.confirm_by.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin"))
    assert f"{local:%H:%M} CET" in mail.body and "unless you dispute it" in mail.body


def test_an_organizers_report_counts_at_once_and_asks_nobody(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reporting.submit_report(battle, user=organizer, kind=Battle.Kind.VICTORY, winner=battle.general_a,
                                condition="crush")
    assert mailoutbox == []


def test_a_playoff_is_mailed_as_a_new_pairing(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # a tie in a group of two: a playoff (R24)
        reporting.submit_report(battle, user=organizer, kind=Battle.Kind.STALEMATE)
    playoff = event.battles.get(playoff=True)
    assert recipients(mailoutbox) == sorted([battle.general_a.user.email, battle.general_b.user.email])
    assert all("playoff" in m.body and f"/battles/{playoff.pk}/" in m.body for m in mailoutbox)


def test_no_confirmation_mail_for_an_opted_out_opponent_or_one_without_an_address(
        day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    first = form_groups(event, organizer, django_capture_on_commit_callbacks)
    second = event.battles.exclude(pk=first.pk).select_related("general_a__user", "general_b__user").get()
    mailoutbox.clear()
    opt_out(first.general_b.user, confirmations=False)
    second.general_b.user.email = ""
    second.general_b.user.save()
    with django_capture_on_commit_callbacks(execute=True):
        for battle in (first, second):
            reporting.submit_report(battle, user=battle.general_a.user, kind=Battle.Kind.STALEMATE)
    assert mailoutbox == []
    assert not Notification.objects.filter(key__endswith=":waiting").exists()


def test_a_dispute_goes_to_both_generals_and_the_organizers(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    co = get_user_model().objects.create_user("co", email="co@example.org")
    event.organizers.add(co)
    opt_out(co, disputes=False)
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind=Battle.Kind.VICTORY, winner=a, condition="crush")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reporting.dispute_report(report, user=b.user, reason="We never played: Ben was at the bar.")
    assert recipients(mailoutbox) == sorted([a.user.email, b.user.email, "org@example.org"])
    mail = mailoutbox[0]
    assert "Disputed" in mail.subject and "Ben was at the bar" in mail.body and f"{b.name} disputed" in mail.body


def test_two_contradicting_reports_are_one_dispute_mail_each(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        reporting.submit_report(battle, user=a.user, kind=Battle.Kind.VICTORY, winner=a, condition="crush")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reporting.submit_report(battle, user=b.user, kind=Battle.Kind.VICTORY, winner=b, condition="crush")
    assert recipients(mailoutbox) == sorted([a.user.email, b.user.email, "org@example.org"])
    assert all("Disputed" in m.subject for m in mailoutbox)


def test_the_engines_verdict_goes_to_the_two_generals(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="shackle",
                                         replay=replay_between("victory-shackle", a, b))
    report.refresh_from_db()
    assert report.status == Report.Status.CHECKED
    assert recipients(mailoutbox) == sorted([a.user.email, b.user.email])  # one mail each
    to_reporter = next(m for m in mailoutbox if m.to == [a.user.email])
    to_opponent = next(m for m in mailoutbox if m.to == [b.user.email])
    assert "Verdict" in to_reporter.subject and "agrees with the report" in to_reporter.body
    assert "Confirm" in to_opponent.subject and "agrees with the report" in to_opponent.body


def test_a_verdict_that_contradicts_the_report_is_a_dispute_for_generals_and_organizers(
        day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    a, b = battle.general_a, battle.general_b
    opt_out(b.user, disputes=False, verdicts=False)
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind="victory", winner=a, condition="crush",
                                         replay=replay_between("victory-shackle", a, b))
    report.refresh_from_db()
    assert report.status == Report.Status.DISPUTED
    assert recipients(mailoutbox) == sorted([a.user.email, "org@example.org"])
    assert all("The rules engine disputed" in m.body for m in mailoutbox)


def test_a_failing_mail_server_does_not_break_the_report(day, mailoutbox, settings,
                                                         django_capture_on_commit_callbacks, caplog):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    settings.EMAIL_BACKEND = "tests.tournaments.test_notifications.BrokenBackend"
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind=Battle.Kind.STALEMATE)
    report.refresh_from_db()
    assert report.status == Report.Status.AWAITING_OPPONENT
    note = Notification.objects.get(user=b.user, key=f"report:{report.pk}:waiting")
    assert not note.sent and "hung up" in note.error
    assert "not sent" in caplog.text


def test_a_failing_mail_server_does_not_break_the_report_page(day, client, settings,
                                                              django_capture_on_commit_callbacks):
    event, organizer = day
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    settings.EMAIL_BACKEND = "tests.tournaments.test_notifications.BrokenBackend"
    client.force_login(battle.general_a.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{battle.pk}/report/", {"kind": "stalemate"})
    assert response.status_code == 302
    assert battle.reports.get().status == Report.Status.AWAITING_OPPONENT


def test_the_settings_page_needs_a_sign_in_and_saves_the_choices(day, client):
    assert client.get("/my/notifications/").status_code == 302
    ada = get_user_model().objects.get(username="ada")
    client.force_login(ada)
    assert "/my/notifications/" in client.get("/my/battles/").content.decode()
    page = client.get("/my/notifications/").content.decode()
    assert 'id="kind-pairings"' in page and '<label for="kind-pairings">' in page and "ada@example.org" in page
    response = client.post("/my/notifications/", {"kinds": ["confirmations", "disputes"]})
    assert response.status_code == 302
    prefs = NotificationSettings.objects.get(user=ada)
    assert (prefs.confirmations, prefs.disputes, prefs.verdicts, prefs.pairings) == (True, True, False, False)
    page = client.get("/my/notifications/").content.decode()
    assert 'value="verdicts" id="kind-verdicts">' in page and 'value="disputes" id="kind-disputes" checked>' in page


def test_the_api_reads_and_changes_the_choices(day):
    ada = get_user_model().objects.get(username="ada")
    api = APIClient()
    api.force_authenticate(ada)
    me = api.get("/api/v1/me/").json()
    assert me["email"] == "ada@example.org"
    assert me["notifications"] == {"confirmations": True, "disputes": True, "verdicts": True, "pairings": True,
                                   "decisions": True}
    response = api.patch("/api/v1/me/", {"notifications": {"pairings": False}}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["notifications"]["pairings"] is False
    assert NotificationSettings.objects.get(user=ada).pairings is False
    refused = api.patch("/api/v1/me/", {"notifications": {"pairings": "sometimes"}}, format="json")
    assert refused.status_code == 400
    assert APIClient().patch("/api/v1/me/", {}, format="json").status_code == 401


def test_a_deadline_is_written_in_the_events_zone(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    event.time_zone = "America/New_York"
    event.save()
    battle = form_groups(event, organizer, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=battle.general_a.user, kind=Battle.Kind.STALEMATE)
    Report.objects.filter(pk=report.pk).update(confirm_by=datetime(2027, 1, 15, 20, 0, tzinfo=UTC))
    Notification.objects.all().delete()
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # queued now, sent after the commit
        notifications.report_waiting(report.pk)
    assert "15 Jan 2027, 15:00 EST" in mailoutbox[0].body


def test_staff_see_what_was_mailed_in_the_admin_and_change_nothing(day, client, mailoutbox,
                                                                   django_capture_on_commit_callbacks):
    event, organizer = day
    form_groups(event, organizer, django_capture_on_commit_callbacks)
    client.force_login(get_user_model().objects.create_superuser("root", password="pw"))
    listing = client.get("/admin/tournaments/notification/").content.decode()
    assert "ada" in listing and "Quay Cup" in listing
    assert client.get("/admin/tournaments/notification/add/").status_code == 403
    choices = NotificationSettings.objects.create(user=get_user_model().objects.get(username="ben"))
    refused = client.post(f"/admin/tournaments/notificationsettings/{choices.pk}/change/", {"pairings": ""})
    assert refused.status_code == 403
