"""Issue 21, findings 9-15 and 17 (part), each tried as the attack it stops, through the pages, the API
and the commands a stranger, a player or an organizer uses:

9.  an API token taken along with a password dies with it (change or reset), and a user revokes it;
10. wrong passwords spread over many usernames from one address are stopped (login form and token);
11. the archive import (page and `event_import`) refuses deep nesting and huge numbers with a sentence;
13. a general's name cannot start a formula in a CSV export whatever separator a spreadsheet splits on;
14. password-reset mails are limited per email and per client address, answered alike for any email;
15. a line break in an event's or a general's name does not stop its mails;
17. the shipped sign-in throttle, proxy count and limits are what the README says, and a deactivated
    user gets no mail.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Event, General
from tournaments.results import reporting

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
TOKEN_URL = "/api/v1/auth/token/"


def shipped_settings(*names):
    """The named settings as a production process reads them (DEBUG off, only the required variables set),
    in a fresh interpreter: no test's patch reaches them."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("API_", "AXES_", "OPP_", "DJANGO_"))}
    env.update(DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="play.example.org",
               DJANGO_SETTINGS_MODULE="opp.settings")
    script = ("import json, sys; from django.conf import settings; "
              "print(json.dumps({n: getattr(settings, n) for n in sys.argv[1:]}, default=str))")
    done = subprocess.run([sys.executable, "-c", script, *names], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def olga():
    return get_user_model().objects.create_user("olga", password="first-Secret-42", email="olga@example.org")


def token_of(username="olga", password="first-Secret-42", address="10.0.0.1"):
    answer = APIClient(REMOTE_ADDR=address).post(TOKEN_URL, {"username": username, "password": password},
                                                 format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["token"]


def me(token):
    return APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/v1/me/").status_code


# --- 9: API tokens end with the password, and their owner revokes them ----------------------------------

def test_a_stolen_token_stops_working_when_the_owner_changes_the_password(olga, client):
    stolen = token_of()
    assert me(stolen) == 200
    client.force_login(olga)
    changed = client.post("/accounts/password/change/", {
        "oldpassword": "first-Secret-42", "password1": "second-Secret-43", "password2": "second-Secret-43"})
    assert changed.status_code == 302
    assert me(stolen) == 401
    fresh = token_of(password="second-Secret-43")
    assert fresh != stolen and me(fresh) == 200


def test_a_stolen_token_stops_working_when_the_owner_resets_the_password(olga, mailoutbox):
    stolen = token_of()
    browser = Client()
    assert browser.post("/accounts/password/reset/", {"email": "olga@example.org"}).status_code == 302
    link = re.search(r"http://\S+/accounts/password/reset/key/\S+/", mailoutbox[0].body).group(0)
    form = browser.get(urlparse(link).path, follow=True)
    assert form.status_code == 200
    done = browser.post(form.redirect_chain[-1][0], {"password1": "third-Secret-44", "password2": "third-Secret-44"})
    assert done.status_code == 302
    assert me(stolen) == 401


def test_signing_in_on_the_page_keeps_the_token(olga, client):
    token = token_of()
    assert client.post("/accounts/login/", {"login": "olga", "password": "first-Secret-42"}).status_code == 302
    assert me(token) == 200


def test_a_user_revokes_their_token_through_the_api(olga):
    token = token_of()
    other = get_user_model().objects.create_user("ben", password="ben-Secret-42")
    others_token = token_of("ben", "ben-Secret-42")
    assert APIClient().delete(TOKEN_URL).status_code == 401
    revoked = APIClient(HTTP_AUTHORIZATION=f"Token {token}").delete(TOKEN_URL)
    assert revoked.status_code == 204
    assert me(token) == 401
    assert me(others_token) == 200 and other.auth_token.key == others_token  # only the caller's
    assert token_of() != token


def test_a_user_revokes_their_token_with_the_button_on_their_page(olga, client):
    token = token_of()
    client.force_login(olga)
    page = client.get("/my/notifications/").content.decode()
    assert "Revoke my API token" in page and 'action="/my/api-token/revoke/"' in page
    assert client.get("/my/api-token/revoke/").status_code == 405  # a link cannot revoke it
    answer = client.post("/my/api-token/revoke/", follow=True)
    assert "Your API token is revoked" in answer.content.decode()
    assert me(token) == 401
    assert "You have no API token" in client.get("/my/notifications/").content.decode()


def test_the_schema_documents_revoking_a_token():
    schema = APIClient().get("/api/schema/?format=json").json()
    revoke = schema["paths"][TOKEN_URL]["delete"]
    assert revoke["operationId"] == "auth_token_destroy" and "204" in revoke["responses"]
    assert "401" in revoke["responses"]


# --- 10: failed sign-ins per address, whatever the usernames -----------------------------------------------

def test_wrong_passwords_over_many_usernames_from_one_address_are_stopped(olga, settings):
    settings.OPP_SIGNIN_FAILURES_PER_ADDRESS = 6
    guesser = Client(REMOTE_ADDR="10.9.9.9")
    for index in range(6):  # one try per username: django-axes' per-username lockout never triggers
        wrong = guesser.post("/accounts/login/", {"login": f"user{index}", "password": "Summer2026!"})
        assert wrong.status_code == 200
    stopped = guesser.post("/accounts/login/", {"login": "olga", "password": "first-Secret-42"})
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert "Too many failed sign-ins from your address" in stopped.content.decode()
    assert "_auth_user_id" not in guesser.session
    api = APIClient(REMOTE_ADDR="10.9.9.9").post(TOKEN_URL, {"username": "olga", "password": "first-Secret-42"},
                                                  format="json")
    assert api.status_code == 429 and api.json()["code"] == "throttled"
    assert "from your address" in api.json()["detail"]
    assert token_of(address="10.9.9.10")  # another address signs in


def test_failures_at_the_token_endpoint_count_for_the_login_form_too(olga, settings):
    settings.OPP_SIGNIN_FAILURES_PER_ADDRESS = 3
    for index in range(3):
        assert APIClient(REMOTE_ADDR="10.7.7.7").post(
            TOKEN_URL, {"username": f"user{index}", "password": "guess"}, format="json").status_code == 400
    assert Client(REMOTE_ADDR="10.7.7.7").post(
        "/accounts/login/", {"login": "olga", "password": "first-Secret-42"}).status_code == 429
    assert Client(REMOTE_ADDR="10.7.7.7").post(
        "/admin/login/", {"username": "olga", "password": "first-Secret-42"}).status_code == 429


# --- 14: password-reset mails ---------------------------------------------------------------------------

def test_password_reset_mails_to_one_email_are_limited_and_answered_alike(olga, mailoutbox, settings):
    answers = [Client(REMOTE_ADDR=f"10.3.0.{i}").post("/accounts/password/reset/", {"email": "olga@example.org"})
               for i in range(6)]
    assert [a.status_code for a in answers] == [302] * 6
    assert {a["Location"] for a in answers} == {"/accounts/password/reset/done/"}
    assert len(mailoutbox) == settings.OPP_PASSWORD_RESETS_PER_EMAIL == 3
    nobody = Client(REMOTE_ADDR="10.3.1.1").post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert nobody.status_code == 302 and nobody["Location"] == "/accounts/password/reset/done/"


def test_password_reset_requests_from_one_address_are_limited_whatever_the_email(olga, mailoutbox, settings):
    flood = Client(REMOTE_ADDR="10.4.4.4")
    for index in range(settings.OPP_PASSWORD_RESETS_PER_ADDRESS):
        assert flood.post("/accounts/password/reset/", {"email": f"someone{index}@example.org"}).status_code == 302
    # Each got a mail: a note that no account has the address (the page answers alike either way).
    assert len(mailoutbox) == settings.OPP_PASSWORD_RESETS_PER_ADDRESS
    for email in ("olga@example.org", "nobody@example.org"):  # the same answer for an account's email and none
        refused = flood.post("/accounts/password/reset/", {"email": email})
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert "Too many password-reset requests from your address" in refused.content.decode()
    assert len(mailoutbox) == settings.OPP_PASSWORD_RESETS_PER_ADDRESS  # nothing more was sent
    assert Client(REMOTE_ADDR="10.4.4.5").post("/accounts/password/reset/",
                                               {"email": "olga@example.org"}).status_code == 302
    assert mailoutbox[-1].to == ["olga@example.org"] and "/accounts/password/reset/key/" in mailoutbox[-1].body


# --- 11: the archive import's limits ----------------------------------------------------------------------

DEEP = b'{"format": "warline-opp-event-archive", "version": 1, "event": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
HUGE_NUMBER = b'{"format": "warline-opp-event-archive", "version": ' + b"7" * 5000 + b"}"


@pytest.fixture
def organizer_client(client):
    client.force_login(grant_organizer_role(get_user_model().objects.create_user("orla", password="pw")))
    return client


@pytest.mark.parametrize(("body", "sentence"), [(DEEP, "nests lists and objects deeper than 64 levels"),
                                                (HUGE_NUMBER, "holds a number with more than 4,300 digits")])
def test_the_import_page_refuses_deep_nesting_and_huge_numbers_with_a_sentence(organizer_client, body, sentence):
    answer = organizer_client.post("/events/import/", {"archive": SimpleUploadedFile("a.json", body)})
    assert answer.status_code == 400
    assert f"The file {sentence}" in answer.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize(("body", "sentence"), [(DEEP, "nests lists and objects deeper than 64 levels"),
                                                (HUGE_NUMBER, "holds a number with more than 4,300 digits")])
def test_event_import_refuses_deep_nesting_and_huge_numbers_with_an_error(tmp_path, body, sentence):
    archive = tmp_path / "archive.json"
    archive.write_bytes(body)
    with pytest.raises(CommandError, match=f"is not imported: The file {sentence}"):
        call_command("event_import", str(archive))
    assert not Event.objects.exists()


def test_event_import_exits_nonzero_with_the_sentence(tmp_path):
    archive = tmp_path / "archive.json"
    archive.write_bytes(HUGE_NUMBER)
    env = {**os.environ, "DEBUG": "true"}
    done = subprocess.run([sys.executable, "manage.py", "event_import", str(archive)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "holds a number with more than 4,300 digits" in done.stderr and "Traceback" not in done.stderr


def test_event_import_refuses_a_file_over_the_apis_size_limit(tmp_path, settings):
    settings.OPP_MAX_REQUEST_BYTES = 1000
    archive = tmp_path / "archive.json"
    archive.write_text(json.dumps({"format": "warline-opp-event-archive", "padding": "x" * 2000}))
    with pytest.raises(CommandError, match="larger than 1,000 bytes"):
        call_command("event_import", str(archive))


# --- 13: CSV cells in any separator locale -----------------------------------------------------------------

FORMULA = "Alice;=cmd|' /C calc'!A0"


def test_a_name_cannot_start_a_formula_whatever_separator_a_spreadsheet_splits_on(client):
    organizer = grant_organizer_role(get_user_model().objects.create_user("orla", password="pw"))
    event = services.create_event(name="Quay Open", slug="quay-open", actor=organizer)
    for name in (FORMULA, "Bob,+1+1", "Cyd\t@SUM(A1)", "Dov\r\n-2+3", "Eve | =1"):
        services.register(event, General.objects.create(name=name), actor=organizer)
    text = client.get("/events/quay-open/export/registrations.csv").content.decode("utf-8")
    for separator in (";", ",", "\t", "|"):
        for line in re.split(r"[\r\n]+", text):
            for cell in line.split(separator):  # a spreadsheet that ignores the quotes
                assert not cell.strip(' "').startswith(("=", "+", "-", "@")), (separator, cell)
        for row in csv.reader(io.StringIO(text), delimiter=separator):  # one that honours them
            assert not any(cell.strip().startswith(("=", "+", "-", "@")) for cell in row), (separator, row)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1][1] == "Alice;'=cmd|' /C calc'!A0"  # still readable as the name it is
    assert all(line.startswith('"') for line in text.splitlines() if line and line[0].isalnum())


# --- 15: names with line breaks in mail -------------------------------------------------------------------

def test_a_line_break_in_an_event_or_general_name_does_not_stop_its_mails(mailoutbox,
                                                                         django_capture_on_commit_callbacks):
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw", email="org@example.org"))
    event = services.create_event(name="Quay\r\nCup\x07 Bcc: victim@example.org", slug="quay-cup", actor=organizer)
    for name in ("Ada\nLine", "Ben\u2028Sep", "Cyd", "Dov"):
        user = User.objects.create_user(name[:3].lower(), password="pw", email=f"{name[:3].lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    with django_capture_on_commit_callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    assert sorted(m.to[0] for m in mailoutbox) == ["ada@example.org", "ben@example.org", "cyd@example.org",
                                                   "dov@example.org"]
    for mail in mailoutbox:
        assert mail.subject.startswith("[Quay Cup Bcc: victim@example.org] ")
        assert not re.search(r"[\x00-\x1f\u2028\u2029]", mail.subject)
        assert mail.bcc == [] and "victim" not in "".join(mail.recipients())
        message = mail.message()
        assert message["Subject"] and "\n" not in message["Subject"].replace("\n ", "")


# --- 17: the shipped values, and deactivated users --------------------------------------------------------

def test_the_shipped_sign_in_limits_and_proxy_count_are_the_documented_ones():
    shipped = shipped_settings("REST_FRAMEWORK", "AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME",
                               "AXES_LOCKOUT_PARAMETERS", "OPP_SIGNIN_FAILURES_PER_ADDRESS",
                               "OPP_PASSWORD_RESETS_PER_EMAIL", "OPP_PASSWORD_RESETS_PER_ADDRESS", "DEBUG")
    assert shipped["DEBUG"] is False
    rest = shipped["REST_FRAMEWORK"]
    assert rest["DEFAULT_THROTTLE_RATES"]["login"] == "10/min"
    assert rest["NUM_PROXIES"] == 0  # no X-Forwarded-For trusted unless API_NUM_PROXIES says so
    assert shipped["AXES_FAILURE_LIMIT"] == 5 and shipped["AXES_COOLOFF_TIME"] == "0:15:00"
    assert shipped["AXES_LOCKOUT_PARAMETERS"] == [["username", "ip_address"]]
    assert shipped["OPP_SIGNIN_FAILURES_PER_ADDRESS"] == 30
    assert (shipped["OPP_PASSWORD_RESETS_PER_EMAIL"], shipped["OPP_PASSWORD_RESETS_PER_ADDRESS"]) == (3, 10)


def test_the_token_endpoint_uses_the_shipped_login_rate(olga):
    """Without any patch: the 11th sign-in of a minute from one address is throttled (10/min)."""
    answers = [APIClient(REMOTE_ADDR="10.5.5.5").post(TOKEN_URL, {"username": "olga", "password": "first-Secret-42"},
                                                      format="json").status_code for _ in range(11)]
    assert answers == [200] * 10 + [429]


def test_a_deactivated_player_gets_no_mail(mailoutbox, django_capture_on_commit_callbacks):
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw", email="org@example.org"))
    event = services.create_event(name="Quay Cup", slug="quay-cup", actor=organizer)
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password="pw", email=f"{name.lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    User.objects.filter(username="ben").update(is_active=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.form_groups(event, 2, "random", seed=9, actor=organizer)
    assert "ben@example.org" not in [m.to[0] for m in mailoutbox] and len(mailoutbox) == 3
    mailoutbox.clear()
    battle = event.battles.filter(general_b__name="Ben").first() or event.battles.filter(general_a__name="Ben").first()
    reporter = battle.general_a if battle.general_b.name == "Ben" else battle.general_b
    with django_capture_on_commit_callbacks(execute=True):
        reporting.submit_report(battle, user=reporter.user, kind="forfeit", forfeited_by=battle.opponent_of(reporter))
    assert "ben@example.org" not in [address for m in mailoutbox for address in m.to]
