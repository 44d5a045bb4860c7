"""Reading request bodies without surprises: a JSON body is refused with a 400 (the API's error body,
naming what is wrong) when it is not UTF-8 JSON, nests deeper than `MAX_JSON_DEPTH`, holds a number
Python will not convert (more than 4,300 digits) or a string that is not Unicode text (a lone
surrogate such as "\\ud800", which no database column can store). The body's size is bounded before
any parsing (opp.middleware.RequestSizeLimitMiddleware, settings.OPP_MAX_REQUEST_BYTES). `load_json` is
the reading itself, shared with the archive import (page and `event_import`)."""
import json
import re

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

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
        from tournaments.results.reporting import json_error_text

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


def read_json(raw: bytes):
    """The document of a JSON body, or a ParseError saying what is wrong with it."""
    try:
        return load_json(raw)
    except JSONRefused as error:
        raise ParseError(str(error)) from None


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the checks above."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        if encoding.lower().replace("-", "") != "utf8":
            raise ParseError("A JSON body must be UTF-8.")
        raw = stream.read() if stream is not None else b""
        return read_json(raw)
