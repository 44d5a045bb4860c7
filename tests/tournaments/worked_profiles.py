"""The worked events of the profile tests, built through the services only.

Spring Open (published, complete), groups formed by hand:
  Group A: Alice beats Bruno by Shackle (5 OPP), Alice and Chen Stalemate (-1 each), Dana forfeits to
           Alice (1 OPP, R22), Bruno beats Chen by Crush, Bruno and Dana Resolve (-10 each), Chen beats
           Dana by Overpower. Alice tops the group with 5 OPP.
  Group B: Emil beats everyone by Shackle.
  Final Group: Emil beats Alice by Blunt: Emil is the Victor, Alice 2nd.
Secret Cup (unpublished, in progress; organized by Olga): Alice beats Bruno by Paralyze in Group A.

So Alice's record, as a stranger sees it: 3 battles fought (Bruno, Chen, Emil), 1 Victory (by Shackle),
1 Stalemate, 0 Resolves, 1 defeat, 1 forfeit received, none given; 5 OPP in Spring Open, 2nd in the
Final Group. Olga sees Secret Cup too: 4 battles, 2 Victories (one by Paralyze), 3 OPP there, 1st so far.
"""
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from tournaments.events import services
from tournaments.events.membership import grant_organizer_role
from tournaments.models import Battle, Event, General, Group
from tournaments.results import recording


@dataclass
class Worked:
    spring: Event
    secret: Event
    olga: object  # Secret Cup's organizer
    alice_user: object
    generals: dict  # name -> General


def battle_of(event, first, second, *, stage=Group.Stage.QUALIFYING):
    return Battle.objects.get(event=event, group__stage=stage, playoff=False,
                              general_a__in=[first, second], general_b__in=[first, second])


def win(event, winner, loser, condition, *, stage=Group.Stage.QUALIFYING):
    recording.record_result(battle_of(event, winner, loser, stage=stage), kind=Battle.Kind.VICTORY, winner=winner,
                            condition=condition)


def build():
    User = get_user_model()
    alice_user = User.objects.create_user("alice", password="pw")
    olga = grant_organizer_role(User.objects.create_user("olga", password="pw"))
    names = ["Alice", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana"]
    g = {name: General.objects.create(name=name, user=alice_user if name == "Alice" else None) for name in names}

    spring = services.create_event(name="Spring Open", slug="spring-open")
    for name in names:
        services.register(spring, g[name], actor=alice_user if name == "Alice" else None)
    services.form_groups(spring, 2, "manual", manual=[[g[n] for n in names[:4]], [g[n] for n in names[4:]]])
    win(spring, g["Alice"], g["Bruno"], "shackle")
    recording.record_result(battle_of(spring, g["Alice"], g["Chen"]), kind=Battle.Kind.STALEMATE)
    recording.record_result(battle_of(spring, g["Alice"], g["Dana"]), kind=Battle.Kind.FORFEIT,
                            forfeited_by=g["Dana"])
    win(spring, g["Bruno"], g["Chen"], "crush")
    recording.record_result(battle_of(spring, g["Bruno"], g["Dana"]), kind=Battle.Kind.RESOLVE)
    win(spring, g["Chen"], g["Dana"], "overpower")
    for loser in ("Farah", "Goran", "Hana"):
        win(spring, g["Emil"], g[loser], "shackle")
    for first, second in (("Farah", "Goran"), ("Farah", "Hana"), ("Goran", "Hana")):
        win(spring, g[first], g[second], "shackle")
    win(spring, g["Emil"], g["Alice"], "blunt", stage=Group.Stage.FINAL)

    secret = services.create_event(name="Secret Cup", slug="secret-cup", organizers=[olga])
    Event.objects.filter(pk=secret.pk).update(published=False)
    for name in names[:4]:
        services.register(secret, g[name], actor=alice_user if name == "Alice" else None)
    services.form_groups(secret, 2, "manual", manual=[[g["Alice"], g["Bruno"]], [g["Chen"], g["Dana"]]])
    win(secret, g["Alice"], g["Bruno"], "paralyze")
    for event in (spring, secret):
        event.refresh_from_db()
    return Worked(spring=spring, secret=secret, olga=olga, alice_user=alice_user, generals=g)
