"""python manage.py check_list --game warlord-ccg-4e|reaper-warlord LIST.json [--pool CSV] [--options OPTIONS.json]

The checker of `game_systems.cli`: exit 0 valid, 1 violations, 2 unusable input (a sentence on stderr).
"""
import sys

from django.core.management.base import BaseCommand, CommandParser

from game_systems import cli


class Command(BaseCommand):
    help = "Check a deck or army list against its game's construction rules; prints the violations as JSON."

    def add_arguments(self, parser: CommandParser):
        cli.add_arguments(parser)

    def handle(self, *args, **options):
        status = cli.run(options["game"], options["list_file"], options["pool"], options["options"],
                         out=sys.stdout, err=sys.stderr)
        sys.exit(status)
