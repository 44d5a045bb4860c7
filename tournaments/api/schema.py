"""Schema post-processing, so that a generated client can rely on the schema:

- one error component, `Error` (the body of every refusal, see errors.py), for the statuses each
  operation can answer: 400, 401 (with `WWW-Authenticate`) and 429 everywhere (400: a query parameter
  the operation does not take, besides a bad body or filter); 403 and 409 for steps that change
  something, 403 for reading where a permission class of the view can refuse a signed-in user (see
  `_refuses_signed_in`) or the view declares it; 404 where a path names something or a list is paged;
  413 and 415 where a body is read;
- request bodies in JSON only, and multipart only where a file is taken (a replay upload);
- the `Idempotency-Key` header on every POST (idempotency.py);
- the replay log as its own components (`Replay` and its parts, replay_schema.py);
- one tag per resource (`AutoSchema.get_tags`, described in `TAGS`), so that a generated client has a
  module per resource;
- filters, `ordering` and `search` on a viewset's list only, where they apply (query.py).

Every operation may answer 400: a query parameter it does not take is refused (unknown_parameters.py)."""
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated, IsAuthenticatedOrReadOnly

from tournaments.api.idempotency import DESCRIPTION as IDEMPOTENCY_DESCRIPTION
from tournaments.api.idempotency import HEADER, MAX_KEY_LENGTH
from tournaments.api.query import is_list
from tournaments.api.replay_schema import replay_components

API_PREFIX = "/api/v1/"
# Each resource's tag, in the order the documentation lists them, with what it holds.
TAGS = {
    "auth": "Signing in: an API token for a username and password, and revoking it.",
    "me": "The signed-in user: their general, the reports waiting for them, invitations, which emails they get.",
    "events": "Tournaments and leagues: creation, rules, registration, groups, standings, the scoreboard, the "
              "organizer's queue and audit trail.",
    "battles": "The schedule and the results; a battle's reports are submitted here.",
    "reports": "A reported result: confirmation, dispute and the organizer's override.",
    "generals": "Generals (players): the directory, claiming, profiles and head to head.",
    "ratings": "The Glicko-2 rating list (R98).",
    "seasons": "A league's seasons: battles, closing, reopening.",
    "invitations": "Invitations to enter an event or to co-organize it, answered by the invited.",
    "games": "The games events are played in, and checking a deck or army list.",
    "lists": "An event's deck and army lists, its card pool or model list, and its list rules.",
    "swiss": "Swiss rounds, drops and the top cut.",
    "tables": "Multiplayer tables: the elimination order reported, confirmed, disputed, decided.",
    "webhooks": "Webhook endpoints an organizer registers for an event, and their deliveries.",
}
# The first path segment names the resource, except under events/{slug}/ for these, and where merged.
EVENT_PARTS = {"lists": "lists", "list-pool": "lists", "list-rules": "lists", "swiss": "swiss",
               "webhooks": "webhooks"}
SAME_TAG = {"organizer-invitations": "invitations"}


def tag_of(path):
    """The resource an API path belongs to: `/api/v1/events/{slug}/swiss/pair/` is `swiss`."""
    segments = [part for part in path.removeprefix(API_PREFIX).strip("/").split("/") if not part.startswith("{")]
    if not segments:
        return "api"
    if segments[0] == "events" and len(segments) > 1 and segments[1] in EVENT_PARTS:
        return EVENT_PARTS[segments[1]]
    return SAME_TAG.get(segments[0], segments[0])


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, with a tag per resource and the list filters on list operations only."""

    def get_tags(self):
        return [tag_of(self.path)]

    def get_filter_backends(self):
        return super().get_filter_backends() if is_list(self.view) else []

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "What is wrong, in a sentence."},
        "code": {"type": "string", "description": "A stable word: invalid, conflict, permission_denied, "
                                                  "not_authenticated, too_large, throttled, ..."},
        "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
                   "description": "The fields concerned, each with its sentences."},
    },
    "required": ["detail", "code"],
    "description": "The one error body of the API.",
}
DESCRIPTIONS = {
    "400": "Bad input: what is wrong and where (a field of the body, or a query parameter: one this operation "
           "does not take is refused).",
    "401": "Not signed in, or the token is wrong: send `Authorization: Token <key>`.",
    "403": "Not allowed for this user.",
    "404": "No such thing (or not visible to this user).",
    "409": "The event's state forbids this step, another request changed it at the same moment (a lost race), "
           "or the `Idempotency-Key` names other data.",
    "413": "The body is over the size limit (3 MiB; a replay at most 1 MiB).",
    "415": "Unsupported media type: send JSON (or multipart where a file is taken).",
    "429": "Too many requests; try again after `Retry-After` seconds.",
}
SAFE = {"get", "head", "options"}
# Every POST of the API takes it (tournaments/api/idempotency.py).
IDEMPOTENCY_KEY = {"name": HEADER, "in": "header", "required": False, "description": IDEMPOTENCY_DESCRIPTION,
                   "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH}}
SIGNING_IN = {"auth_token_create"}  # refuses with 400 (wrong password) or 429 (lockout), never 403 or 409
KEPT_MEDIA = "application/json"
UPLOAD_MEDIA = "multipart/form-data"


def _takes_a_file(media, schemas):
    schema = media.get("schema", {})
    if "$ref" in schema:
        schema = schemas.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return any(prop.get("format") == "binary" for prop in schema.get("properties", {}).values())


SIGNED_IN_PASSES = (AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly)  # refuse only the anonymous: 401


def _refuses_signed_in(view, path):
    """Whether a permission class of `view` can refuse a signed-in user reading `path`: one that checks
    the request (has_permission) or, on a path naming an object, the object (has_object_permission),
    unless it says that it never refuses reading (`refuses_reading = False`, permissions.py)."""
    for permission in view.get_permissions():
        kind = type(permission)
        if isinstance(permission, SIGNED_IN_PASSES) or not getattr(permission, "refuses_reading", True):
            continue
        if kind.has_permission is not BasePermission.has_permission:
            return True
        if "{" in path and kind.has_object_permission is not BasePermission.has_object_permission:
            return True
    return False


def _reading_refused(generator):
    """(path, method) of every reading operation that can answer 403 to a signed-in user."""
    refused = set()
    for path, _path_regex, method, callback in getattr(generator, "endpoints", None) or ():
        if method.lower() not in SAFE:
            continue
        view = generator.create_view(callback, method)
        path = generator.coerce_path(path, method, view)
        if _refuses_signed_in(view, path):
            refused.add((path, method.lower()))
    return refused


def _statuses(method, operation):
    body = "requestBody" in operation
    parameters = operation.get("parameters", [])
    in_path = any(p.get("in") == "path" for p in parameters)
    paged = any(p.get("in") == "query" and p.get("name") == "page" for p in parameters)
    statuses = {"400", "401", "429"}  # 400: a query parameter the operation does not take, if nothing else
    if method not in SAFE and operation.get("operationId") not in SIGNING_IN:
        statuses |= {"403", "409"}
    if in_path or paged:
        statuses.add("404")
    if body:
        statuses |= {"413", "415"}
    return statuses


def finish_schema(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(replay_components())
    schemas["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    reading_refused = _reading_refused(generator)
    for path, path_item in result.get("paths", {}).items():
        for method, operation in path_item.items():
            if (path, method) in reading_refused:
                operation.setdefault("responses", {}).setdefault("403", {"description": DESCRIPTIONS["403"]})
            body = operation.get("requestBody")
            if body:
                body["content"] = {media: spec for media, spec in body["content"].items()
                                   if media == KEPT_MEDIA or (media == UPLOAD_MEDIA and _takes_a_file(spec, schemas))}
            if method == "post" and operation.get("operationId") not in SIGNING_IN:
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
            responses = operation.setdefault("responses", {})
            for status in sorted(_statuses(method, operation) | {s for s in responses if s in DESCRIPTIONS}):
                answer = responses.setdefault(status, {"description": DESCRIPTIONS[status]})
                answer["content"] = {"application/json": {"schema": reference}}
                if answer.get("description", "") in ("", "What is wrong and where."):
                    answer["description"] = DESCRIPTIONS[status]
            responses["401"]["headers"] = {"WWW-Authenticate": {
                "schema": {"type": "string"}, "description": "The scheme to sign in with: `Token`."}}
            responses["429"]["headers"] = {"Retry-After": {
                "schema": {"type": "integer"}, "description": "Seconds to wait."}}
    used = {tag for path_item in result.get("paths", {}).values() for operation in path_item.values()
            for tag in operation.get("tags", [])}
    result["tags"] = [{"name": tag, "description": TAGS[tag]} for tag in TAGS if tag in used] + \
        [{"name": tag} for tag in sorted(used - set(TAGS))]
    return result
