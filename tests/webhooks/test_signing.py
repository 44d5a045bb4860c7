"""The signature: what the site signs, the documented receiver accepts; a changed body, another secret,
an old timestamp or a malformed header it refuses."""
import time

from tournaments.webhooks import signing

from .conftest import documented_verifier

BODY = b'{"kind":"result.counted","data":{"winner":"Alice"}}'


def test_a_signed_body_checks_out_with_the_library_and_with_the_documented_snippet():
    secret = signing.new_secret()
    header = signing.signature_header(secret, BODY)
    assert header.startswith("t=") and ",v1=" in header
    assert signing.verify(secret, header, BODY)
    assert documented_verifier()(secret, header, BODY)


def test_a_changed_body_or_another_secret_is_refused():
    secret = signing.new_secret()
    header = signing.signature_header(secret, BODY)
    verify = documented_verifier()
    tampered = BODY.replace(b"Alice", b"Mallory")
    assert not signing.verify(secret, header, tampered) and not verify(secret, header, tampered)
    other = signing.new_secret()
    assert other != secret
    assert not signing.verify(other, header, BODY) and not verify(other, header, BODY)


def test_a_replayed_delivery_older_than_five_minutes_is_refused():
    secret = signing.new_secret()
    old = signing.signature_header(secret, BODY, now=time.time() - 301)
    assert not signing.verify(secret, old, BODY)
    assert not documented_verifier()(secret, old, BODY)
    recent = signing.signature_header(secret, BODY, now=time.time() - 200)
    assert signing.verify(secret, recent, BODY) and documented_verifier()(secret, recent, BODY)


def test_a_timestamp_changed_in_the_header_breaks_the_signature():
    secret = signing.new_secret()
    header = signing.signature_header(secret, BODY)
    stamp, mac = header.split(",")
    moved = f"t={int(stamp[2:]) + 1},{mac}"
    assert not signing.verify(secret, moved, BODY) and not documented_verifier()(secret, moved, BODY)


def test_malformed_headers_are_refused_not_raised():
    secret = signing.new_secret()
    verify = documented_verifier()
    for header in ("", "garbage", "t=abc,v1=00", "v1=00", f"t={int(time.time())}"):
        assert not signing.verify(secret, header, BODY)
        assert not verify(secret, header, BODY)
