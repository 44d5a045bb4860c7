"""Refuses a request whose body is over the size limit before anything reads it: 413, with the API's
error body under /api/ and a short page elsewhere. Django's own DATA_UPLOAD_MAX_MEMORY_SIZE is set to
the same limit (settings.OPP_MAX_REQUEST_BYTES), for bodies sent without a Content-Length."""
from django.conf import settings
from django.http import HttpResponse, JsonResponse


def too_large_sentence(size=None):
    limit = settings.OPP_MAX_REQUEST_BYTES
    size_text = f"{size:,} bytes" if size is not None else "too large"
    return (f"The request is {size_text}; the limit is {limit:,} bytes ({limit // (1024 * 1024)} MiB), "
            f"and a replay at most 1 MiB.")


def too_large_response(request, size=None):
    sentence = too_large_sentence(size)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": sentence, "code": "too_large"}, status=413)
    return HttpResponse(f"<!doctype html><title>Too large</title><h1>Too large</h1><p>{sentence}</p>",
                        status=413)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0  # Django reads such a body as empty
        if size > settings.OPP_MAX_REQUEST_BYTES:
            return too_large_response(request, size)
        return self.get_response(request)


class LostRaceMiddleware:
    """A request that lost a race the database noticed (a unique constraint, a deadlock, a lock not
    available: tournaments.locks.lost_race) is answered 409 with a sentence, on the pages as in the
    API, never with a server error."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from tournaments.locks import LOST_RACE, lost_race

        if not lost_race(exception):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": LOST_RACE, "code": "conflict"}, status=409)
        return HttpResponse(f"<!doctype html><title>Changed meanwhile</title><h1>Changed meanwhile</h1>"
                            f"<p>{LOST_RACE}</p><p><a href=\"\">Reload</a></p>", status=409)
