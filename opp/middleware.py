"""Refuses a request whose body is over the size limit before anything reads it: 413, with the API's
error body under /api/ and a short page elsewhere. Django's own DATA_UPLOAD_MAX_MEMORY_SIZE is set to
the same limit (settings.OPP_MAX_REQUEST_BYTES), for bodies sent without a Content-Length."""
from csp.constants import HEADER
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
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


class SiteWideCSPMiddleware(CSPMiddleware):
    """django-csp's middleware with the site-wide policy written once per process. django-csp builds
    the header anew for every response (two policies, each copied and joined), which cost about a
    fifth of a scoreboard poll's time (docs/performance.md, section 3). A response or request that
    asks for its own policy (the API docs' `csp_update`, a nonce, a report-only policy) goes the
    library's way."""

    def process_response(self, request, response):
        if (getattr(request, "_csp_nonce", None) is None and getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None) is None
                and not any(hasattr(response, name) for name in _OWN_POLICY_ATTRIBUTES)):
            header = _site_wide_policy()
            if header and HEADER not in response and not getattr(response, "_csp_exempt", False) and not (
                    response.status_code in (500, 404) and settings.DEBUG):
                response[HEADER] = header
                request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
                return response
        return super().process_response(request, response)


_OWN_POLICY_ATTRIBUTES = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
                          "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro")
_policy_cache = {}


def _site_wide_policy():
    if "header" not in _policy_cache:
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
        excluded = policy.get("EXCLUDE_URL_PREFIXES")
        _policy_cache["header"] = None if excluded else build_policy()
    return _policy_cache["header"]


@receiver(setting_changed)
def _forget_site_wide_policy(setting, **kwargs):
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policy_cache.clear()
