from django.core.management.base import BaseCommand, CommandError

from tournaments.results import outbox


class Command(BaseCommand):
    help = ("Sends every adjudication still waiting for a worker (e.g. reported while Redis was down). "
            "Exits 1 when the job queue does not answer.")

    def handle(self, *args, **options):
        waiting = outbox.waiting().count()
        problem = outbox.queue_problem()
        if problem is not None:
            raise CommandError(f"The job queue does not answer ({problem}); nothing was sent and "
                               f"{waiting} adjudication(s) still wait. Run this again once Redis answers.")
        sent, unsent = outbox.send_waiting()
        self.stdout.write(f"{sent} adjudication(s) sent to the workers.")
        if unsent:
            raise CommandError(f"The job queue stopped answering; {unsent} adjudication(s) still wait. "
                               "Run this again once Redis answers.")
