"""No input gets a server error: bodies over the size limit, JSON nested absurdly deep, numbers Python
will not convert, strings that are not Unicode, multipart uploads large enough to be spooled to disk.
Each is refused with the API's one error body (413 or 400, saying what is wrong and where)."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.reporting.conftest import replay_between
from tournaments.domain import DomainError
from tournaments.models import Event, Report
from tournaments.results import replays

pytestmark = pytest.mark.django_db
MiB = 1024 * 1024


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def post_raw(client, url, body: bytes, content_type="application/json"):
    return client.generic("POST", url, body, content_type=content_type)


def assert_error(response, status, code, field=None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["detail"]
    if field:
        assert field in body["fields"], body
    return body


def padded_replay(a, b, size):
    """A real replay made `size` bytes long with trailing whitespace (still the same document)."""
    text = json.dumps(replay_between("victory-shackle", a, b))
    return (text + " " * (size - len(text))).encode()


def test_a_multipart_upload_over_two_and_a_half_mib_is_refused_not_a_server_error(event_day):
    # Django spools such an upload to a temporary file, which copying the request data could not pickle.
    event, organizer, battle = event_day
    a = battle.general_a
    big = SimpleUploadedFile("big.json", b"{" + b" " * int(2.6 * MiB) + b"}")
    response = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                    {"kind": "victory", "winner": a.pk, "condition": "crush", "replay": big})
    body = assert_error(response, 400, "invalid", field="replay")
    assert "the limit is 1,048,576" in body["detail"]
    assert not Report.objects.exists()


def test_a_replay_upload_of_almost_one_mib_is_accepted(event_day, django_capture_on_commit_callbacks):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    upload = SimpleUploadedFile("replay.json", padded_replay(a, b, MiB - 16))
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/",
                                        {"kind": "victory", "winner": a.pk, "condition": "shackle",
                                         "replay": upload})
    assert response.status_code == 201, response.content[:300]
    assert Report.objects.get().status == Report.Status.CHECKED  # the engine agrees; the opponent still confirms


def test_a_json_replay_of_almost_one_mib_sent_as_a_string_is_accepted(event_day,
                                                                      django_capture_on_commit_callbacks):
    # JSON-escaped inside the body the replay grows (every quote escaped): the body limit leaves room.
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    body = json.dumps({"kind": "victory", "winner": a.pk, "condition": "shackle",
                       "replay": padded_replay(a, b, MiB - 16).decode()}).encode()
    assert len(body) > MiB
    with django_capture_on_commit_callbacks(execute=True):
        response = post_raw(as_user(a.user), f"/api/v1/battles/{battle.pk}/reports/", body)
    assert response.status_code == 201, response.content[:300]


def test_a_body_over_the_limit_gets_413_with_the_json_error_body(event_day, client):
    event, organizer, battle = event_day
    body = b'{"kind": "stalemate", "replay": "' + b" " * (3 * MiB) + b'"}'
    response = post_raw(as_user(battle.general_a.user), f"/api/v1/battles/{battle.pk}/reports/", body)
    assert "3 MiB" in assert_error(response, 413, "too_large")["detail"]
    page = client.post(f"/battles/{battle.pk}/report/", {"replay_text": "x" * (3 * MiB + 1)})
    assert page.status_code == 413 and b"Too large" in page.content
    assert not Report.objects.exists()


def test_a_json_body_between_the_replay_and_the_body_limit_is_refused_for_its_replay(event_day):
    event, organizer, battle = event_day
    a, b = battle.general_a, battle.general_b
    body = json.dumps({"kind": "victory", "winner": a.pk, "condition": "shackle",
                       "replay": padded_replay(a, b, int(2.6 * MiB)).decode()}).encode()
    response = post_raw(as_user(a.user), f"/api/v1/battles/{battle.pk}/reports/", body)
    assert_error(response, 400, "invalid", field="replay")


@pytest.mark.parametrize("depth", [100_000, 65])
def test_json_nested_too_deep_is_a_400(event_day, depth):
    event, organizer, battle = event_day
    body = ("[" * depth + "]" * depth).encode()
    response = post_raw(as_user(organizer), "/api/v1/events/", body)
    assert "deeper than 64" in assert_error(response, 400, "parse_error")["detail"]


def test_json_nested_within_the_limit_reaches_validation(event_day):
    event, organizer, battle = event_day
    body = json.dumps({"name": "Deep", "slug": "deep", "variants": [[[[["double_time"]]]]]}).encode()
    assert_error(post_raw(as_user(organizer), "/api/v1/events/", body), 400, "invalid", field="variants[0]")


def test_a_number_of_5000_digits_in_a_body_is_a_400(event_day):
    event, organizer, battle = event_day
    body = b'{"name": "Huge", "slug": "huge", "battalion_count": ' + b"9" * 5000 + b"}"
    response = post_raw(as_user(organizer), "/api/v1/events/", body)
    assert "4,300 digits" in assert_error(response, 400, "parse_error")["detail"]


def test_a_lone_surrogate_in_a_body_is_a_400_and_nothing_is_stored(event_day):
    event, organizer, battle = event_day
    body = b'{"name": "Bad \\ud800 name", "slug": "surrogate"}'
    response = post_raw(as_user(organizer), "/api/v1/events/", body)
    assert "surrogate" in assert_error(response, 400, "parse_error")["detail"]
    assert not Event.objects.filter(slug="surrogate").exists()
    paired = post_raw(as_user(organizer), "/api/v1/events/", b'{"name": "Cup \\ud83d\\ude00", "slug": "emoji"}')
    assert paired.status_code == 201 and paired.json()["name"] == "Cup \U0001f600"


def test_a_report_body_that_is_not_an_object_is_a_400(event_day):
    event, organizer, battle = event_day
    response = post_raw(as_user(battle.general_a.user), f"/api/v1/battles/{battle.pk}/reports/", b"[1, 2]")
    assert_error(response, 400, "invalid", field="non_field_errors")


def test_an_uploaded_replay_with_a_5000_digit_number_is_refused_with_where(event_day, client):
    event, organizer, battle = event_day
    a = battle.general_a
    text = b'{"format": "warline-replay/1",\n "seed": ' + b"7" * 5000 + b"}"
    response = as_user(a.user).post(f"/api/v1/battles/{battle.pk}/reports/", {
        "kind": "victory", "winner": a.pk, "condition": "crush", "replay": SimpleUploadedFile("r.json", text)})
    body = assert_error(response, 400, "invalid", field="replay")
    assert "more than 4,300 digits at line 2, column 10" in body["detail"]
    client.force_login(a.user)
    page = client.post(f"/battles/{battle.pk}/report/", {"kind": "victory", "winner": a.pk, "condition": "crush",
                                                        "replay_file": SimpleUploadedFile("r.json", text)})
    assert page.status_code == 200 and b"more than 4,300 digits" in page.content
    assert not Report.objects.exists()


@pytest.mark.parametrize(("raw", "sentence"), [
    (b"\xef\xbb\xbf{}", "not valid JSON: Unexpected UTF-8 BOM"),
    ('{"a": 1}'.encode("utf-16"), "not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"n": ' + b"1" * 4301 + b"}", "more than 4,300 digits at line 1, column 7"),
    (b'{"n": 1', "not valid JSON"),
    (b"[]", "one JSON object"),
    ({"name": "\ud800"}, "not Unicode text"),
    (12, "must be a JSON object"),
])
def test_every_decode_problem_of_an_upload_is_a_refusal_for_the_replay_field(raw, sentence):
    with pytest.raises(DomainError, match=sentence) as refusal:
        replays.read_replay_upload(raw)
    assert refusal.value.field == "replay"
