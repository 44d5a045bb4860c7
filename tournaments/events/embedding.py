"""Which other sites may show an event's standings widget in a frame (`Event.embed_origins`,
docs/embeds.md): one origin a line, `*` for any site, empty for this site only.

`clean_origins` checks and tidies what an organizer typed (the details page, the API's event PATCH and
`change_details` all call it); `frame_ancestors` turns the stored text into the widget's CSP
`frame-ancestors` sources. The second reads only lines that are valid origins, so a value that reached
the database some other way (the admin, a raw update) can never add anything else to the header."""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournaments.domain import DomainError

ANY_SITE = "*"
MAX_ORIGINS = 20
# Plain http is for a developer's own machine only (and only with DEBUG on): a widget framed over
# http could be rewritten on the way.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_DEFAULT_PORTS = {"https": 443, "http": 80}


class _BadOrigin(ValueError):
    """One line refused: the sentence's second half, after "Line n (text):"."""


def _host(hostname):
    """The host as CSP writes it (lower case, IDN as punycode, IPv6 in brackets), or _BadOrigin."""
    try:
        address = ipaddress.ip_address(hostname)
    except ValueError:
        pass
    else:
        return f"[{address}]" if address.version == 6 else str(address)
    try:
        ascii_host = hostname.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise _BadOrigin(_("the host name is not valid.")) from None
    labels = ascii_host.split(".")
    if len(ascii_host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise _BadOrigin(_("the host name is not valid."))
    return ascii_host


def _origin(line, allow_local_http):
    """`line` as an origin `scheme://host[:port]`, or _BadOrigin saying what is wrong with it."""
    if "*" in line:
        raise _BadOrigin(_("a wildcard is only a lone * on a line of its own (any site)."))
    if "://" not in line:
        raise _BadOrigin(_("write the whole origin with its scheme, e.g. https://club.example."))
    try:
        parts = urlsplit(line)
        port = parts.port
    except ValueError:
        raise _BadOrigin(_("the port is not a number from 1 to 65535.")) from None
    scheme = parts.scheme.lower()
    if not parts.hostname or "@" in parts.netloc:
        raise _BadOrigin(_("write the whole origin with its scheme, e.g. https://club.example."))
    if scheme not in _DEFAULT_PORTS:
        raise _BadOrigin(_("only https:// sites may frame the widget."))
    host = _host(parts.hostname)
    if parts.path not in ("", "/") or parts.query or parts.fragment or line.endswith(("?", "#")):
        shown = f"{scheme}://{parts.netloc.lower()}"
        raise _BadOrigin(_("an origin has no path, query or fragment: write %(origin)s.") % {"origin": shown})
    if port == 0:
        raise _BadOrigin(_("the port is not a number from 1 to 65535."))
    if scheme == "http" and not (allow_local_http and host in LOCAL_HOSTS):
        raise _BadOrigin(_("only https:// sites may frame the widget (http:// only for localhost while "
                           "developing)."))
    return f"{scheme}://{host}" if port in (None, _DEFAULT_PORTS[scheme]) else f"{scheme}://{host}:{port}"


def clean_origins(text, *, allow_local_http=None):
    """The organizer's list as it is stored: one origin a line, tidied (lower case, no trailing slash,
    no default port, each once), `*` alone, or empty. A bad line is refused with a sentence naming it
    (DomainError on the field "embed_origins")."""
    if allow_local_http is None:
        allow_local_http = settings.DEBUG
    lines = [(number, line.strip()) for number, line in enumerate(str(text or "").splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line]
    origins = []
    for number, line in lines:
        if line == ANY_SITE:
            if len(lines) > 1:
                raise DomainError(_("Line %(number)d (%(line)s): * already lets every site show the widget; "
                                    "remove the other lines or the *.") % {"number": number, "line": line},
                                  field="embed_origins")
            return ANY_SITE
        try:
            origin = _origin(line, allow_local_http)
        except _BadOrigin as error:
            raise DomainError(_("Line %(number)d (%(line)s): %(problem)s")
                              % {"number": number, "line": line[:100], "problem": error}, field="embed_origins") \
                from None
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_ORIGINS:
        raise DomainError(_("At most %(count)d sites may frame the widget; this list has %(given)d (or use * for "
                            "any site).") % {"count": MAX_ORIGINS, "given": len(origins)}, field="embed_origins")
    return "\n".join(origins)


def frame_ancestors(text):
    """The CSP `frame-ancestors` sources for an event's stored origins: this site only when empty, any
    site for `*`, else this site and the listed ones. Lines that are not valid origins are left out."""
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip()]
    if ANY_SITE in lines:
        return [ANY_SITE]
    sources = ["'self'"]
    for line in lines:
        try:
            origin = _origin(line, allow_local_http=True)
        except _BadOrigin:
            continue
        if origin not in sources:
            sources.append(origin)
    return sources
