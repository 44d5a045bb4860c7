from django.core.management.base import BaseCommand

from tournaments.reporting import enqueue, pending_adjudications


class Command(BaseCommand):
    help = "Sends again every adjudication still waiting for a worker (e.g. queued while Redis was down)."

    def handle(self, *args, **options):
        pending = list(pending_adjudications().values_list("pk", flat=True))
        for adjudication_id in pending:
            enqueue(adjudication_id)
        self.stdout.write(f"{len(pending)} adjudication(s) sent to the workers.")
