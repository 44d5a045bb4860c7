"""A Swiss round paired mails each player their battle, once, as a round of groups does."""
import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from tournaments.events import services
from tournaments.models import General
from tournaments.swiss import rounds

pytestmark = pytest.mark.django_db


def test_each_player_hears_of_their_swiss_battle_once(django_capture_on_commit_callbacks):
    organizer = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Storm Open", slug="storm-open", actor=organizer, game="warlord-ccg-4e")
    for name in ("Ana", "Bo", "Cy", "Di"):
        user = get_user_model().objects.create_user(name.lower(), email=f"{name.lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    services.close_registration(event, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        paired = rounds.pair_next_round(event, actor=organizer)
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "ana@example.org", "bo@example.org", "cy@example.org", "di@example.org"]
    battle = paired.battles.get(number=1)
    to_first = next(m for m in mail.outbox if battle.general_a.user.email in m.to)
    assert battle.general_b.name in to_first.subject and "Swiss round 1, table 1" in to_first.body
