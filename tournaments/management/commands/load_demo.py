from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_PASSWORD, PLAYERS, load_demo


class Command(BaseCommand):
    help = "Creates the demo event, league and logins (once; running it again changes nothing)."

    def handle(self, *args, **options):
        event = load_demo()
        self.stdout.write(f"Demo event: /events/{event.slug}/")
        self.stdout.write(f"Logins (password {DEMO_PASSWORD}): organizer, "
                          + ", ".join(username for username, _ in PLAYERS))
