"""Builders for event tests: generals, registrations and results through the services only."""
from django.contrib.auth import get_user_model

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, Event, General
from tournaments.results import recording

NAMES = ["Alice", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ines", "Jonas", "Kira", "Lev",
         "Mira", "Nico", "Olga", "Pavel"]


def general_names(count):
    return [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i // len(NAMES) + 1}") for i in range(count)]


def make_tournament(count, *, slug="test-open", organizer=None, **rules):
    event = services.create_event(name=slug.replace("-", " ").title(), slug=slug, actor=organizer, **rules)
    generals = [General.objects.create(name=name) for name in general_names(count)]
    for general in generals:
        services.register(event, general, actor=organizer)
    return event, generals


def make_league(member_names, *, name="Pier League", slug="pier"):
    """Olga's league whose members each entered their own general with their own account (R78)."""
    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("olga"))
    event = services.create_event(name=name, slug=slug, kind=Event.Kind.LEAGUE, actor=organizer)
    members = []
    for member in member_names:
        general = General.objects.create(name=member, user=User.objects.create_user(member.lower()))
        services.register(event, general, actor=general.user)  # the player enters their own general (R78)
        members.append(general)
    return event, organizer, members


def victory(battle, winner, condition="shackle", **extra):
    return recording.record_result(battle, kind=Battle.Kind.VICTORY, winner=winner, condition=condition, **extra)


def open_battles(group_or_event, *, playoff=False):
    return list(group_or_event.battles.filter(kind="", playoff=playoff)
                .select_related("general_a", "general_b").order_by("round", "number"))


def play_group_strongest_wins(group, strength):
    """Every open battle of the group won by shackle by the general ranked higher in `strength`."""
    for battle in open_battles(group):
        winner = min(battle.generals(), key=lambda g: strength.index(g.pk))
        victory(battle, winner)
