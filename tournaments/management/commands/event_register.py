from django.core.management.base import CommandError
from django.db import transaction

from tournaments.events import membership, services
from tournaments.management.organizer import OrganizerCommand
from tournaments.models import General, name_key


class Command(OrganizerCommand):
    help = ("Registers generals without a player account for an event: a new general for each name, or an "
            "existing one chosen by --general-id. A name that matches an existing general (ignoring case and "
            "spaces) is refused unless --create-new (R78); a player's own general joins by their consent.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("names", nargs="*", help="new generals' names, in registration order")
        parser.add_argument("--general-id", dest="general_ids", type=int, action="append", default=[],
                            help="register this existing general (its id); may repeat; registered before the names")
        parser.add_argument("--create-new", action="store_true",
                            help="create a new general even when one of the same name exists")

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.parse_args = parser.parse_intermixed_args  # names before and after --general-id alike
        return parser

    def run(self, event, actor, names, general_ids, create_new, **options):
        if not names and not general_ids:
            raise CommandError("Name the generals to register, or choose existing ones with --general-id.")
        chosen = []
        for pk in general_ids:
            general = General.objects.filter(pk=pk).first()
            if general is None:
                raise CommandError(f"No general has the id {pk}.")
            chosen.append(general)
        keys = [name_key(name) for name in names]
        twice = next((name for name, key in zip(names, keys, strict=True) if keys.count(key) > 1), None)
        if twice and not create_new:
            raise CommandError(f"{twice!r} is named twice (ignoring case and spaces): name each general once, or "
                               "pass --create-new for two generals of that name.")
        for name in names:
            matches = membership.same_name(name)
            if matches and not create_new:
                found = ", ".join(f"{g.name} (id {g.pk}{', claimed by a player' if g.user_id else ''})"
                                  for g in matches)
                raise CommandError(f"A general named {name!r} exists already: {found}. Register that general with "
                                   "--general-id, or create another with --create-new.")
        with transaction.atomic():  # a refused registration leaves no general or registration behind
            for general in chosen:
                self._register(event, general, actor)
            for name in names:
                self._register(event, General.objects.create(name=" ".join(name.split())), actor)

    def _register(self, event, general, actor):
        registration = services.register(event, general, actor=actor)
        self.stdout.write(f"{registration.number}. {general.name}")
