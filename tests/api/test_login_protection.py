"""Guessing passwords: the token endpoint is throttled per client address (also while Redis is down),
and repeated wrong passwords lock that username out from that address, on the login form and on the
token endpoint alike, with a sentence saying what happened and for how long."""
import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db
TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture
def olga():
    return get_user_model().objects.create_user("olga", password="right-password")


def token_attempt(password, username="olga", address="10.0.0.1"):
    return APIClient(REMOTE_ADDR=address).post(TOKEN_URL, {"username": username, "password": password},
                                               format="json")


def test_the_token_endpoint_is_throttled_per_address(olga, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    assert [token_attempt("guess", username=f"user{i}").status_code for i in range(3)] == [400, 400, 400]
    throttled = token_attempt("right-password")
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0
    assert token_attempt("right-password", address="10.0.0.2").status_code == 200  # another client


def test_the_token_endpoint_stays_throttled_while_the_cache_redis_is_down(olga, monkeypatch, settings):
    from tests.foundation.test_cache import _dead_redis_url

    settings.CACHES = {"default": {"BACKEND": "opp.cache.DegradingRedisCache", "LOCATION": _dead_redis_url(),
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"login": "2/min"})
    assert [token_attempt("guess", username=f"user{i}").status_code for i in range(3)] == [400, 400, 429]


def test_repeated_wrong_passwords_lock_the_token_endpoint_for_that_username_and_address(olga, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert token_attempt("guess").status_code == 400
    assert token_attempt("guess").status_code == 429  # the failure that locks
    locked = token_attempt("right-password")
    assert locked.status_code == 429 and locked.json()["code"] == "locked_out"
    assert "15 minutes" in locked.json()["detail"]
    assert token_attempt("right-password", address="10.0.0.9").status_code == 200  # not from elsewhere


def test_repeated_wrong_passwords_lock_the_login_form_with_a_clear_message(olga, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = client.post("/accounts/login/", {"login": "olga", "password": "guess"})
        assert wrong.status_code == 200 and b"username and/or password you specified are not correct" in wrong.content
    locked = client.post("/accounts/login/", {"login": "olga", "password": "guess"})
    assert locked.status_code == 429
    again = client.post("/accounts/login/", {"login": "olga", "password": "right-password"})
    assert again.status_code == 429
    assert b"Too many failed sign-ins for this username from your address" in again.content
    assert b"locked for 15 minutes" in again.content
    assert "_auth_user_id" not in client.session


def test_a_successful_sign_in_forgets_earlier_failures(olga, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post("/accounts/login/", {"login": "olga", "password": "guess"})
    assert client.post("/accounts/login/", {"login": "olga", "password": "right-password"}).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/accounts/login/", {"login": "olga", "password": "guess"}).status_code == 200
