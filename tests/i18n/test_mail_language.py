"""Each mail in its reader's language: a player who chose German (`NotificationSettings.language`) gets their
pairings, the request to confirm a result and a dispute in German, subject, body, dates and footer alike; a
player who chose English, or nothing, gets English in the same step, whatever language the acting
organizer's request speaks. A webhook's owner hears of its disabling in theirs."""
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation

from tournaments import notifications
from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.mailing.language import mail_language
from tournaments.models import Battle, General, Notification, NotificationSettings, Report, WebhookEndpoint
from tournaments.results import reporting
from tournaments.webhooks import delivery, signing

pytestmark = pytest.mark.django_db

GERMAN_FOOTER = "Du bekommst diese E-Mail wegen der Benachrichtigungseinstellungen deines Kontos"
ENGLISH_FOOTER = "You get this email because of your account's notification settings"


@pytest.fixture
def day():
    """A 4-general tournament in Europe/Berlin: Ada reads German, Ben never chose (the site's English),
    Cyd and Dov chose English."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw", email="org@example.org"))
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer, time_zone="Europe/Berlin")
    for name, language in (("Ada", "de"), ("Ben", None), ("Cyd", "en"), ("Dov", "en")):
        user = User.objects.create_user(name.lower(), password="pw", email=f"{name.lower()}@example.org")
        if language is not None:
            NotificationSettings.objects.create(user=user, language=language)
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    return event, organizer


def form_groups_in_german(event, organizer, callbacks):
    """The organizer forms groups of two from a German page: the request speaks German."""
    with translation.override("de"), callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    return {general.name: general for general in General.objects.select_related("user")}


def battle_of(general):
    """The general's one battle in their group of two."""
    return (Battle.objects.select_related("general_a__user", "general_b__user")
            .get(Q(general_a=general) | Q(general_b=general)))


def mail_to(outbox, name):
    [mail] = [message for message in outbox if message.to == [f"{name.lower()}@example.org"]]
    return mail


def test_pairings_reach_each_player_in_their_language(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    generals = form_groups_in_german(event, organizer, django_capture_on_commit_callbacks)
    opponent_of_ada = battle_of(generals["Ada"]).opponent_of(generals["Ada"]).name

    german = mail_to(mailoutbox, "Ada")
    assert german.subject == f"[Quay Cup] Deine Schlacht: Ada gegen {opponent_of_ada}"
    assert "Neue Schlachten für Ada in Quay Cup:" in german.body
    assert f": gegen {opponent_of_ada} - " in german.body
    assert "Die Zeiten des Events sind in Europe/Berlin angegeben." in german.body
    assert GERMAN_FOOTER in german.body and "/my/notifications/" in german.body
    assert "New battles" not in german.body and ENGLISH_FOOTER not in german.body

    for name in ("Ben", "Cyd"):  # no choice, and English: the organizer's German does not reach them
        english = mail_to(mailoutbox, name)
        opponent = battle_of(generals[name]).opponent_of(generals[name]).name
        assert english.subject == f"[Quay Cup] Your battle: {name} v {opponent}"
        assert f"New battles for {name} in Quay Cup:" in english.body
        assert "Times of the event are in Europe/Berlin." in english.body
        assert ENGLISH_FOOTER in english.body and GERMAN_FOOTER not in english.body
    # What was queued is what was sent: the row keeps the reader's words.
    assert Notification.objects.get(user__username="ada", key__endswith=":pairing",
                                     body__contains="Neue Schlachten").subject == german.subject


def ask_to_confirm(reporter_general, battle, callbacks, outbox):
    """The reporter's general claims a Crush victory; the request to confirm goes to the opponent, with its
    deadline moved to 15 March 2027, 21:00 in Berlin (a month whose short name differs in German)."""
    with callbacks(execute=True):
        report = reporting.submit_report(battle, user=reporter_general.user, kind=Battle.Kind.VICTORY,
                                         winner=reporter_general, condition="crush")
    Report.objects.filter(pk=report.pk).update(confirm_by=datetime(2027, 3, 15, 20, 0, tzinfo=UTC))
    Notification.objects.filter(key=f"report:{report.pk}:waiting").delete()
    outbox.clear()
    with callbacks(execute=True):
        notifications.report_waiting(report.pk)
    return report


def test_the_request_to_confirm_is_in_the_opponents_language(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    generals = form_groups_in_german(event, organizer, django_capture_on_commit_callbacks)
    ada = generals["Ada"]
    battle = battle_of(ada)
    opponent = battle.opponent_of(ada)
    pair = f"{battle.general_a.name} gegen {battle.general_b.name}"

    ask_to_confirm(opponent, battle, django_capture_on_commit_callbacks, mailoutbox)
    german = mail_to(mailoutbox, "Ada")
    assert german.subject == f"[Quay Cup] Bestätige das Ergebnis: {pair}"
    assert f"{opponent.name} hat das Ergebnis deiner Schlacht in Quay Cup gemeldet:" in german.body
    assert "Bestätige es, wenn es stimmt, oder lege Einspruch ein und sag, warum: " in german.body
    assert "Das Ergebnis zählt am 15. Mär 2027, 21:00 CET (noch " in german.body  # German date, zone named
    assert GERMAN_FOOTER in german.body
    assert "Confirm" not in german.subject and "reported the result" not in german.body


def test_the_same_request_to_an_english_player_stays_english(day, mailoutbox, django_capture_on_commit_callbacks):
    event, organizer = day
    generals = form_groups_in_german(event, organizer, django_capture_on_commit_callbacks)
    cyd = generals["Cyd"]
    battle = battle_of(cyd)
    reporter = battle.opponent_of(cyd)

    with translation.override("de"):  # reported from a German page
        ask_to_confirm(reporter, battle, django_capture_on_commit_callbacks, mailoutbox)
    english = mail_to(mailoutbox, "Cyd")
    assert english.subject == f"[Quay Cup] Confirm the result: {battle.general_a.name} v {battle.general_b.name}"
    assert f"{reporter.name} reported the result of your battle in Quay Cup:" in english.body
    assert "It counts by itself at 15 Mar 2027, 21:00 CET (in " in english.body
    assert ENGLISH_FOOTER in english.body and "Bestätige" not in english.body


def test_one_dispute_is_written_once_in_each_readers_language(day, mailoutbox, django_capture_on_commit_callbacks):
    """A dispute goes to both generals and the organizer in one step: German to Ada, English to the others."""
    event, organizer = day
    generals = form_groups_in_german(event, organizer, django_capture_on_commit_callbacks)
    ada = generals["Ada"]
    battle = battle_of(ada)
    opponent = battle.opponent_of(ada)
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=opponent.user, kind=Battle.Kind.VICTORY, winner=opponent,
                                         condition="crush")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reporting.dispute_report(report, user=ada.user, reason="Ben was at the bar")

    german = mail_to(mailoutbox, "Ada")
    assert german.subject.startswith("[Quay Cup] Einspruch: ")
    assert "Ada hat gegen eine Meldung einer Schlacht in Quay Cup Einspruch eingelegt:" in german.body
    assert "Begründung: Ben was at the bar" in german.body  # the reason stays as it was written
    assert "Ein Organisator entscheidet über das Ergebnis." in german.body
    for reader in (opponent.name, "Org"):
        english = mail_to(mailoutbox, reader)
        assert english.subject.startswith("[Quay Cup] Disputed: ")
        assert "Ada disputed a report of a battle in Quay Cup:" in english.body
        assert "Why: Ben was at the bar" in english.body and "An organizer decides the result." in english.body
        assert ENGLISH_FOOTER in english.body and "Einspruch" not in english.body


def test_a_webhook_owner_hears_of_its_disabling_in_their_language(day, mailoutbox,
                                                                 django_capture_on_commit_callbacks):
    event, organizer = day
    NotificationSettings.objects.create(user=organizer, language="de")
    endpoint = WebhookEndpoint.objects.create(event=event, owner=organizer, url="https://hooks.example/warline",
                                              kinds=[WebhookEndpoint.Kind.RESULT_COUNTED],
                                              secret=signing.new_secret(), consecutive_failures=10)
    with django_capture_on_commit_callbacks(execute=True):
        assert delivery.disable(endpoint, "Answered 500.")
        delivery.tell_owner(endpoint)
    [note] = mailoutbox
    assert note.subject == "Webhook deaktiviert: https://hooks.example/warline"
    assert ("Der Webhook https://hooks.example/warline (Quay Cup) ist deaktiviert: Er ist zu oft in Folge "
            "fehlgeschlagen.") in note.body
    # The reason is the record the webhooks page shows, written in the site's language.
    assert "Disabled after 10 failed deliveries in a row; the last: Answered 500." in note.body
    assert note.body.endswith("Du bekommst diese E-Mail, weil du diesen Webhook eingerichtet hast.\n")


@pytest.mark.parametrize("chosen, language", [("de", "de"), ("de-at", "de"), ("en", "en"), ("", "en-us"),
                                              (None, "en-us"), ("fr", "en-us")])
def test_a_language_the_site_does_not_speak_is_mailed_in_the_sites(chosen, language, settings):
    settings.LANGUAGE_CODE = "en-us"
    assert mail_language(chosen) == language
