"""`Idempotency-Key`: a POST sent twice (a double-click, a client retrying after a timeout) does its
step once.

A client sends any unique string (a UUID) of at most 255 characters in the `Idempotency-Key` header of
a POST. The first request with that key (for the same user and endpoint) is answered as usual and its
answer (status and body) is kept for a day (`KEPT`); every later request with the key gets that answer
again, with `Idempotent-Replayed: true`, without doing anything. A repeat that arrives while the first
is still being answered waits for its answer (up to `WAIT_SECONDS`, then 409). The same key with other
data is refused (409): a key names one request. An answer that is a server error is not kept, so the
client may try again with the same key. Requests without the header work as before.

The key is claimed with a row (`IdempotentRequest`, unique per user, key and endpoint) committed before
the step runs, so two requests sent at the same instant cannot both claim it. The request that answers
the key then holds that row locked in one transaction with its step and the answer it keeps: the lock says
"being answered" for exactly as long as the request lives. A web process killed mid-request (or a server
error) rolls the step back with the lock, and the client's repeat with the same key finds the row unlocked
and unanswered, and answers it: never stuck on a dead request, never a step done twice.
"""
from __future__ import annotations

import hashlib
import json
import logging
import random
import time
from datetime import timedelta

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.response import Response

from tournaments.domain import Conflict, DomainError
from tournaments.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT = timedelta(days=1)
WAIT_SECONDS = 10.0
MAX_KEY_LENGTH = 255
DESCRIPTION = ("Optional. A unique string (e.g. a UUID, at most 255 characters) naming this request: sent "
               "again with the same key (a retry, a double-submit), the request is not done twice, the first "
               "answer is returned again (with `Idempotent-Replayed: true`) for a day. The same key with "
               "other data is 409.")

logger = logging.getLogger(__name__)


class Replay(Exception):  # noqa: N818  (not an error: the kept answer, handed to handle_exception)
    def __init__(self, record):
        super().__init__(record.key)
        self.record = record

    def response(self):
        return Response(self.record.body, status=self.record.status_code, headers={REPLAYED_HEADER: "true"})


def _fingerprint(request):
    """What makes two requests with one key the same request: their data and query."""
    data = request.data
    if hasattr(data, "lists"):  # a form or multipart body (an uploaded file counts by its name)
        data = sorted((name, [str(value) for value in values]) for name, values in data.lists())
    text = json.dumps([data, sorted(request.query_params.lists())], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _read_key(request):
    key = request.headers.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise DomainError(_("The %(header)s header is 1 to %(length)s printable characters (e.g. a UUID).")
                          % {"header": HEADER, "length": MAX_KEY_LENGTH}, field=HEADER)
    return key


def claim(request):
    """The claimed row for a POST with an `Idempotency-Key`, locked in the transaction this request now
    holds open (`keep` or `release` ends it), or None without a key. Raises `Replay` when the key was
    answered already, and `Conflict` when it names other data or a living request still answers it."""
    key = _read_key(request)
    if key is None or not request.user.is_authenticated:
        return None
    endpoint = f"{request.method} {request.path}"[:300]
    fingerprint = _fingerprint(request)
    deadline = time.monotonic() + WAIT_SECONDS
    if random.random() < 0.01:  # now and then, forget every key older than a day
        IdempotentRequest.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
    while True:
        try:
            with transaction.atomic():  # committed at once: a repeat sent at the same instant sees it
                IdempotentRequest.objects.create(user=request.user, key=key, endpoint=endpoint,
                                                 fingerprint=fingerprint)
        except IntegrityError:
            pass  # claimed before: by an earlier request, or one sent at the same instant
        record = IdempotentRequest.objects.filter(user=request.user, key=key, endpoint=endpoint).first()
        if record is None:
            continue  # forgotten meanwhile: claim it again
        if record.created_at < timezone.now() - KEPT:
            IdempotentRequest.objects.filter(pk=record.pk).delete()
            continue
        if record.fingerprint != fingerprint:
            raise Conflict(_("This %(header)s was used with other data: use a new key for a new request.")
                           % {"header": HEADER}, field=HEADER)
        if record.status_code is not None:
            raise Replay(record)
        answering = transaction.atomic()
        answering.__enter__()
        try:
            locked = _lock_unless_answered_elsewhere(record)
        except BaseException:
            _end(answering, commit=False)
            raise
        if locked is not None and locked.status_code is None:
            locked.answering = answering
            return locked  # this request answers the key: the first, or a repeat of one that died unanswered
        _end(answering, commit=False)
        if locked is not None:
            raise Replay(locked)  # answered between the reads above and the lock
        if time.monotonic() > deadline:
            raise Conflict(_("A request with this %(header)s is still being answered: ask again in a moment.")
                           % {"header": HEADER})
        time.sleep(0.05)


def _lock_unless_answered_elsewhere(record):
    """The row locked by this transaction, read after the lock; None while another request holds it."""
    try:
        with transaction.atomic():  # a savepoint: a lock not available leaves the transaction usable
            return IdempotentRequest.objects.select_for_update(nowait=True).filter(pk=record.pk).first()
    except OperationalError:
        return None


def _end(answering, *, commit):
    if not commit:
        transaction.set_rollback(True)
    answering.__exit__(None, None, None)


def keep(record, response):
    """Keeps the first request's answer with its step (one commit) and ends the request's transaction. A
    server error is rolled back with the step: the key may be used again."""
    keeps = response.status_code < 500
    if keeps:
        try:
            body = json.loads(json.dumps(getattr(response, "data", None), cls=DjangoJSONEncoder))
        except (TypeError, ValueError):
            # The step is done and the client told so: it stays; a repeat gets the status without the body.
            logger.warning("the answer to %s could not be kept for its %s", record.endpoint, HEADER)
            body = None
    if keeps:
        try:
            with transaction.atomic():
                IdempotentRequest.objects.filter(pk=record.pk).update(status_code=response.status_code, body=body)
        except DatabaseError:  # the step's transaction failed (a lost race): its answer is not kept
            keeps = False
    _end(record.answering, commit=keeps)


def release(record):
    """The request ended without an answer (an exception no handler turned into one): its step is undone."""
    _end(record.answering, commit=False)


class IdempotentPosts:
    """For the API's viewsets: every POST may carry an `Idempotency-Key` (after authentication,
    permissions and throttles, so a refused request claims nothing)."""

    _idempotent = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self._idempotent = claim(request) if request.method == "POST" else None

    def handle_exception(self, exc):
        if isinstance(exc, Replay):
            return exc.response()
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        record, self._idempotent = self._idempotent, None
        if record is not None:
            keep(record, response)
        return response

    def dispatch(self, request, *args, **kwargs):
        try:
            return super().dispatch(request, *args, **kwargs)
        finally:
            record, self._idempotent = self._idempotent, None
            if record is not None:  # not answered: a server error
                release(record)
