from tournaments.events import services
from tournaments.management.organizer import OrganizerCommand


class Command(OrganizerCommand):
    help = "Closes registration: with an odd field the last registrant is eliminated."

    def run(self, event, actor, **options):
        eliminated = services.close_registration(event, actor=actor)
        if eliminated:
            self.stdout.write(f"{eliminated.general.name} is eliminated: {eliminated.status_reason}")
        count, partitions = services.partition_choices(event)
        choices = " or ".join(f"{n} groups of {size}" for n, size in partitions) or "none"
        self.stdout.write(f"{count} generals registered; possible qualifying groups: {choices}.")
