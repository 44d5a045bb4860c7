"""Refusals of organized-play steps, each a sentence for the organizer.

These are the errors a person reads (the page, the API, a management command); an internal fault
stays an ordinary exception.
"""
from __future__ import annotations


class DomainError(Exception):
    """A refused step: `str(error)` says what is wrong, why, and what to change.

    `field` names the input the refusal concerns (for forms and API error bodies), when there is one.
    """

    extra: dict | None = None  # more for the API body, e.g. the existing generals of the same name

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.field = field


class Conflict(DomainError):
    """Refused because of the event's state (e.g. rules variants after the start); HTTP 409 in the API."""


class NotAllowed(DomainError):
    """Refused because of who asks (e.g. a general confirming a report of a battle not theirs); HTTP 403
    in the API."""
