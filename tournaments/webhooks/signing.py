"""The signature of a delivery: `X-Warline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`, the HMAC
keyed with the endpoint's secret over `"<t>.<body>"`. The timestamp is part of what is signed, so a
receiver that refuses old timestamps refuses a replayed delivery (docs/webhooks.md has the receiver's
side in Python)."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time

SIGNATURE_HEADER = "X-Warline-Signature"
KIND_HEADER = "X-Warline-Event"
DELIVERY_HEADER = "X-Warline-Delivery"
SCHEME = "v1"
TOLERANCE_SECONDS = 300  # what the documented receiver accepts: five minutes either way
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes | str) -> str:
    """The hex HMAC-SHA256 of `"<timestamp>.<body>"` under `secret`."""
    if isinstance(body, str):
        body = body.encode()
    return hmac.new(secret.encode(), str(int(timestamp)).encode() + b"." + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, body: bytes | str, *, now: float | None = None) -> str:
    timestamp = int(time.time() if now is None else now)
    return f"t={timestamp},{SCHEME}={signature(secret, timestamp, body)}"


def verify(secret: str, header: str, body: bytes | str, *, now: float | None = None,
           tolerance: int = TOLERANCE_SECONDS) -> bool:
    """Whether `header` signs `body` under `secret` with a timestamp within `tolerance` seconds of now:
    the receiver's check, here for the tests and for anyone receiving in Python."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
        given = fields[SCHEME]
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), given)
