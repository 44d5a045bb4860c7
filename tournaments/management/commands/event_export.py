import json

from tournaments.eventday.archive import build_archive
from tournaments.management.organizer import OrganizerCommand


class Command(OrganizerCommand):
    help = "Writes the whole-event archive (JSON) that event_import reads on another site."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--out", help="file to write; default: standard output")

    def run(self, event, actor, out, **options):
        text = json.dumps(build_archive(event), ensure_ascii=False, indent=1)
        if out:
            with open(out, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stdout.write(f"{event.name} is archived in {out}.")
        else:
            self.stdout.write(text)
