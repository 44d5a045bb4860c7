from django.core.management.base import BaseCommand

from tournaments.ratings.recompute import recompute_all


class Command(BaseCommand):
    help = ("Recomputes every general's Glicko-2 rating from the counted battles of rated events (R98) "
            "and prints how many generals, weeks and battles were rated.")

    def handle(self, *args, **options):
        summary = recompute_all()
        self.stdout.write(f"Rated {summary.battles} battle(s) of {summary.generals} general(s) over "
                          f"{summary.periods} week(s): {summary.points} rating point(s) written.")
