from django.core.management.base import BaseCommand

from tournaments.results.confirmation import confirm_expired


class Command(BaseCommand):
    help = ("Confirms every report whose confirmation window has passed without a dispute (what the "
            "periodic job does; run it from cron where no Celery beat runs).")

    def handle(self, *args, **options):
        confirmed = confirm_expired()
        for item in confirmed:
            where = item.report.table if hasattr(item.report, "table") else item.report.battle
            self.stdout.write(f"confirmed report {item.report.pk}: {where}")
            if item.offer_disqualification:
                self.stdout.write(f"  {item.offer_disqualification.name} has reached the forfeit limit: "
                                  "disqualification may be offered (R68).")
        self.stdout.write(f"{len(confirmed)} report(s) confirmed.")
