from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from tournaments.domain import DomainError
from tournaments.events import services
from tournaments.management.organizer import find_user
from tournaments.models import VARIANT_KEYS, Event


class Command(BaseCommand):
    help = "Creates a tournament or a league with its elected Rules Variants and Modules."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--slug", help="address of the event page (default: from the name)")
        parser.add_argument("--league", action="store_true", help="a league instead of a tournament")
        parser.add_argument("--variant", action="append", default=[], choices=VARIANT_KEYS)
        parser.add_argument("--battalions", type=int, help="battalions per army with army_recruiting")
        parser.add_argument("--forfeits-to-disqualify", type=int, default=2)
        parser.add_argument("--organizer", action="append", default=[], help="username; may repeat")

    def handle(self, *args, name, slug, league, variant, battalions, forfeits_to_disqualify, organizer,
               **options):
        users = [find_user(username) for username in organizer]
        try:
            event = services.create_event(
                name=name, slug=slug or slugify(name), kind=Event.Kind.LEAGUE if league else Event.Kind.TOURNAMENT,
                organizers=users, variants=variant, battalion_count=battalions,
                forfeits_to_disqualify=forfeits_to_disqualify, actor=users[0] if users else None)
        except DomainError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Created {event.get_kind_display().lower()} {event.name}: /events/{event.slug}/")
