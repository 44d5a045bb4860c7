from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.eventday.archive import ArchiveError, SlugTaken, import_archive, read_archive
from tournaments.management.organizer import find_user
from tournaments.models import Report


class Command(BaseCommand):
    help = ("Creates a new event from an event archive (event_export, or the organizer page's download). "
            "Generals are matched by external id; the others are created without an account. The archive's "
            "owner, organizers and everyone its records name are this site's accounts of the same username "
            "(R97); each username without an account here is named in a warning.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive's JSON file")
        parser.add_argument("--slug", help="the new event's slug; default: the archive's")
        parser.add_argument("--organizer", action="append", default=[],
                            help="username made an organizer of the new event besides the archive's own "
                                 "(repeatable); the first owns it when the archive's owner has no account here")

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
            event = import_archive(data, slug=slug, organizers=organizers, match_accounts=True)
        except SlugTaken as error:
            raise CommandError(f"{file} is not imported: {error} Import it under another with --slug.") from None
        except ArchiveError as error:
            raise CommandError(f"{file} is not imported: {error}") from None
        reports = Report.objects.filter(battle__event=event).count()
        self.stdout.write(f"{event.name} is imported as /events/{event.slug}/ "
                          f"({event.registrations.count()} registrations, {event.battles.count()} battles, "
                          f"{reports} reports).")
        for warning in event.archive_warnings:
            self.stderr.write(self.style.WARNING(f"Warning: {warning}"))
