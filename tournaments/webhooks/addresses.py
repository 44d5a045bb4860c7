"""Where a delivery may go, and the one HTTP request that sends it.

A webhook's address is typed by an organizer, so the site must not become a way to reach what only it
can reach (its own admin on 127.0.0.1, a cloud's metadata service on 169.254.169.254, the database on
10.x). The guard:

- only `https://` addresses (plain `http://` only under the test setting `OPP_WEBHOOKS_ALLOW_HTTP`);
- the host is resolved, and every address it resolves to must be public: loopback, private, link-local,
  shared (100.64/10), reserved, multicast and unspecified addresses are refused (unless the test setting
  `OPP_WEBHOOKS_ALLOW_PRIVATE`);
- the request connects to the address that was checked (TLS still checks the certificate against the
  host's name), so a name that resolves to a public address for the check and to a private one a moment
  later (DNS rebinding) cannot swap it;
- redirects are never followed: a 3xx is a failed delivery, recorded with where it pointed;
- a slow or hostile receiver holds a worker at most `OPP_WEBHOOKS_CONNECT_TIMEOUT` seconds to connect
  and `OPP_WEBHOOKS_TIMEOUT` seconds in all, and only the first `OPP_WEBHOOKS_MAX_RESPONSE_BYTES` of its
  answer are read.
"""
from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

USER_AGENT = "WARLINE-Webhooks/1"
EXCERPT_CHARS = 300  # WebhookDelivery.response_excerpt


class Refused(ValueError):
    """An address the guard refuses, with the sentence saying why."""


class SendFailed(Exception):
    """The request did not get an answer: why, in a sentence."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query


@dataclass(frozen=True)
class Answer:
    status: int
    location: str  # a redirect's Location, else ""
    excerpt: str  # the start of the body, decoded


def connect_timeout() -> float:
    return float(getattr(settings, "OPP_WEBHOOKS_CONNECT_TIMEOUT", 3))


def total_timeout() -> float:
    return float(getattr(settings, "OPP_WEBHOOKS_TIMEOUT", 5))


def max_response_bytes() -> int:
    return int(getattr(settings, "OPP_WEBHOOKS_MAX_RESPONSE_BYTES", 4096))


def allow_http() -> bool:
    return bool(getattr(settings, "OPP_WEBHOOKS_ALLOW_HTTP", False))


def allow_private() -> bool:
    return bool(getattr(settings, "OPP_WEBHOOKS_ALLOW_PRIVATE", False))


# --- the address ----------------------------------------------------------------------------------------

def target_of(url: str) -> Target:
    """The parts of `url`, or Refused with what is wrong with it (no network involved)."""
    try:
        parts = urlsplit(str(url).strip())
        port = parts.port
    except ValueError as error:
        raise Refused(_("The address cannot be read: %(error)s.") % {"error": error}) from None
    schemes = ("https", "http") if allow_http() else ("https",)
    if parts.scheme not in schemes:
        raise Refused(_("The address must start with https:// (deliveries are sent over HTTPS only)."))
    if not parts.hostname:
        raise Refused(_("The address names no host."))
    if parts.username is not None or parts.password is not None:
        raise Refused(_("The address may not hold a user name or password; sign with the endpoint's secret "
                        "instead."))
    if parts.fragment:
        raise Refused(_("The address may not hold a #fragment."))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path)


def is_public(address: str) -> bool:
    """Whether an IP address is one of the internet's (not loopback, private, link-local, shared,
    reserved, multicast or unspecified). An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as
    the IPv4 address it is."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0) is not part of it
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip.sixtofour is not None or ip.teredo is not None:
            return False  # tunnels to an IPv4 address that could be anything
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (the system's resolver); an IP literal is itself."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = []
    for _family, _type, _proto, _name, sockaddr in infos:
        if sockaddr[0] not in addresses:
            addresses.append(sockaddr[0])
    return addresses


def addresses_for(target: Target, *, within: float) -> list[str]:
    """The addresses a delivery to `target` may connect to: all of the host's, each public (unless
    OPP_WEBHOOKS_ALLOW_PRIVATE). Refused when one is not: a name with one private address among public
    ones could be answered by either. The resolver gets `within` seconds."""
    try:
        literal = ipaddress.ip_address(target.host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [str(literal)]
    elif target.host.rstrip(".").lower() == "localhost" or target.host.rstrip(".").lower().endswith(".localhost"):
        found = ["127.0.0.1"]
    else:
        found = _resolve_within(target.host, target.port, within)
    if not allow_private():
        for address in found:
            if not is_public(address):
                raise Refused(_("%(host)s is %(address)s, an address of a private network or of this server: "
                                "deliveries go to public internet addresses only.")
                              % {"host": target.host, "address": address})
    return found


def _resolve_within(host, port, within):
    """`resolve`, given at most `within` seconds (the system's resolver has no timeout of its own)."""
    outcome = {}

    def run():
        try:
            outcome["addresses"] = resolve(host, port)
        except OSError as error:
            outcome["error"] = error

    worker = threading.Thread(target=run, name="webhook-resolve", daemon=True)
    worker.start()
    worker.join(max(within, 0.1))
    if "addresses" in outcome and outcome["addresses"]:
        return outcome["addresses"]
    if "error" in outcome or "addresses" in outcome:
        raise Refused(_("%(host)s does not resolve to an address.") % {"host": host})
    raise SendFailed(_("%(host)s did not resolve within %(seconds)s s.") % {"host": host, "seconds": f"{within:g}"})


def check_url(url: str, *, within: float = 2.0) -> Target:
    """The guard at registration: the address's form and where its host points now. Refused with the
    sentence; a resolver too slow to answer passes (the delivery checks again)."""
    target = target_of(url)
    with contextlib.suppress(SendFailed):
        addresses_for(target, within=within)
    return target


# --- the request ----------------------------------------------------------------------------------------

def open_connection(address: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to the checked address (the one place a delivery touches the network)."""
    return socket.create_connection((address, port), timeout)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name resolves to by now."""

    def __init__(self, host, port, address, *, connect_within):
        super().__init__(host, port, timeout=connect_within)
        self.address = address

    def connect(self):
        self.sock = open_connection(self.address, self.port, self.timeout)


class _PinnedHTTPSConnection(_PinnedHTTPConnection):
    def __init__(self, host, port, address, *, connect_within, tls):
        super().__init__(host, port, address, connect_within=connect_within)
        self.tls = tls

    def connect(self):
        super().connect()
        self.sock = self.tls.wrap_socket(self.sock, server_hostname=self.host)  # the certificate names the host


class _Deadline:
    """Cuts the connection when the whole exchange outlives `seconds`: a receiver answering one byte
    at a time cannot hold the worker longer."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.ends = time.monotonic() + seconds
        self.expired = False
        self.connection = None
        self.timer = threading.Timer(seconds, self.cut)
        self.timer.daemon = True

    def left(self):
        return max(self.ends - time.monotonic(), 0.01)

    def cut(self):
        self.expired = True
        sock = getattr(self.connection, "sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.cancel()


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POSTs `body` to `url` through the guard, following no redirect. The answer, or SendFailed (and
    Refused for an address the guard refuses) with the sentence."""
    target = target_of(url)
    total = total_timeout()
    with _Deadline(total) as deadline:
        addresses = addresses_for(target, within=min(connect_timeout(), deadline.left()))
        last_error = None
        for address in addresses:
            connection = _connection(target, address, min(connect_timeout(), deadline.left()))
            deadline.connection = connection
            try:
                return _exchange(connection, target, body, headers, deadline)
            except _CouldNotConnect as error:
                last_error = error.args[0]
                if deadline.expired:
                    break
            finally:
                connection.close()
        raise SendFailed(last_error or _no_answer_within(total))


class _CouldNotConnect(Exception):
    pass


def _no_answer_within(seconds) -> str:
    return _("No answer within %(seconds)s s.") % {"seconds": f"{seconds:g}"}


def _connection(target, address, connect_within):
    if target.scheme == "https":
        return _PinnedHTTPSConnection(target.host, target.port, address, connect_within=connect_within,
                                      tls=ssl.create_default_context())
    return _PinnedHTTPConnection(target.host, target.port, address, connect_within=connect_within)


def _exchange(connection, target, body, headers, deadline):
    try:
        connection.connect()
    except TimeoutError:
        raise _CouldNotConnect(_("Could not connect within %(seconds)s s.") % {"seconds": f"{connect_timeout():g}"}) \
            from None
    except ssl.SSLError as error:
        raise SendFailed(_("TLS failed: %(error)s.") % {"error": error.reason or error}) from None
    except OSError as error:
        if deadline.expired:
            raise SendFailed(_no_answer_within(deadline.seconds)) from None
        raise _CouldNotConnect(_("Could not connect: %(error)s.") % {"error": error.strerror or error}) from None
    try:
        connection.sock.settimeout(deadline.left())
        connection.request("POST", target.path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": USER_AGENT, "Connection": "close", **headers})
        response = connection.getresponse()
        start = response.read(max_response_bytes())  # the rest is never read: the connection closes
    except (TimeoutError, http.client.HTTPException, OSError) as error:
        if deadline.expired or isinstance(error, TimeoutError | socket.timeout):
            raise SendFailed(_no_answer_within(deadline.seconds)) from None
        if isinstance(error, http.client.HTTPException):
            raise SendFailed(_("Not an HTTP answer: %(error)s.") % {"error": type(error).__name__}) from None
        raise SendFailed(_("The connection failed: %(error)s.") % {"error": error.strerror or error}) from None
    if deadline.expired:
        raise SendFailed(_no_answer_within(deadline.seconds))
    excerpt = start.decode("utf-8", errors="replace")[:EXCERPT_CHARS]
    return Answer(status=response.status, location=(response.getheader("Location") or "")[:500], excerpt=excerpt)
