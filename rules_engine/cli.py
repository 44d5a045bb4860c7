"""Command line: adjudicate replay files, or show the battlefield after a turn.

Exit status of `adjudicate`: 0 every replay valid, 1 some replay invalid, 2 some input unreadable
(missing file, not JSON, not UTF-8). `show` exits 0, 1 when the replay is invalid before the
asked turn, 2 when unreadable.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import ENGINE_VERSION
from .board import FACINGS
from .errors import ReplayError, printable
from .generator import generate_game
from .model import PLAYERS, VARIANTS
from .replay import MAX_DOCUMENT_BYTES, MAX_TURNS, load_replay
from .state import BattleState
from .verdict import Verdict, adjudicate, replay_states

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
UNREADABLE_CODES = {"not_json", "not_utf8"}
_ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def _read_file(path: str) -> tuple[bytes | None, str | None]:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        return None, f"{path}: cannot read the file ({error.strerror or error})."
    return data, None


def describe(verdict: Verdict) -> str:
    """A one-paragraph summary of a verdict for people."""
    if not verdict.valid:
        error = verdict.error
        where = []
        if error.location.turn is not None:
            where.append("the formation" if error.location.turn == 0 else f"turn {error.location.turn}")
        elif error.code not in ("internal_error",):
            where.append("the result")
        if error.location.order is not None:
            where.append(f"order {error.location.order}")
        if error.location.action is not None:
            where.append(f"action {error.location.action}")
        return printable(f"INVALID at {', '.join(where) or 'the document'} [{error.code}]: {error.message}")
    lines = []
    if verdict.outcome == "victory":
        lines.append(f"{verdict.winner} wins by {str(verdict.condition).replace('_', ' ')} after {verdict.turns} turns.")
    else:
        lines.append(f"Outcome: {verdict.outcome} after {verdict.turns} turns.")
    if verdict.claim:
        claim = verdict.claim
        state = "accepted" if claim["accepted"] else f"rejected: {claim['reason']}"
        lines.append(f"Claim by {claim['by']} of {claim['condition']}: {state}")
    if verdict.declaration:
        lines.append(f"Declared {verdict.declaration['type']} rejected: {verdict.declaration['reason']}")
    if verdict.divisive:
        arms, count = verdict.divisive["total_arms"], verdict.divisive["battalions"]
        lines.append(f"Divisive Conclusion: Total Arms p1 {arms['p1']} / p2 {arms['p2']}, "
                     f"battalions p1 {count['p1']} / p2 {count['p2']}.")
    lines.append(f"OPP: p1 {verdict.opp['p1']}, p2 {verdict.opp['p2']}.")
    for entry in verdict.missed:
        lines.append(f"Missed: after turn {entry['after_turn']} {entry['by']} could have declared {entry['condition']}.")
    return "\n  ".join(printable(line) for line in lines)


def render(state: BattleState) -> str:
    """The battlefield as a text grid, row `height` at the top (Player-2's side)."""
    board = state.board
    cells = {}
    width = 6
    for zone in range(board.size):
        stack = state.stacks[zone]
        if stack:
            top = stack[-1]
            text = f"{state.ids[top]}{_ARROWS[FACINGS[state.facing[top]]]}"
            if len(stack) > 1:
                text += f"+{len(stack) - 1}"
        elif state.ramparts[zone] is not None:
            text = f"#{PLAYERS[state.ramparts[zone][0]]}#"
        else:
            text = "."
        cells[zone] = text
        width = max(width, len(text) + 1)
    lines = ["    " + "".join(chr(97 + column).center(width) for column in range(board.width))]
    for row in range(board.height, 0, -1):
        line = "".join(cells[zone].center(width) for zone in board.zones_in_row(row))
        lines.append(f"{row:>3} {line}")
    lines.append("")
    for number, player in enumerate(PLAYERS):
        held = ", ".join(f"{state.ids[b]}({state.arms[b]})" for b in state.prisons[number]) or "-"
        dead = ", ".join(state.ids[b] for b in state.graveyards[number]) or "-"
        lines.append(f"{player}: prison {held}; graveyard {dead}; ramparts left {state.ramparts_left[number]}")
    for zone in range(board.size):
        if len(state.stacks[zone]) > 1:
            listed = " < ".join(f"{state.ids[b]}({state.arms[b]})" for b in reversed(state.stacks[zone]))
            lines.append(f"stack {board.names[zone]} (top first): {listed}")
    tokens = []
    if state.vigor >= 0:
        tokens.append(f"Vigor on {state.ids[state.vigor]}")
    if state.stun >= 0:
        tokens.append(f"Stun on {state.ids[state.stun]}")
    tokens.extend(f"Sacrifice on {state.ids[b]}" for b in state.sacrifice if b >= 0)
    lines.append("tokens: " + (", ".join(tokens) or "-"))
    arms = ", ".join(f"{state.ids[b]} {state.arms[b]}" for b in range(len(state.ids)) if state.zone[b] >= 0)
    lines.append(f"Arms on the battlefield: {arms}")
    return "\n".join(lines)


def _adjudicate_command(args: argparse.Namespace) -> int:
    status = EXIT_VALID
    reports = []
    for path in args.files:
        data, problem = _read_file(path)
        if data is None:
            status = EXIT_UNREADABLE
            reports.append((path, None, problem))
            continue
        verdict = adjudicate(data)
        if not verdict.valid:
            unreadable = verdict.error.code in UNREADABLE_CODES
            status = max(status, EXIT_UNREADABLE if unreadable else EXIT_INVALID)
        reports.append((path, verdict, None))
    if args.text:
        for path, verdict, problem in reports:
            print(printable(f"{path}: {problem}") if verdict is None else f"{printable(path)}: {describe(verdict)}")
    else:
        def as_json(verdict, problem):
            if verdict is None:
                return {"valid": False, "error": {"turn": None, "order": None, "action": None,
                                                  "code": "unreadable_file", "message": printable(problem)}}
            return verdict.to_dict()

        if len(reports) == 1:
            path, verdict, problem = reports[0]
            print(json.dumps(as_json(verdict, problem), indent=2))
        else:
            print(json.dumps([{"file": path, "verdict": as_json(verdict, problem)}
                              for path, verdict, problem in reports], indent=2))
    for _path, verdict, problem in reports:
        if verdict is None:
            print(printable(problem), file=sys.stderr)
    return status


def _show_command(args: argparse.Namespace) -> int:
    data, problem = _read_file(args.file)
    if data is None:
        print(problem, file=sys.stderr)
        return EXIT_UNREADABLE
    last = None
    try:
        for snapshot in replay_states(data):
            last = snapshot
            if snapshot.turn == args.turn:
                break
    except ReplayError as error:
        print(f"{args.file}: {describe(Verdict(valid=False, error=error))}", file=sys.stderr)
        return EXIT_UNREADABLE if error.code in UNREADABLE_CODES else EXIT_INVALID
    if last is None or last.turn != args.turn:
        played = 0 if last is None else last.turn
        print(f"{args.file}: the replay has {played} turns; there is no turn {args.turn}.", file=sys.stderr)
        return EXIT_INVALID
    heading = "after the formation" if args.turn == 0 else f"after turn {args.turn}"
    state = last.state
    next_up = "the battle is over" if state.is_over else f"{PLAYERS[state.to_move]} moves next"
    print(f"{Path(args.file).name}, {heading} ({next_up}):")
    print(render(state))
    return EXIT_VALID


def _board_size(text: str) -> tuple[int, int]:
    width, separator, height = text.lower().partition("x")
    if not separator or not width.isdigit() or not height.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a board size such as 7x7")
    return int(width), int(height)


def _turn_count(text: str) -> int:
    if not text.isdigit() or int(text) > MAX_TURNS:
        raise argparse.ArgumentTypeError(f"{text!r}: the number of turns is 0 to {MAX_TURNS}")
    return int(text)


def _variant_list(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"{', '.join(unknown)}: not an Organized Play variant "
                                         f"({', '.join(VARIANTS)})")
    return names


def _generate_command(args: argparse.Namespace) -> int:
    """Write a random legal replay; the generals are given by name or by their platform ids."""
    given = (args.p1, args.p2)
    ids = tuple(int(value) for value in given if value is not None and value.isdigit())
    if ids and len(ids) != 2:
        print("generate: give both generals by id (digits) or neither.", file=sys.stderr)
        return EXIT_UNREADABLE
    names = tuple(f"General {value}" if value.isdigit() else value for value in (
        given[0] or "Player One", given[1] or "Player Two"))
    width, height = args.board
    try:
        game = generate_game(args.seed, width=width, height=height, max_turns=args.turns, variants=args.variants,
                             names=names, general_ids=ids or None)
        load_replay(game)  # the names and the board must make a readable replay too
    except (ValueError, ReplayError) as error:
        print(f"generate: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    text = json.dumps(game, indent=1, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_VALID
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"generate: cannot write {args.output} ({error.strerror or error}).", file=sys.stderr)
        return EXIT_UNREADABLE
    print(f"wrote {args.output}: {len(game['turns'])} turns, result {game.get('result', {}).get('type', 'none')}",
          file=sys.stderr)
    return EXIT_VALID


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules_engine",
        description="WARLINE rules engine: check battle replay logs and decide them.",
        epilog="Exit status of adjudicate: 0 all valid, 1 some invalid, 2 some unreadable (missing file, not JSON).",
    )
    parser.add_argument("--version", action="version", version=f"rules_engine {ENGINE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    judge = commands.add_parser("adjudicate", help="print the verdict of each replay file",
                                description="Print the verdict of each replay (JSON: one verdict for one file, "
                                            "a list of {file, verdict} for several).")
    judge.add_argument("files", nargs="+", metavar="FILE", help="replay JSON file(s)")
    judge.add_argument("--text", action="store_true", help="a readable summary instead of JSON")
    judge.set_defaults(run=_adjudicate_command)
    show = commands.add_parser("show", help="print the battlefield after a turn as a text grid")
    show.add_argument("file", metavar="FILE", help="replay JSON file")
    show.add_argument("--turn", type=int, default=0, metavar="N", help="turn number (0: after the formation)")
    show.set_defaults(run=_show_command)
    make = commands.add_parser("generate", help="write a random legal replay (for trying the platform out)",
                               description="Write a random legal replay of a seeded game: the same options give "
                                           "the same replay.")
    make.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    make.add_argument("--board", type=_board_size, default=(7, 7), metavar="WxH",
                      help="battlefield width x height, each 1..26, height 3 or more (default 7x7)")
    make.add_argument("--turns", type=_turn_count, default=80, metavar="N", help="at most N turns (default 80)")
    make.add_argument("--variants", type=_variant_list, default=(), metavar="LIST",
                      help=f"comma-separated variants: {', '.join(VARIANTS)} (default none)")
    make.add_argument("--p1", metavar="NAME_OR_ID", help="Player-1: a name, or the platform's general id (digits)")
    make.add_argument("--p2", metavar="NAME_OR_ID", help="Player-2: a name, or the platform's general id (digits)")
    make.add_argument("--output", "-o", metavar="FILE", help="write the replay here instead of printing it")
    make.set_defaults(run=_generate_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Whatever a replay quotes, printing it never fails (a lone surrogate is written as an escape).
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader went away (`show ... | head`): what it wanted was printed, nothing failed.
        # Python would complain again when it flushes stdout at exit, so point stdout at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # noqa: BLE001 - a command line prints a sentence, never a traceback
        print(f"The rules engine failed ({type(error).__name__}); please report the input.", file=sys.stderr)
        return EXIT_UNREADABLE
