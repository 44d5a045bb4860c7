"""The organizer changes how many Swiss rounds are played: never fewer than are paired, and cutting the
event short after a counted round ends it with its winner."""
import pytest
from django.contrib.auth import get_user_model

from tournaments.domain import DomainError
from tournaments.events import services
from tournaments.models import AuditEntry, Event, General
from tournaments.results.recording import record_result
from tournaments.swiss import rounds

pytestmark = pytest.mark.django_db


def test_fewer_rounds_after_a_counted_round_ends_the_event_and_never_below_the_paired():
    organizer = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Short Night", slug="short-night", actor=organizer, game="reaper-warlord")
    for name in ("Ana", "Bo", "Cy", "Di"):
        services.register(event, General.objects.create(name=name), actor=organizer)
    services.close_registration(event, actor=organizer)
    assert rounds.planned_rounds(event) == 2
    first = rounds.pair_next_round(event, actor=organizer)
    with pytest.raises(DomainError):
        rounds.set_rounds(event, 0, actor=organizer)
    for battle in first.battles.all():
        record_result(battle, kind="victory", winner=battle.general_a,
                      facts={"end_reason": "side_dead", "points_destroyed": {"a": 400, "b": 120}})
    rounds.set_rounds(event, 1, actor=organizer)
    event.refresh_from_db()
    assert event.state == Event.State.COMPLETE and event.swiss_rounds == 1
    assert AuditEntry.objects.filter(event=event, action="swiss rounds changed").exists()
