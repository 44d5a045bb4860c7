"""The Python side's sentences in German: a refused step raises its sentence in the language of the request
(or of `translation.override`), the pages show the German flash messages, English stays as it was, and the
app's catalog (tournaments/locale/de) is complete and compiled."""
from pathlib import Path

import polib
import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.reporting.conftest import build_event_day
from tournaments.domain import Conflict, DomainError, NotAllowed, check_partition
from tournaments.events import services
from tournaments.models import General
from tournaments.results import reporting

CATALOG = Path(__file__).resolve().parents[2] / "tournaments" / "locale" / "de" / "LC_MESSAGES"


def outsider_of(battle):
    """A general of the event who does not play `battle`."""
    return battle.event.registrations.exclude(general__in=battle.generals()).first().general


def refusal(step):
    with pytest.raises(DomainError) as refused:
        step()
    return refused.value


# --- a refused step, in German and in English --------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("language, sentence", [
    ("de", "Nur die beiden Generäle dieser Schlacht und die Organisatoren des Events dürfen sie melden."),
    ("en", "Only the two generals of this battle and the event's organizers may report it."),
])
def test_reporting_a_battle_you_are_not_in(language, sentence):
    _event, _organizer, battle = build_event_day()
    stranger = outsider_of(battle).user
    with translation.override(language):
        error = refusal(lambda: reporting.submit_report(battle, user=stranger, kind="stalemate"))
    assert isinstance(error, NotAllowed)
    assert str(error) == sentence


@pytest.mark.django_db
@pytest.mark.parametrize("language, sentence", [
    ("de", "Diese Meldung kann nicht bestätigt werden: Ihr Stand ist „Bestätigt“."),
    ("en", "This report cannot be confirmed: it is confirmed."),
])
def test_confirming_twice(language, sentence, django_capture_on_commit_callbacks):
    _event, _organizer, battle = build_event_day()
    a, b = battle.general_a, battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.submit_report(battle, user=a.user, kind="stalemate")
        reporting.confirm_report(report, user=b.user)
    report.refresh_from_db()
    with translation.override(language):
        error = refusal(lambda: reporting.confirm_report(report, user=b.user))
    assert isinstance(error, Conflict)
    assert str(error) == sentence


@pytest.mark.django_db
@pytest.mark.parametrize("language, sentence", [
    ("de", "Die Anmeldung für Quay Cup ist geschlossen: Die Qualifikationsphase hat begonnen."),
    ("en", "Registration for Quay Cup is closed: the Qualifying Stage has begun."),
])
def test_registering_once_registration_is_closed(language, sentence):
    event, organizer, _battle = build_event_day()
    late = General.objects.create(name="Eli")
    with translation.override(language):
        error = refusal(lambda: services.register(event, late, actor=organizer))
    assert str(error) == sentence


@pytest.mark.parametrize("language, sentence", [
    ("de", "8 Generäle können 2 Gruppen zu 4 oder 4 Gruppen zu 2 bilden; 3 Gruppen gehören nicht dazu."),
    ("en", "8 generals can form 2 groups of 4 or 4 groups of 2; 3 groups is not one of them."),
])
def test_the_domains_own_refusal_follows_the_language(language, sentence):
    """tournaments/domain imports no Django: the app hands it the translation functions when it loads."""
    with translation.override(language):
        error = refusal(lambda: check_partition(8, 3))
    assert str(error) == sentence


def test_the_language_of_the_moment_of_refusal_stays_with_the_error():
    with translation.override("de"):
        error = refusal(lambda: check_partition(3, 2))
    assert str(error) == "3 Generäle können keine gleich großen geraden Gruppen bilden: Melde 1 weitere an."


# --- the pages' flash messages ------------------------------------------------------------------------

def join_as_new_player(client, event, language):
    user = get_user_model().objects.create_user("eve", password="pw")
    client.force_login(user)
    return client.post(f"/events/{event.slug}/join/", {"name": "Eve"}, HTTP_ACCEPT_LANGUAGE=language,
                       follow=True)


@pytest.mark.django_db
def test_the_page_shows_the_refusal_in_german(client):
    event, _organizer, _battle = build_event_day()
    page = join_as_new_player(client, event, "de")
    assert page.status_code == 409
    text = page.content.decode()
    assert "Die Anmeldung für Quay Cup ist geschlossen: Die Qualifikationsphase hat begonnen." in text
    assert "Registration for Quay Cup is closed" not in text


@pytest.mark.django_db
def test_the_page_shows_the_success_message_in_german_and_in_english(client):
    german_event = services.create_event(name="Harbour Open", slug="harbour-open")
    english_event = services.create_event(name="Harbour Cup", slug="harbour-cup")
    german = join_as_new_player(client, german_event, "de").content.decode()
    assert "Eve ist für Harbour Open angemeldet." in german
    english = client.post(f"/events/{english_event.slug}/join/", HTTP_ACCEPT_LANGUAGE="en",
                          follow=True).content.decode()
    assert "Eve is registered for Harbour Cup." in english


# --- the records' labels and the results in words -------------------------------------------------------

def victory_report(battle):
    """The battle's first general reports a Victory by Crush; it waits for the opponent."""
    winner = battle.general_a
    return reporting.submit_report(battle, user=winner.user, kind="victory", winner=winner, condition="crush")


@pytest.mark.django_db
def test_a_german_battle_page_shows_the_reports_status_and_claim_in_german(client):
    _event, _organizer, battle = build_event_day()
    victory_report(battle)
    client.force_login(battle.general_b.user)
    german = client.get(f"/battles/{battle.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    winner = battle.general_a.name
    assert "Wartet auf die Bestätigung des Gegners" in german
    assert f"{winner} gewinnt durch Crush" in german  # Crush is WARLINE's own name
    assert "Waiting for the opponent" not in german
    assert f"{winner} wins by Crush" not in german
    english = client.get(f"/battles/{battle.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Waiting for the opponent&#x27;s confirmation" in english
    assert f"{winner} wins by Crush" in english


@pytest.mark.django_db
def test_a_german_refusal_quotes_the_status_with_its_capitals():
    """German nouns keep their capitals inside a sentence; English writes the label in lower case."""
    _event, _organizer, battle = build_event_day()
    report = victory_report(battle)
    reporting.submit_report(battle, user=battle.general_a.user, kind="stalemate")  # replaces the first
    report.refresh_from_db()
    with translation.override("de"):
        german = str(refusal(lambda: reporting.confirm_report(report, user=battle.general_b.user)))
    with translation.override("en"):
        english = str(refusal(lambda: reporting.confirm_report(report, user=battle.general_b.user)))
    assert german == "Diese Meldung kann nicht bestätigt werden: Ihr Stand ist „Durch eine neuere Meldung ersetzt“."
    assert english == "This report cannot be confirmed: it is replaced by a newer report."


@pytest.mark.django_db
def test_a_stored_reason_stays_english_when_a_german_reader_causes_it():
    """A report's status_reason is a record: the claim inside it is not written in the reader's language."""
    _event, _organizer, battle = build_event_day()
    victory_report(battle)
    with translation.override("de"):
        answer = reporting.submit_report(battle, user=battle.general_b.user, kind="stalemate")
    answer.refresh_from_db()
    assert f"({battle.general_a.name} wins by Crush)" in answer.status_reason
    assert "gewinnt" not in answer.status_reason


@pytest.mark.django_db
def test_a_german_event_page_names_the_state_and_the_tie_breakers_in_german(client):
    event, _organizer, _battle = build_event_day()
    german = client.get(f"/events/{event.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Qualifikationsphase" in german
    assert "Siege durch Shackle" in german  # the tie-breakers' legend, nouns with their capitals
    assert "Victories by Shackle" not in german
    english = client.get(f"/events/{event.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "victories by shackle" in english


@pytest.mark.django_db
def test_an_export_is_the_same_file_for_a_german_reader(client):
    event, _organizer, _battle = build_event_day()
    english = client.get(f"/events/{event.slug}/export/schedule.csv", HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(f"/events/{event.slug}/export/schedule.csv", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 200
    assert german.content == english.content
    assert "Qualifying Stage" in german.content.decode()


# --- the catalog ---------------------------------------------------------------------------------------

def test_every_entry_of_the_catalog_is_translated_and_none_is_fuzzy():
    catalog = polib.pofile(str(CATALOG / "django.po"))
    assert not catalog.untranslated_entries()
    assert not [entry.msgid for entry in catalog.fuzzy_entries()]
    assert not catalog.obsolete_entries()
    assert len(catalog) > 300


def test_the_compiled_catalog_is_the_one_of_the_po_file():
    """django.mo is committed: compilemessages ran after the last change of django.po."""
    source = {(entry.msgid, entry.msgstr, tuple(sorted(entry.msgstr_plural.items())))
              for entry in polib.pofile(str(CATALOG / "django.po")) if not entry.obsolete}
    compiled = {(entry.msgid, entry.msgstr, tuple(sorted(entry.msgstr_plural.items())))
                for entry in polib.mofile(str(CATALOG / "django.mo")) if entry.msgid}
    assert compiled == source
