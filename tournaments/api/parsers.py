"""Reading request bodies without surprises: a JSON body that `tournaments.json_input.load_json` refuses
(not UTF-8 JSON, too deep, a number of more than 4,300 digits, a lone surrogate) is answered 400 with
the API's error body naming what is wrong. The body's size is bounded before any parsing
(opp.middleware.RequestSizeLimitMiddleware, settings.OPP_MAX_REQUEST_BYTES)."""
from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from tournaments.json_input import JSONRefused, load_json


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
            raise ParseError(_("A JSON body must be UTF-8."))
        raw = stream.read() if stream is not None else b""
        return read_json(raw)
