"""`check_list`: a list checked from the command line, as a player preparing one or a test uses it.

    python -m game_systems check_list --game warlord-ccg-4e LIST.json [--pool CSV] [--options OPTIONS.json]
    python manage.py check_list ...   (the same, inside the project)

Prints {"valid": bool, "violations": [{"code", "message"}, ...]} and exits 0 for a valid list, 1 for a
list with violations, 2 when the input cannot be checked at all (a missing or unreadable file, text
that is not JSON, a list of another game, a rejected pool or options), with one sentence on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import game_systems
from game_systems.base import PoolRejected, UnusableInput, Violation

MAX_INPUT_BYTES = 2_000_000  # a 50-card deck is a few kilobytes; a pool of every card ever printed under 1 MB
VALID, INVALID, UNUSABLE = 0, 1, 2


def _read_text(path: str, what: str) -> str:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_INPUT_BYTES:
            raise UnusableInput(f"The {what} {path} is larger than {MAX_INPUT_BYTES // 1_000_000} MB.")
        return file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UnusableInput(f"The {what} {path} does not exist.") from None
    except UnicodeDecodeError:
        raise UnusableInput(f"The {what} {path} is not UTF-8 text.") from None
    except OSError as error:
        raise UnusableInput(f"The {what} {path} cannot be read: {error.strerror}.") from None


def _not_json_number(name: str):
    raise UnusableInput(f"The list holds {name}, which JSON has no place for: write a whole number.")


def parse_json(text: str, what: str) -> Any:
    """The JSON of a list or options file, strictly: NaN and Infinity (which Python would read) and the
    NUL character (which no database keeps) are refused with a sentence."""
    if "\x00" in text or "\\u0000" in text:
        raise UnusableInput(f"The {what} holds a NUL character (\\u0000); remove it.")
    try:
        return json.loads(text, parse_constant=_not_json_number)
    except json.JSONDecodeError as error:
        raise UnusableInput(f"The {what} is not JSON: {error.msg} at line {error.lineno}, "
                            f"column {error.colno}.") from None
    except RecursionError:
        raise UnusableInput(f"The {what} is nested too deeply to be a list.") from None


def check_text(game: str, list_text: str, *, pool_text: str | None = None,
               options: Any = None) -> list[Violation]:
    """Every violation of a list given as JSON text, with the event's pool (CSV text) and options; raises
    UnusableInput (one sentence) when it cannot be checked at all."""
    try:
        system = game_systems.get(game)
    except game_systems.UnknownGame as error:
        raise UnusableInput(str(error)) from None
    checker = system.list_checker
    if checker is None:
        raise UnusableInput(f"{system.name} has no lists to check.")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise UnusableInput("The options must be a JSON object of option names and values.")
    parsed_options = checker.parse_options(options, has_pool=pool_text is not None)
    pool = None
    if pool_text is not None:
        try:
            pool = checker.parse_pool(pool_text, options=parsed_options)
        except PoolRejected as rejected:
            raise UnusableInput(f"The {checker.pool_label} cannot be used: "
                                + "; ".join(f"row {e.row}, {e.column}: {e.message}" for e in rejected.errors)
                                ) from None
    return checker.check(parse_json(list_text, "list"), pool=pool, options=parsed_options)


def report(violations: Sequence[Violation]) -> dict[str, Any]:
    return {"valid": not violations, "violations": [violation.as_dict() for violation in violations]}


def build_parser(prog: str = "check_list") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Check a deck or army list against its game's "
                                                            "construction rules.")
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="warlord-ccg-4e or reaper-warlord")
    parser.add_argument("list_file", metavar="LIST.json")
    parser.add_argument("--pool", metavar="CSV", help="the event's card pool or model list")
    parser.add_argument("--options", metavar="OPTIONS.json", help="the event's list options (spec section 2)")


def run(game: str, list_file: str, pool_file: str | None, options_file: str | None,
        out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        options = parse_json(_read_text(options_file, "options file"), "options file") if options_file else None
        pool_text = _read_text(pool_file, "pool file") if pool_file else None
        violations = check_text(game, _read_text(list_file, "list file"), pool_text=pool_text, options=options)
    except UnusableInput as error:
        print(str(error), file=err)
        return UNUSABLE
    print(json.dumps(report(violations), ensure_ascii=False, indent=2), file=out)
    return INVALID if violations else VALID


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["check_list"]:
        args = args[1:]
    parser = build_parser("python -m game_systems check_list")
    try:
        parsed = parser.parse_args(args)
    except SystemExit as exit_:  # argparse printed its sentence
        return UNUSABLE if exit_.code else VALID
    return run(parsed.game, parsed.list_file, parsed.pool, parsed.options)
