"""The API's own refusals in the client's language: `Accept-Language: de` gets German sentences, no header
English, and the status codes and error codes are the same in both (docs/api_language.md)."""
import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.api.conftest import as_user
from tournaments.api.query import MAX_PAGE_SIZE

pytestmark = pytest.mark.django_db


def asking(language, user=None):
    """An API client (signed in as `user`, or anonymous) whose requests ask for `language`, or for none."""
    client = as_user(user) if user is not None else APIClient()
    if language is not None:
        client.credentials(HTTP_ACCEPT_LANGUAGE=language)
    return client


@pytest.mark.parametrize("language, detail, field_sentence", [
    ("de", "Unbekannter Query-Parameter `kind`: GET /api/v1/events/{slug}/groups/ nimmt keine an.",
     "Kein Query-Parameter von GET /api/v1/events/{slug}/groups/ (es nimmt keine an)."),
    (None, "Unknown query parameter `kind`: GET /api/v1/events/{slug}/groups/ takes none.",
     "Not a query parameter of GET /api/v1/events/{slug}/groups/ (it takes none)."),
])
def test_an_unknown_query_parameter(harbour, language, detail, field_sentence):
    refused = asking(language).get("/api/v1/events/harbour/groups/?kind=league")
    assert refused.status_code == 400
    assert refused.json() == {"detail": detail, "code": "invalid", "fields": {"kind": [field_sentence]}}


@pytest.mark.parametrize("language, detail", [
    ("de", "Unbekannte Query-Parameter `colour`, `sort`: GET /api/v1/events/ nimmt `game`, `kind`, `ordering`, "
           "`page`, `page_size`, `search`, `state` an."),
    (None, "Unknown query parameters `colour`, `sort`: GET /api/v1/events/ takes `game`, `kind`, `ordering`, "
           "`page`, `page_size`, `search`, `state`."),
])
def test_two_unknown_query_parameters(harbour, language, detail):
    refused = asking(language).get("/api/v1/events/?colour=red&sort=name")
    assert refused.status_code == 400
    assert refused.json()["detail"] == detail


@pytest.mark.parametrize("language, detail", [
    ("de", f"page_size: Eine ganze Zahl von 1 bis {MAX_PAGE_SIZE}, nicht '{MAX_PAGE_SIZE + 1}'."),
    (None, f"page_size: A whole number from 1 to {MAX_PAGE_SIZE}, not '{MAX_PAGE_SIZE + 1}'."),
])
def test_a_page_size_too_large(harbour, language, detail):
    refused = asking(language).get(f"/api/v1/events/?page_size={MAX_PAGE_SIZE + 1}")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert refused.json()["detail"] == detail


@pytest.mark.parametrize("language, detail", [
    ("de", "Es gibt keine Seite 3: Die Liste hat 1 Seite zu 50 (`page` von 1 bis 1 oder `last`)."),
    (None, "There is no page 3: the list has 1 page of 50 (`page` from 1 to 1, or `last`)."),
])
def test_a_page_past_the_end(harbour, language, detail):
    missing = asking(language).get("/api/v1/events/?page=3")
    assert missing.status_code == 404
    assert missing.json()["detail"] == detail


@pytest.mark.parametrize("language, detail", [
    ("de", "Nur Organisatoren legen Generäle für Spieler ohne Konto an."),
    (None, "Only organizers add generals for players without an account."),
])
def test_a_permission_refusal(language, detail):
    player = get_user_model().objects.create_user("pia")
    refused = asking(language, player).post("/api/v1/generals/", {"name": "Eli"}, format="json")
    assert refused.status_code == 403
    assert refused.json() == {"detail": detail, "code": "permission_denied"}


@pytest.mark.parametrize("language, detail", [
    ("de", "ends_on: Der letzte Tag kann nicht vor dem ersten liegen."),
    (None, "ends_on: The last day cannot be before the first."),
])
def test_a_serializer_check(harbour, language, detail):
    _event, olga = harbour
    refused = asking(language, olga).patch("/api/v1/events/harbour/",
                                           {"starts_on": "2026-05-02", "ends_on": "2026-05-01"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == detail


@pytest.mark.parametrize("language, detail", [
    ("de", "Der Header Idempotency-Key besteht aus 1 bis 255 druckbaren Zeichen (z. B. eine UUID)."),
    (None, "The Idempotency-Key header is 1 to 255 printable characters (e.g. a UUID)."),
])
def test_an_idempotency_key_too_long(harbour, language, detail):
    _event, olga = harbour
    refused = asking(language, olga).post("/api/v1/events/harbour/close-registration/", format="json",
                                          HTTP_IDEMPOTENCY_KEY="k" * 256)
    assert refused.status_code == 400
    assert refused.json() == {"detail": detail, "code": "invalid", "fields": {"Idempotency-Key": [detail]}}
