from tournaments.events import services
from tournaments.management.organizer import OrganizerCommand, find_general
from tournaments.models import Disqualification


class Command(OrganizerCommand):
    help = "Disqualifies a general (R23: remaining battles give their opponents 1 OPP)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("general")
        parser.add_argument("--reason", choices=Disqualification.Reason.values, required=True)
        parser.add_argument("--details", default="")

    def run(self, event, actor, general, reason, details, **options):
        general = find_general(event, general)
        services.disqualify(event, general, reason=reason, details=details, actor=actor)
        self.stdout.write(f"{general.name} is disqualified from {event.name}.")
