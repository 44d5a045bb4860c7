"""Schema post-processing: every operation documents the one error body (see errors.py) for the
statuses any request can meet, so clients and schema checkers know what a refusal looks like."""

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "What is wrong, in a sentence."},
        "code": {"type": "string", "description": "A stable word: invalid, conflict, permission_denied, ..."},
        "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
                   "description": "The fields concerned, each with its sentences."},
    },
    "required": ["detail", "code"],
}
ERROR_STATUSES = {
    "400": "Bad input: what is wrong and where.",
    "401": "Not signed in.",
    "403": "Not allowed for this user.",
    "404": "No such thing (or not visible to this user).",
    "405": "Method not allowed.",
    "406": "Not acceptable.",
    "409": "The event's state forbids this step.",
    "415": "Unsupported media type.",
    "429": "Too many requests; try again later.",
}


def add_error_responses(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["ErrorBody"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/ErrorBody"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERROR_STATUSES.items():
                responses.setdefault(status, {"description": description,
                                              "content": {"application/json": {"schema": reference}}})
    return result
