"""A replay as a report receives it: one bounded reading of the upload (a file, a JSON body's object or
text), checked only for its envelope (the size limit, UTF-8, one JSON object Python can read). The
engine judges the content (tournaments/results/adjudication.py)."""
from __future__ import annotations

import json

from django.utils.translation import gettext as _

from tournaments.domain import DomainError
from tournaments.json_input import json_error_text

MAX_REPLAY_BYTES = 1024 * 1024


# --- replay uploads -------------------------------------------------------------------------------

def refuse_oversized_replay(size):
    """The one limit on a replay's size, checked before reading an upload and again on its text."""
    if size > MAX_REPLAY_BYTES:
        raise DomainError(_("The replay is %(size)s bytes; the limit is %(limit)s (1 MiB).")
                          % {"size": f"{size:,}", "limit": f"{MAX_REPLAY_BYTES:,}"},
                          field="replay")


def read_replay_upload(raw) -> str:
    """The replay text to store, or a refusal saying what is wrong with the upload. Only the
    envelope is checked here (size, UTF-8, one JSON object that Python can read); the engine
    judges the content."""
    if raw is None or raw == "":
        return ""
    if isinstance(raw, dict):
        try:
            text = json.dumps(raw, ensure_ascii=False)
        except (ValueError, RecursionError):  # nested beyond what can be written back, or a circular one
            raise DomainError(_("The replay is nested too deeply to read."), field="replay") from None
    elif isinstance(raw, bytes | bytearray):
        refuse_oversized_replay(len(raw))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DomainError(_("The replay is not UTF-8 text (byte %(start)s cannot be read).")
                              % {"start": error.start},
                              field="replay") from None
    elif isinstance(raw, str):
        text = raw
    else:
        raise DomainError(_("The replay must be a JSON object or the text of one."), field="replay")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise DomainError(_("The replay holds a string that is not Unicode text (a lone surrogate such as "
                            "\\ud800)."), field="replay") from None
    refuse_oversized_replay(size)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise DomainError(_("The replay is not valid JSON: %(json_error_text)s.")
                          % {"json_error_text": json_error_text(error)}, field="replay") from None
    except RecursionError:
        raise DomainError(_("The replay is nested too deeply to read."), field="replay") from None
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise DomainError(_("The replay holds a number with more than 4,300 digits%(where_long_number)s.")
                          % {"where_long_number": _where_long_number(text)},
                          field="replay") from None
    if not isinstance(document, dict):
        raise DomainError(_("The replay must be one JSON object (a WARLINE replay log)."), field="replay")
    return text


def _where_long_number(text):
    from rules_engine.replay import where_long_number  # one place finds it: the engine's reader

    where = where_long_number(text)
    return "" if where is None else f" at line {where[0]}, column {where[1]}"


# --- reporting ------------------------------------------------------------------------------------
