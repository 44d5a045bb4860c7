"""One error body for every refusal of the API:

    {"detail": "<a sentence>", "code": "<snake_case>", "fields": {"<field>": ["<sentence>", ...]}}

`fields` is present when the problem is tied to input fields. A refused organized-play step is
400 (`invalid`), 403 (`permission_denied`) when the user may not take it, or 409 (`conflict`)
when the event's state forbids it or another request changed it at the same moment (a lost race).
"""
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DataError
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from opp.middleware import too_large_sentence
from tournaments.domain import Conflict, DomainError, NotAllowed
from tournaments.locks import LOST_RACE, lost_race


def _flatten(detail, prefix=""):
    """DRF's nested error detail as {"field.sub": [sentences]}."""
    fields = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int) or str(key).isdigit():  # an item of a list field
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            fields.update(_flatten(value, name))
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            fields[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for index, item in enumerate(detail):
                fields.update(_flatten(item, f"{prefix}[{index}]"))
    else:
        fields[prefix or "non_field_errors"] = [str(detail)]
    return fields


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        if isinstance(exc, NotAllowed):
            code, http_status = "permission_denied", status.HTTP_403_FORBIDDEN
        elif isinstance(exc, Conflict):
            code, http_status = "conflict", status.HTTP_409_CONFLICT
        else:
            code, http_status = "invalid", status.HTTP_400_BAD_REQUEST
        body = {"detail": str(exc), "code": code}
        if exc.field:
            body["fields"] = {exc.field: [str(exc)]}
        body.update(exc.extra or {})
        return Response(body, status=http_status)
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": too_large_sentence(), "code": "too_large"},
                        status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):  # e.g. too many fields or files in a form body
        return Response({"detail": _("The request cannot be read: %(problem)s") % {"problem": exc},
                         "code": "bad_request"},
                        status=status.HTTP_400_BAD_REQUEST)
    if lost_race(exc):
        # Another request won (a unique constraint backing an "at most one" rule, a deadlock): the
        # loser is told, never a 500 (tournaments/locks.py).
        return Response({"detail": LOST_RACE, "code": "conflict"}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, OverflowError | DataError):
        # An id or number beyond what the database stores (e.g. 2**70): bad input, not a server fault.
        return Response({"detail": _("A number in the request is out of range."), "code": "invalid"},
                        status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        fields = _flatten(exc.detail)
        first_field, first_messages = next(iter(fields.items()))
        where = "" if first_field == "non_field_errors" else f"{first_field}: "
        response.data = {"detail": f"{where}{first_messages[0]}", "code": "invalid", "fields": fields}
    else:
        code = getattr(exc, "default_code", "error")
        detail = response.data.get("detail", str(exc)) if isinstance(response.data, dict) else str(exc)
        response.data = {"detail": str(detail), "code": str(getattr(detail, "code", code))}
    return response
