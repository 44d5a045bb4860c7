"""Schemathesis against the generated OpenAPI schema: no request, however odd, gets a 500 or a
response that breaks the schema, on every operation, the multipart replay upload included. There
schemathesis sends what the upload's schema says, a binary file: random bytes, which the server must
refuse in words. So a second test uploads real replays through the same operation: games of the
engine's generator between a demo battle's generals, each valid against the `Replay` component, which
are taken (201) or refused with the error body, never a 500. Runs as the demo's organizer on the demo
data, loaded once for the module (each example's writes are rolled back with its test)."""
import json

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

import rules_engine
from opp.wsgi import application
from tournaments.api.replay_schema import standalone_schema
from tournaments.demo import DEMO_EVENT_SLUG

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture(autouse=True)
def keep_the_test_transaction_open():
    """The WSGI app closes database connections at the end of each request, which would end the test's
    transaction on PostgreSQL; Django's own test client detaches this handler in the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


EXAMPLES = 30  # per operation (25 before the demo was loaded once)


@pytest.fixture(scope="module")
def demo_token(django_db_setup, django_db_blocker):
    """The demo, loaded (and committed) once for every operation's test, and flushed at the end."""
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from tournaments.demo import load_demo

    with django_db_blocker.unblock():
        event = load_demo()
        token = Token.objects.get_or_create(user=event.organizers.get())[0].key
    yield token
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def organizer_token(demo_token, db):
    return demo_token


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_responses_match_the_schema(case, organizer_token):
    # What a client relies on: no 5xx, and every status, content type and body as documented. (Whether
    # the server accepts every schema-valid body is not asked: a wrong password is schema-valid.)
    case.call_and_validate(headers={"Authorization": f"Token {organizer_token}"},
                           checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance])


UPLOAD = "/api/v1/battles/{id}/reports/upload/"


@pytest.fixture(scope="module")
def open_battles(demo_token, django_db_blocker):
    """The demo event's battles without a result, as loaded (each example's reports are rolled back)."""
    from tournaments.models import Battle

    with django_db_blocker.unblock():
        return list(Battle.objects.filter(event__slug=DEMO_EVENT_SLUG, kind="")
                    .select_related("general_a", "general_b").order_by("pk"))


@st.composite
def uploads(draw, battles):
    """A real replay of an open battle of the demo, as a file: a game of the engine's generator between
    the battle's generals (Core Rules or not, so the event's rules may refuse it), valid against the
    `Replay` component, with the outcome it ends in (or another one)."""
    battle = draw(st.sampled_from(battles))
    a, b = battle.general_a, battle.general_b
    variants = draw(st.sampled_from([(), (), ("double_time",), ("battle_arts", "terrain")]))
    game = rules_engine.generate_game(draw(st.integers(0, 2**32 - 1)), variants=variants, max_turns=40,
                                      names=(a.name, b.name), general_ids=(a.pk, b.pk))
    jsonschema.Draft4Validator(standalone_schema()).validate(game)
    verdict = rules_engine.adjudicate(game).to_dict()
    fields = {"kind": "victory", "winner": {"p1": a.pk, "p2": b.pk}[verdict["winner"]],
              "condition": verdict["condition"]} if verdict["outcome"] == "victory" else {"kind": verdict["outcome"]}
    if draw(st.booleans()):
        fields = draw(st.sampled_from([{"kind": "stalemate"}, {"kind": "victory", "winner": b.pk,
                                                                "condition": "crush"}]))
    if verdict["outcome"] not in ("victory", "stalemate", "resolve"):
        fields = {"kind": "stalemate"}
    return battle.pk, {**fields, "replay": json.dumps(game).encode()}


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_valid_replay_uploaded_through_the_multipart_operation_is_taken_or_refused_in_words(
        data, organizer_token, open_battles):
    from django.db import transaction

    battle_id, body = data.draw(uploads(open_battles))
    case = schema[UPLOAD]["POST"].Case(path_parameters={"id": battle_id}, body=body,
                                       media_type="multipart/form-data")
    with transaction.atomic():  # each example on the demo as loaded, not after the previous one's report
        response = case.call_and_validate(headers={"Authorization": f"Token {organizer_token}"},
                                          checks=[not_a_server_error, status_code_conformance,
                                                  content_type_conformance, response_schema_conformance])
        transaction.set_rollback(True)
    assert response.status_code < 500
    if response.status_code >= 400:
        answer = response.json()
        assert {"detail", "code"} <= set(answer) and answer["detail"], answer
    else:
        assert response.status_code == 201 and response.json()["has_replay"], response.json()
