"""The pages in German: chosen by the browser (Accept-Language) or by the language switcher in every page's
footer, which keeps a signed-in user's choice in their settings (the language of their mails too). Dates
follow the language; <html lang> says which one the page is in."""
import datetime

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import NotificationSettings

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}


def text_of(response):
    return response.content.decode()


def test_a_german_browser_gets_the_home_page_in_german(client, harbour):
    page = text_of(client.get("/", **GERMAN))
    assert '<html lang="de">' in page
    assert "<h1>Events</h1>" in page
    assert ">Spieler</a>" in page and ">Wertungen</a>" in page and ">Anmelden</a>" in page
    assert "Events nach Name, Spielort oder Beschreibung suchen" in page
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page


def test_an_english_browser_keeps_english(client, harbour):
    page = text_of(client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9"))
    assert '<html lang="en">' in page
    assert "Search events by name, venue or description" in page and ">Players</a>" in page


def test_the_event_and_sign_in_pages_in_german(client, harbour):
    event, _olga = harbour
    page = text_of(client.get(f"/events/{event.slug}/", **GERMAN))
    assert "Paarungen drucken" in page and "Ergebniszettel" in page and "Zeiten in UTC" in page
    assert "Wie die Tabelle sortiert ist" in page
    sign_in = text_of(client.get("/accounts/login/", **GERMAN))
    assert "<h1>Anmelden</h1>" in sign_in and "Passwort vergessen?" in sign_in
    assert '<button type="submit">Anmelden</button>' in sign_in


def test_event_days_are_written_in_the_readers_language(client, harbour):
    event, _olga = harbour
    event.starts_on, event.ends_on = datetime.date(2026, 3, 24), datetime.date(2026, 3, 26)
    event.save()
    assert "24.–26. Mär 2026" in text_of(client.get("/", **GERMAN))
    assert "24–26 Mar 2026" in text_of(client.get("/", HTTP_ACCEPT_LANGUAGE="en"))


def test_the_switcher_sets_the_language_and_comes_back_to_the_page(client, harbour):
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/generals/"})
    assert response.status_code == 302 and response["Location"] == "/generals/"
    assert client.cookies["django_language"].value == "de"
    assert "<h1>Spieler</h1>" in text_of(client.get("/generals/"))  # the cookie wins over no Accept-Language
    client.post("/i18n/setlang/", {"language": "en", "next": "/generals/"})
    assert "<h1>Players</h1>" in text_of(client.get("/generals/", **GERMAN))  # ...and over a German browser


def test_a_signed_in_users_choice_is_kept_in_their_settings(client):
    user = get_user_model().objects.create_user("greta", password="pw")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "de", "next": "/my/battles/"})
    assert NotificationSettings.objects.get(user=user).language == "de"
    assert "<h1>Meine Schlachten</h1>" in text_of(client.get("/my/battles/"))
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert NotificationSettings.objects.get(user=user).language == "en"


def test_a_language_this_site_does_not_offer_changes_nothing(client):
    user = get_user_model().objects.create_user("greta", password="pw")
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert "django_language" not in response.cookies
    assert not NotificationSettings.objects.filter(user=user).exists()


def test_the_scripts_words_come_from_the_javascript_catalog(client):
    catalog = client.get("/jsi18n/", **GERMAN).content.decode()
    assert '"Review the change": "\\u00c4nderung ansehen"' in catalog  # the catalog writes Ä as \u00c4
    assert '"After Battle Formation": "Nach der Battle Formation"' in catalog


def test_a_signed_in_users_choice_needs_the_forms_csrf_token_and_a_visitors_does_not():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302  # a visitor's cookie
    user = get_user_model().objects.create_user("greta", password="pw")
    strict.force_login(user)
    assert strict.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 403
    assert not NotificationSettings.objects.filter(user=user).exists()
    page = text_of(strict.get("/generals/"))
    token = page.split('name="csrfmiddlewaretoken" value="')[-1].split('"')[0]
    assert strict.post("/i18n/setlang/", {"language": "de", "next": "/", "csrfmiddlewaretoken": token}).status_code == 302
    assert NotificationSettings.objects.get(user=user).language == "de"


def test_a_saved_language_follows_the_account_to_a_browser_without_the_cookie(client, django_user_model):
    user = django_user_model.objects.create_user("hanna", password="pw")
    NotificationSettings.objects.create(user=user, language="de")
    client.force_login(user)

    first = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert first.wsgi_request.LANGUAGE_CODE == "de"
    assert 'lang="de"' in first.content.decode()
    assert first.cookies["django_language"].value == "de"

    NotificationSettings.objects.filter(user=user).update(language="")
    client.cookies.pop("django_language")
    # asked once a session: the account was read already, the browser's language decides from here on
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="en").wsgi_request.LANGUAGE_CODE == "en"


def test_the_scoreboard_answers_each_reader_in_their_language_and_never_a_304_for_the_other(client):
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role

    organizer = grant_organizer_role(get_user_model().objects.create_user("olga"))
    services.create_event(name="Harbour Open", slug="harbour", actor=organizer)
    url = "/api/v1/events/harbour/scoreboard/"

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 200
    assert english.json()["event"]["status"] == "Registration"
    assert german.json()["event"]["status"] != "Registration"  # the state in German words
    # the English reader's ETag is not the German reader's: asking in German with it gets the German document
    again = client.get(url, HTTP_ACCEPT_LANGUAGE="de", HTTP_IF_NONE_MATCH=english["ETag"])
    assert again.status_code == 200 and again.json() == german.json()
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="de", HTTP_IF_NONE_MATCH=german["ETag"]).status_code == 304
