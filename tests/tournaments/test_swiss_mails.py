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


def test_each_player_at_a_table_hears_of_their_table_once(django_capture_on_commit_callbacks):
    organizer = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Storm Tables", slug="storm-tables", actor=organizer, game="warlord-ccg-4e",
                                  table_size=3)
    for name in ("Ana", "Bo", "Cy"):
        user = get_user_model().objects.create_user(name.lower(), email=f"{name.lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    services.close_registration(event, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        table = rounds.pair_next_round(event, actor=organizer).tables.get()
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "ana@example.org", "bo@example.org", "cy@example.org"]
    to_ana = next(m for m in mail.outbox if "ana@example.org" in m.to)
    assert "Bo, Cy" in to_ana.body and f"/tables/{table.pk}/" in to_ana.body


def test_a_table_report_asks_the_other_players_to_confirm_it(django_capture_on_commit_callbacks):
    from tournaments.swiss import tables

    organizer = get_user_model().objects.create_user("olga", is_staff=True, is_superuser=True)
    event = services.create_event(name="Storm Tables", slug="storm-tables", actor=organizer, game="warlord-ccg-4e",
                                  table_size=3)
    players = []
    for name in ("Ana", "Bo", "Cy"):
        user = get_user_model().objects.create_user(name.lower(), email=f"{name.lower()}@example.org")
        players.append(General.objects.create(name=name, user=user))
        services.register(event, players[-1], actor=user)
    services.close_registration(event, actor=organizer)
    table = rounds.pair_next_round(event, actor=organizer).tables.get()
    ana, bo, cy = players
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tables.report_table(table, user=ana.user, eliminations=[cy.pk, bo.pk])
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "bo@example.org", "cy@example.org"]
    assert "Ana wins; out: Cy, then Bo" in mail.outbox[0].body and "counts by itself" in mail.outbox[0].body
