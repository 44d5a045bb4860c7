from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from opp.health import overall, run_checks


@never_cache
def healthz(request):
    checks = run_checks()
    status = overall(checks)
    body = {"status": status, "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks}}
    return JsonResponse(body, status=503 if status == "down" else 200)


def _wants_json(request):
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """API clients get the API's error body for addresses that match no route; people get a page."""
    if _wants_json(request):
        return JsonResponse({"detail": "Nothing is at this address.", "code": "not_found"}, status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def bad_request(request, exception=None):
    """Django's own refusals (a body over DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields, a bad host) in
    the API's error body under /api/."""
    from django.core.exceptions import RequestDataTooBig

    if _wants_json(request):
        if isinstance(exception, RequestDataTooBig):
            from opp.middleware import too_large_response

            return too_large_response(request)
        return JsonResponse({"detail": f"The request cannot be read: {exception}", "code": "bad_request"},
                            status=400)
    from django.views.defaults import bad_request as default_bad_request

    return default_bad_request(request, exception)


def server_error(request):
    if _wants_json(request):
        return JsonResponse({"detail": "The server failed; the error is logged.", "code": "server_error"},
                            status=500)
    from django.views.defaults import server_error as default_server_error

    return default_server_error(request)
