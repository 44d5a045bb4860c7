import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import ArchiveError, import_archive
from tournaments.management.organizer import find_user


class Command(BaseCommand):
    help = ("Creates a new event from an event archive (event_export, or the organizer page's download). "
            "Generals are matched by external id; the others are created without an account.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive's JSON file")
        parser.add_argument("--slug", help="the new event's slug; default: the archive's")
        parser.add_argument("--organizer", action="append", default=[],
                            help="username made an organizer of the new event (repeatable)")

    def handle(self, file, slug, organizer, **options):
        organizers = [find_user(name) for name in organizer]
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file} is not UTF-8 text: an archive is a JSON file.") from None
        except json.JSONDecodeError as error:
            from tournaments.reporting import json_error_text

            raise CommandError(f"{file} is not valid JSON: {json_error_text(error)}.") from None
        try:
            event = import_archive(data, slug=slug, organizers=organizers)
        except ArchiveError as error:
            raise CommandError(f"{file} is not imported: {error}") from None
        self.stdout.write(f"{event.name} is imported as /events/{event.slug}/ "
                          f"({event.registrations.count()} registrations, {event.battles.count()} battles).")
