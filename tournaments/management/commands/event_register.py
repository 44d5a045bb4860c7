from tournaments import services
from tournaments.management.organizer import OrganizerCommand
from tournaments.models import General


class Command(OrganizerCommand):
    help = "Registers generals for an event (a general is created when the name is new)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("names", nargs="+", help="generals' names, in registration order")

    def run(self, event, actor, names, **options):
        for name in names:
            general = General.objects.filter(name__iexact=name).first() or General.objects.create(name=name)
            registration = services.register(event, general, actor=actor)
            self.stdout.write(f"{registration.number}. {general.name}")
