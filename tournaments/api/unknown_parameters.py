"""Query parameters an operation does not take are refused: 400 naming them and listing those it takes.

The list of what each operation takes is the OpenAPI schema itself (its query parameters), so the check
and the documentation cannot disagree: a view takes a query parameter by documenting it (filters,
`ordering`, `search` and paging are documented by their backends, query.py; anything else with
extend_schema `parameters`). Besides them, every operation takes `format` (DRF's choice between JSON and
the browsable pages, `?format=json`), left out of the schema.

It is a middleware, so that it also covers the scoreboard's fast path (scoreboard.py answers its polls
without DRF) and views that read `request.GET` themselves. Only paths and methods the schema documents
are checked; a request without a query string costs nothing. The schema is made once per process, on the
first request with a query string (about half a second)."""
import re
import threading

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from rest_framework.settings import api_settings

ALWAYS_TAKEN = frozenset({api_settings.URL_FORMAT_OVERRIDE} - {None})
_lock = threading.Lock()
_operations = None  # [(path regex, path template, number of path parameters, {method: frozenset(names)})]


def _path_regex(template):
    parts = re.split(r"(\{[^}/]+\})", template)
    return re.compile("^" + "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts) + "$")


def documented_operations(schema):
    """Each path of `schema` with the query parameters of each of its methods."""
    operations = []
    for template, item in schema.get("paths", {}).items():
        methods = {method.upper(): frozenset(parameter["name"] for parameter in operation.get("parameters", [])
                                             if parameter.get("in") == "query")
                   for method, operation in item.items() if isinstance(operation, dict)}
        operations.append((_path_regex(template), template, template.count("{"), methods))
    # A literal segment wins over a parameter (`generals/claim/` before `generals/{id}/`), as in the URLs.
    return sorted(operations, key=lambda operation: operation[2])


def _known_operations():
    global _operations
    if _operations is None:
        with _lock:
            if _operations is None:
                from drf_spectacular.generators import SchemaGenerator

                _operations = documented_operations(SchemaGenerator().get_schema(request=None, public=True))
    return _operations


def operation_of(path, method):
    """(path template, query parameters taken) of the documented operation answering `method` `path`, or
    None when the schema does not document it."""
    method = "GET" if method == "HEAD" else method
    for regex, template, _count, methods in _known_operations():
        if method in methods and regex.match(path):
            return template, methods[method]
    return None


def refusal(path, method, names):
    """The 400 for the query parameters `names` when `method` `path` does not take some of them, else None."""
    operation = operation_of(path, method)
    if operation is None:
        return None
    template, taken = operation
    unknown = [name for name in dict.fromkeys(names) if name and name not in taken | ALWAYS_TAKEN]
    if not unknown:
        return None
    # In the language of the request: LocaleMiddleware, earlier in MIDDLEWARE, has already chosen it.
    takes = (", ".join(f"`{name}`" for name in sorted(taken)) if taken
             else pgettext("an operation takes no query parameters", "none"))
    listed = ", ".join(f"`{name}`" for name in unknown)
    where = {"names": listed, "method": method, "path": template, "takes": takes}
    sentence = ngettext("Unknown query parameter %(names)s: %(method)s %(path)s takes %(takes)s.",
                        "Unknown query parameters %(names)s: %(method)s %(path)s takes %(takes)s.",
                        len(unknown)) % where
    field_sentence = _("Not a query parameter of %(method)s %(path)s (it takes %(takes)s).") % where
    return {"detail": sentence, "code": "invalid", "fields": {name: [field_sentence] for name in unknown}}


class UnknownQueryParametersMiddleware:
    """Refuses an API request whose query string names a parameter its operation does not take."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.META.get("QUERY_STRING") and request.path_info.startswith("/api/"):
            body = refusal(request.path_info, request.method, list(request.GET.keys()))
            if body is not None:
                return JsonResponse(body, status=400)
        return self.get_response(request)
