from tournaments import audit
from tournaments.domain import TIEBREAKERS
from tournaments.management.organizer import OrganizerCommand
from tournaments.standings import tables


class Command(OrganizerCommand):
    help = "Prints the standings of every group or season, with every tie-break figure."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--schedule", action="store_true", help="also list the battles with their ids")

    def run(self, event, actor, schedule, **options):
        metrics = [m for m in TIEBREAKERS if m.key != "opp"]
        sections = [(g.name, tables.group_standings(g), g.battles.all()) for g in
                    event.groups.order_by("-stage", "index")]
        sections += [(s.name, tables.season_standings(s), s.battles.all()) for s in event.seasons.all()]
        self.stdout.write(f"{event.name} — {event.status_label}"
                          + (f" — Victor: {event.victor.name}" if event.victor else ""))
        for name, table, battles in sections:
            self.stdout.write(f"\n{name}")
            header = ["#  ", "General".ljust(20), "OPP"] + [m.key for m in metrics]
            self.stdout.write("  ".join(header))
            for row, general in table.entries():
                place = f"{row.place}{'=' if row.shared else ''}"
                figures = [str(row.figure(m.key)).rjust(len(m.key)) for m in metrics]
                mark = " (DQ)" if row.disqualified else ""
                self.stdout.write("  ".join([place.ljust(3), (general.name + mark).ljust(20),
                                             str(row.opp).rjust(3)] + figures))
            if schedule:
                for battle in battles.select_related("general_a", "general_b", "winner", "forfeited_by"):
                    self.stdout.write(f"  [{battle.pk}] {audit.battle_subject(battle)} — {battle.outcome_text()}")
