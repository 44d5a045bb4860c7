"""Shared parts of the organizer's management commands: refused steps become CommandErrors with
the service's sentence, and events and generals are found by the names organizers type."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.domain import DomainError
from tournaments.models import Event, General


class OrganizerCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug, as in its address /events/<slug>/")
        parser.add_argument("--as", dest="actor", help="username recorded in the audit trail")

    def handle(self, *args, **options):
        slug, username = options.pop("event"), options.pop("actor")
        try:
            event = Event.objects.get(slug=slug)
        except Event.DoesNotExist:
            raise CommandError(f"No event has the slug {slug!r}.") from None
        actor = find_user(username) if username else None
        try:
            self.run(event, actor, **options)
        except DomainError as error:
            raise CommandError(str(error)) from None

    def run(self, event, actor, **options):
        raise NotImplementedError


def find_user(username):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user is called {username!r}.")
    return user


def find_general(event, name):
    """A general of the event by exact name (case-insensitive) or id."""
    generals = General.objects.filter(registrations__event=event).distinct()
    matches = [g for g in generals if g.name.lower() == name.lower() or str(g.pk) == name]
    if len(matches) != 1:
        known = ", ".join(g.name for g in generals)
        raise CommandError(f"{name!r} names no single general of {event.name}; they are: {known}.")
    return matches[0]
