"""What a request that lost a race the database noticed is answered: 409 with a sentence, in the API
and on the pages, never a 500 (tournaments/locks.py)."""
import pytest
from django.db import IntegrityError, transaction
from django.test import RequestFactory

from opp.middleware import LostRaceMiddleware
from tournaments.api.errors import exception_handler
from tournaments.locks import LOST_RACE, lost_race
from tournaments.models import Event, General, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def unique_violation():
    """A real one: a general registered twice for one event (registration_once_per_event)."""
    event = Event.objects.create(name="Cup", slug="cup")
    general = General.objects.create(name="Ada")
    Registration.objects.create(event=event, general=general, number=1)
    try:
        with transaction.atomic():
            Registration.objects.create(event=event, general=general, number=2)
    except IntegrityError as error:
        return error
    pytest.fail("the database accepted a second registration of one general")


def test_a_unique_violation_is_a_lost_race_answered_409_by_the_api(unique_violation):
    assert lost_race(unique_violation)
    response = exception_handler(unique_violation, {})
    assert response.status_code == 409
    assert response.data == {"detail": LOST_RACE, "code": "conflict"}


@pytest.mark.parametrize("path", ["/events/cup/join/", "/api/v1/events/cup/join/"])
def test_a_unique_violation_is_answered_409_on_the_pages_and_under_the_api(unique_violation, path):
    response = LostRaceMiddleware(lambda request: None).process_exception(RequestFactory().post(path),
                                                                           unique_violation)
    assert response.status_code == 409 and "at the same moment" in response.content.decode()


def test_other_errors_are_not_taken_for_a_lost_race():
    assert not lost_race(ValueError("no"))
    assert LostRaceMiddleware(lambda request: None).process_exception(RequestFactory().get("/"),
                                                                      ValueError("no")) is None
