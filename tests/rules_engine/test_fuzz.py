"""Hostile replays: mutations of valid logs (the shared examples and generated games) go through
`load_replay`, `replay_states`, `adjudicate` and the command line, and only replays, verdicts and
located `ReplayError`s come out: never another exception, an `internal_error` or a traceback."""
from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine import (
    ERROR_CODES,
    Replay,
    ReplayError,
    adjudicate,
    cli,
    generate_game,
    load_replay,
    replay_states,
)

CORPUS = Path(__file__).parent / "corpus"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in CORPUS.glob("example-*.json") if not p.name.endswith(".verdict.json"))
BASES = [json.loads(p.read_text()) for p in EXAMPLES] + [
    generate_game(seed, width=5, height=5, max_turns=25, variants=variants)
    for seed, variants in ((1, ()), (2, ("battle_arts", "terrain")), (3, ("double_time", "army_recruiting")))]

HUGE = "<a 5,000-digit integer>"  # drawn as a marker: hypothesis cannot show such an integer itself
HOSTILE_VALUES = st.one_of(
    st.integers(-(2 ** 70), 2 ** 70), st.sampled_from([HUGE, 2 ** 63, -1, 0, 7, 27]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.text(max_size=12), st.sampled_from(["\ud800", "a\udfffb", "\ufeff", "off", "N", "a1", "z99", "A1", "B6"]),
    st.recursive(st.none() | st.integers(-3, 9) | st.text(max_size=3),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                 max_leaves=8),
)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _paths(value, here=()):
    """Every place in a document: (path, value)."""
    yield here, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*here, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*here, index))


def _nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutated_documents(draw):
    doc = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        places = [path for path, _ in _paths(doc) if path]
        path = draw(st.sampled_from(places))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        how = draw(st.sampled_from(["replace", "delete", "add_key", "deep", "rename_key"]))
        last = path[-1]
        if how == "replace":
            parent[last] = _real(draw(HOSTILE_VALUES))
        elif how == "delete":
            del parent[last]
        elif how == "deep":
            parent[last] = _nested(draw(st.integers(20, 40)))
        elif isinstance(parent, dict):
            key = draw(st.sampled_from(["\ud800", "x", "torment", "snowblind", "enemy_facings", "variants"]))
            if how == "rename_key":
                parent[key] = parent.pop(last)
            else:
                parent[key] = _real(draw(HOSTILE_VALUES))
    return doc


def _real(value):
    return 10 ** 5000 if value == HUGE else value


def _marked(value):
    if isinstance(value, dict):
        return {key: _marked(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_marked(child) for child in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 4000:
        return HUGE
    return value


def _encode(doc) -> bytes:
    text = json.dumps(_marked(doc), allow_nan=True).replace(json.dumps(HUGE), "9" * 5000)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_bytes(draw):
    data = bytearray(_encode(draw(mutated_documents())))
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["flip", "cut", "insert", "bom"]))
        where = draw(st.integers(0, max(len(data) - 1, 0)))
        if how == "flip" and data:
            data[where] = draw(st.integers(0, 255))
        elif how == "cut":
            del data[where:]
        elif how == "insert":
            data[where:where] = draw(st.sampled_from([b"\xff", b"\xc3", b"\\ud800", b"1" * 4400, b"[" * 50, b"NaN"]))
        else:
            data[:0] = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]))
    return bytes(data)


def _assert_located(error: ReplayError) -> None:
    assert error.code in ERROR_CODES and error.code != "internal_error", error
    assert error.message.endswith(".") and error.message.encode("utf-8"), error
    located = error.to_dict()
    assert all(located[key] is None or (isinstance(located[key], int) and located[key] >= 0)
               for key in ("turn", "order", "action")), located


def _check_source(source) -> None:
    try:
        replay = load_replay(source)
    except ReplayError as error:
        _assert_located(error)
    else:
        assert isinstance(replay, Replay)
    verdict = adjudicate(source)
    if not verdict.valid:
        _assert_located(verdict.error)
    json.dumps(verdict.to_dict()).encode("utf-8")  # always writable as UTF-8 JSON
    try:
        for _snapshot in replay_states(source):
            pass
    except ReplayError as error:
        _assert_located(error)


@SETTINGS
@given(doc=mutated_documents())
def test_mutated_documents_give_verdicts_or_located_errors(doc):
    _check_source(doc)


@SETTINGS
@given(data=mutated_bytes())
def test_mutated_bytes_give_verdicts_or_located_errors(data):
    _check_source(data)
    try:
        text = data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return
    _check_source(text)


CLI_FAILED = "The rules engine failed"  # the command line's catch-all for an engine fault (exit 2)


def _commands(path):
    return (["adjudicate", str(path)], ["adjudicate", "--text", str(path)], ["show", str(path), "--turn", "3"])


def _assert_no_engine_fault(command, status, output: str) -> None:
    """A verdict, an invalid replay or an unreadable file, in sentences: exit 2 is fine for a file
    that cannot be read, but never by way of the catch-all, an internal_error or a traceback."""
    assert status in (0, 1, 2), command
    assert CLI_FAILED not in output, (command, output[-2000:])
    assert "Traceback" not in output, (command, output[-2000:])
    assert "internal_error" not in output, (command, output[-2000:])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=mutated_bytes())
def test_the_command_line_never_prints_a_traceback(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "replay.json"
    path.write_bytes(data)
    for command in _commands(path):
        done = subprocess.run([sys.executable, "-m", "rules_engine", *command], cwd=ROOT, capture_output=True,
                              timeout=120)
        _assert_no_engine_fault(command, done.returncode,
                                (done.stdout + done.stderr).decode("utf-8", "backslashreplace"))
        if command[1] != "--text" and command[0] == "adjudicate":
            json.loads(done.stdout)  # the verdict, or the unreadable file's, is JSON


def _run_in_process(command) -> tuple[int, str]:
    """`python -m rules_engine COMMAND` in this process, its output on strict UTF-8 streams as a
    terminal's would be, so that many more inputs can be tried than with a process each."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(command)
    out.flush()
    err.flush()
    return status, (out.buffer.getvalue() + err.buffer.getvalue()).decode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=mutated_bytes())
def test_the_command_line_never_falls_back_on_its_catch_all(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "replay.json"
    path.write_bytes(data)
    for command in _commands(path):
        _assert_no_engine_fault(command, *_run_in_process(command))


def test_the_fuzz_of_the_command_line_fails_on_an_engine_fault(tmp_path, monkeypatch):
    """The catch-all answers exit 2, as an unreadable file does: the fuzz must tell the two apart."""
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(BASES[0]))
    monkeypatch.setattr(cli, "adjudicate", lambda *args, **kwargs: 1 / 0)
    status, output = _run_in_process(["adjudicate", str(path)])
    assert status == 2 and CLI_FAILED in output
    try:
        _assert_no_engine_fault(["adjudicate"], status, output)
    except AssertionError:
        return
    raise AssertionError("an engine fault passed the fuzz's check")


def test_the_documents_mutated_are_the_examples_and_valid_generated_games():
    assert len(EXAMPLES) >= 10
    assert all(adjudicate(doc).valid for doc in BASES[len(EXAMPLES):])
