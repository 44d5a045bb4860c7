"""Reading JSON text without surprises, for the API's bodies (tournaments.api.parsers), a report's replay
and the archive import: UTF-8 only, a bounded nesting depth, no number Python will not convert (more
than 4,300 digits), no string that is not Unicode text (a lone surrogate such as "\\ud800", which no
database column can store). Each refusal is a sentence naming what is wrong and where."""
import json
import re

MAX_JSON_DEPTH = 64  # a replay may nest 32 deep (the engine's limit) inside a body's few levels
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _depth_and_lone_surrogate(document, look_for_surrogates):
    """(deepest nesting, the first string holding a lone surrogate or None), without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                return deepest, None
            for key, item in value.items():
                if look_for_surrogates and _SURROGATE.search(key):
                    return deepest, key
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                return deepest, None
            stack.extend((item, depth + 1) for item in value)
        elif look_for_surrogates and isinstance(value, str) and _SURROGATE.search(value):
            return deepest, value
    return deepest, None


class JSONRefused(ValueError):
    """JSON text refused by `load_json`, with the sentence saying why."""


def load_json(raw: bytes, what="The body"):
    """The document of JSON text with the API's limits (see the module's docstring), or `JSONRefused`
    with a sentence starting with `what`. One reading for the API's bodies and the archive import."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JSONRefused(f"{what} is not UTF-8 text (byte {error.start} cannot be read).") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise JSONRefused(f"{what} is not valid JSON: {json_error_text(error)}.") from None
    except RecursionError:
        raise JSONRefused(f"{what} nests lists and objects deeper than {MAX_JSON_DEPTH} levels.") from None
    except ValueError:  # int() refuses numbers of more than sys.get_int_max_str_digits() digits
        raise JSONRefused(f"{what} holds a number with more than 4,300 digits.") from None
    depth, bad_string = _depth_and_lone_surrogate(document, bool(_SURROGATE_ESCAPE.search(raw)))
    if depth > MAX_JSON_DEPTH:
        raise JSONRefused(f"{what} nests lists and objects deeper than {MAX_JSON_DEPTH} levels.")
    if bad_string is not None:
        raise JSONRefused(f"{what} holds a string that is not Unicode text (a lone surrogate escape such as "
                          "\\ud800).")
    return document


def json_error_text(error):
    """A JSONDecodeError in words: "Unterminated string starting at line 1, column 2", never "at at"
    (some of Python's messages end with "at", followed by where)."""
    message = error.msg.removesuffix(" at").removesuffix(":")
    return f"{message} at line {error.lineno}, column {error.colno}"
