"""Schemathesis against the generated OpenAPI schema: no request, however odd, gets a 500 or a
response that breaks the schema, on every operation, the multipart replay upload included (its
replays are generated from the `Replay` component). Runs as the demo's organizer on the demo data,
loaded once for the module (each example's writes are rolled back with its test)."""
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from opp.wsgi import application

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
