from django.core.management.base import BaseCommand

from opp.health import overall, run_checks


class Command(BaseCommand):
    help = "Says whether the database, Redis and the Celery workers answer. Exit status 1 unless all is ok."

    def handle(self, *args, **options):
        checks = run_checks()
        for check in checks:
            mark = self.style.SUCCESS("ok  ") if check.ok else self.style.ERROR("FAIL")
            self.stdout.write(f"{mark} {check.name:<9} {check.detail}")
        status = overall(checks)
        self.stdout.write(f"status: {status}")
        if status != "ok":
            raise SystemExit(1)
