"""What the API tests share: the started event day, API clients, and Olga's empty Harbour Open.
Models are imported inside the functions: conftest modules load before Django's apps are ready."""
import pytest

from tests.reporting.conftest import event_day  # noqa: F401  (a started tournament with player accounts)


def as_user(user=None):
    """An API client signed in as the user, or anonymous."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def harbour(db):
    """Olga, an organizer, and her event Harbour Open with nobody registered yet."""
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role

    olga = grant_organizer_role(get_user_model().objects.create_user("olga"))
    event = services.create_event(name="Harbour Open", slug="harbour", actor=olga)
    return event, olga


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    """The API's OpenAPI schema as served, read once a module."""
    import yaml
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/")
    assert response.status_code == 200
    return yaml.safe_load(response.content)
