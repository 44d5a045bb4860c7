"""Builders for event tests: generals, registrations and results through the services only."""
from tournaments.events import services
from tournaments.models import Battle, General

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


def victory(battle, winner, condition="shackle", **extra):
    return services.record_result(battle, kind=Battle.Kind.VICTORY, winner=winner, condition=condition, **extra)


def open_battles(group_or_event, *, playoff=False):
    return list(group_or_event.battles.filter(kind="", playoff=playoff)
                .select_related("general_a", "general_b").order_by("round", "number"))


def play_group_strongest_wins(group, strength):
    """Every open battle of the group won by shackle by the general ranked higher in `strength`."""
    for battle in open_battles(group):
        winner = min(battle.generals(), key=lambda g: strength.index(g.pk))
        victory(battle, winner)
