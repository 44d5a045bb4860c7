from django.core.management.base import BaseCommand

from tournaments.events.membership import grant_organizer_role
from tournaments.management.organizer import find_user


class Command(BaseCommand):
    help = "Grants a user the organizer role: they may create events (and organize them)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--revoke", action="store_true", help="take the role back instead")

    def handle(self, *args, username, revoke, **options):
        user = find_user(username)
        grant_organizer_role(user, grant=not revoke)
        self.stdout.write(f"{username} {'may no longer' if revoke else 'may now'} create events.")
