from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.eventday.archive import ArchiveError, import_archive, read_archive
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
        limit = settings.OPP_MAX_REQUEST_BYTES
        try:
            with open(file, "rb") as handle:
                raw = handle.read(limit + 1)  # the API's limits: a larger file is refused unread
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            data = read_archive(raw)
        except ArchiveError as error:
            raise CommandError(f"{file} is not imported: {error}") from None
        try:
            event = import_archive(data, slug=slug, organizers=organizers)
        except ArchiveError as error:
            raise CommandError(f"{file} is not imported: {error}") from None
        self.stdout.write(f"{event.name} is imported as /events/{event.slug}/ "
                          f"({event.registrations.count()} registrations, {event.battles.count()} battles).")
