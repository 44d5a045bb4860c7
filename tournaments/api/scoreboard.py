"""The scoreboard's hot path. Venue screens poll it every few seconds, so a poll of a published event
is answered by a plain Django view without DRF's request machinery and, most of the time, without
leaving the process:

- the head (event, revision) is kept in process memory for `SCOREBOARD_LOCAL_SECONDS` (1 s): another
  web process may show a change up to that long after it happened (this process forgets at once,
  see tournaments/api/signals.py); behind that, the shared cache and the database as before;
- a revision's document never changes, so it is kept in process memory too, as the JSON bytes
  ready to send (the last few);
- the throttle counts each client's polls in process memory, in fixed windows of the scoreboard
  rate's period, with DRF's client identity (with N web processes a client may make up to N times
  the rate).

Everything else (an unknown or unpublished event, other methods, token clients) goes to the DRF action, which gives
the same answers and is what the OpenAPI schema documents."""
import functools
import json
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse
from django.utils.http import http_date, parse_http_date_safe, quote_etag
from django.utils.translation import get_language
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from tournaments.standings import queries

_lock = threading.Lock()
_heads = {}  # slug -> (expires at, head)
_documents = OrderedDict()  # (event, revision, language) -> the document as JSON bytes
_DOCUMENTS_KEPT = 64
_polls = {}  # client -> (window start, count)


_generations = {}  # slug -> how often its head was forgotten in this process


def forget_local_head(slug):
    with _lock:
        _heads.pop(slug, None)
        _generations[slug] = _generations.get(slug, 0) + 1


def forget_everything_local():
    """Drop this process's heads, documents and poll counts (tests start from nothing)."""
    with _lock:
        _heads.clear()
        _generations.clear()
        _documents.clear()
        _polls.clear()
    _validators.cache_clear()


def _local_head(slug):
    now = time.monotonic()
    entry = _heads.get(slug)
    if entry and entry[0] > now:
        return entry[1]
    generation = _generations.get(slug, 0)  # before reading: a head forgotten meanwhile is not kept
    head = queries.scoreboard_head(slug)
    if head is not None:
        with _lock:
            if _generations.get(slug, 0) == generation:
                _heads[slug] = (now + getattr(settings, "SCOREBOARD_LOCAL_SECONDS", 1.0), head)
    return head


def _document(event, revision, language):
    # The document holds words in the reader's language (an event's state, a result), so one a language.
    key = (event, revision, language)
    document = _documents.get(key)
    if document is None:
        document = json.dumps(queries.cached_scoreboard(event, revision), cls=DjangoJSONEncoder).encode()
        with _lock:
            _documents[key] = document
            while len(_documents) > _DOCUMENTS_KEPT:
                _documents.popitem(last=False)
    return document


_client_identity = BaseThrottle()  # DRF's: REMOTE_ADDR, or X-Forwarded-For as NUM_PROXIES says


@functools.lru_cache(maxsize=8)
def _parsed_rate(rate):
    """(polls allowed, window in seconds) of a rate such as "1200/min", read as DRF reads it."""
    return SimpleRateThrottle.parse_rate(None, rate)


def _throttled(request):
    """Seconds to wait when the client exceeded the scoreboard's rate in this window, else None."""
    if request.user.is_authenticated:
        return None
    allowed, window_seconds = _parsed_rate(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["scoreboard"])
    client = _client_identity.get_ident(request)
    now = time.time()
    window = int(now // window_seconds)
    with _lock:
        start, count = _polls.get(client, (window, 0))
        if start != window:
            start, count = window, 0
            if len(_polls) > 100_000:  # a new window: forget the last one's clients
                _polls.clear()
        if count >= allowed:
            return window_seconds - int(now % window_seconds)
        _polls[client] = (start, count + 1)
    return None


@functools.lru_cache(maxsize=256)
def _validators(event, revision, at, language):
    """The ETag and the response headers of one revision in one language (formatted once, not per poll): a
    reader who switches language gets the document again, not a 304 for the other language's."""
    etag = quote_etag(f"{event}-{revision}-{language}")
    return etag, {"ETag": etag, "Last-Modified": http_date(at), "Cache-Control": "no-cache"}


def conditional_answer(meta, head):
    """(status, headers, the document as JSON bytes or None) for a poll of one revision of the event;
    `meta` is the request's META (read directly: building `request.headers` costs more than the answer)."""
    language = get_language()
    etag, headers = _validators(head["event"], head["revision"], head["at"], language)
    if_none_match = meta.get("HTTP_IF_NONE_MATCH")
    if if_none_match:
        if etag in [tag.strip() for tag in if_none_match.split(",")]:
            return 304, headers, None
    else:
        since = parse_http_date_safe(meta.get("HTTP_IF_MODIFIED_SINCE") or "")
        if since is not None and int(head["at"]) <= since:
            return 304, headers, None
    return 200, headers, _document(head["event"], head["revision"], language)


def fast_poll(fallback):
    """The scoreboard poll's view: answers an anonymous GET of a published event from the cached head;
    hands everything else to `fallback`, the API's own scoreboard action (tournaments.api.urls)."""

    def scoreboard(request, slug):
        # Token clients go through DRF, which authenticates them (a bad token is a 401, as everywhere).
        head = _local_head(slug) if request.method == "GET" and "HTTP_AUTHORIZATION" not in request.META else None
        if head is None or not head["published"]:
            return fallback(request, slug=slug)
        wait = _throttled(request)
        if wait is not None:
            # DRF's own sentence, in the request's language: the same as the throttled answer of the API
            return JsonResponse({"detail": str(Throttled(wait).detail), "code": "throttled"},
                                status=429, headers={"Retry-After": str(wait)})
        status, headers, document = conditional_answer(request.META, head)
        response = HttpResponse(status=304) if document is None else \
            HttpResponse(document, content_type="application/json")
        for name, value in headers.items():
            response[name] = value
        return response

    return scoreboard
