"""Refusals of organized-play steps, each a sentence for the organizer.

These are the errors a person reads (the page, the API, a management command); an internal fault
stays an ordinary exception.

The domain imports no Django, yet its sentences are translated like the rest of the site's: `gettext` and
`ngettext` below are the names `makemessages` collects sentences by, and they ask the translation
functions the app installs when it loads (tournaments/apps.py installs Django's, which answer in the
language of the request or step at hand). Without the app (plain Python) they answer in English.
"""
from __future__ import annotations

from collections.abc import Callable

_translations: dict[str, Callable] = {
    "gettext": lambda message: message,
    "ngettext": lambda singular, plural, count: singular if count == 1 else plural,
}


def install_translations(*, gettext: Callable, ngettext: Callable) -> None:
    """Called once when the app loads, with django.utils.translation's functions."""
    _translations.update(gettext=gettext, ngettext=ngettext)


def gettext(message: str) -> str:
    return _translations["gettext"](message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translations["ngettext"](singular, plural, count)


class DomainError(Exception):
    """A refused step: `str(error)` says what is wrong, why, and what to change.

    `field` names the input the refusal concerns (for forms and API error bodies), when there is one.
    """

    extra: dict | None = None  # more for the API body, e.g. the existing generals of the same name

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(str(message))  # a lazily translated sentence is fixed in the language of now
        self.field = field


class Conflict(DomainError):
    """Refused because of the event's state (e.g. rules variants after the start); HTTP 409 in the API."""


class NotAllowed(DomainError):
    """Refused because of who asks (e.g. a general confirming a report of a battle not theirs); HTTP 403
    in the API."""
