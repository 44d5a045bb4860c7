"""A player deletes their account; what they played stays.

What goes: the account itself, its API tokens, its email addresses, notification settings and mails
waiting, its organizer invitations, and its place among the organizers of any event. What stays: the
general, with every counted result, standing, place and rating point, because those belong to the
events and to the opponents' records too (deleting a general would change other players' standings,
tie-breaks and opponents' scores). The general keeps its name or, as the player chooses, is renamed
"Former general <number>"; it is left without a player and without a claim code, so no one takes the
record over. It is withdrawn from events still taking registrations and its pending invitations are
declined. Each event the general played in records what happened in its audit trail.

An event needs an owner who can act, so the owner of an event that is not complete (a league is never
complete) is refused until they hand it over to a co-organizer.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from tournaments import locks
from tournaments.accounts import revoke_api_tokens
from tournaments.audit import record as audit
from tournaments.domain import Conflict
from tournaments.events.services import withdraw
from tournaments.models import Event, General, Invitation, Registration

FORMER_NAME = "Former general {number}"
OPEN_REGISTRATION = (Registration.Status.ACTIVE, Registration.Status.PENDING)


def unfinished_owned_events(user):
    return list(Event.objects.filter(owner=user).exclude(state=Event.State.COMPLETE).order_by("name"))


def ownership_refusal(user):
    """Why `user` may not delete their account yet (a sentence), or None."""
    events = unfinished_owned_events(user)
    if not events:
        return None
    names = ", ".join(event.name for event in events)
    return ngettext("You own %(names)s, which is not complete: hand it over to a co-organizer on the organizer "
                    "page first (an event needs an owner who can act).",
                    "You own %(names)s, which are not complete: hand each over to a co-organizer on the organizer "
                    "page first (an event needs an owner who can act).", len(events)) % {"names": names}


def former_name(general):
    return FORMER_NAME.format(number=general.pk)


def delete_account(user, *, keep_name):
    """Deletes `user`; their general stays with its results, under its name or `former_name` as chosen."""
    refusal = ownership_refusal(user)
    if refusal:  # before any withdrawal; checked again under the events' locks
        raise Conflict(refusal)
    general = General.objects.filter(user=user).first()
    if general is not None:
        # Withdrawn first, each in its own step (it takes the event's lock, which comes before the account's).
        for event in Event.objects.filter(state=Event.State.REGISTRATION, registrations__general=general,
                                          registrations__status__in=OPEN_REGISTRATION).distinct():
            withdraw(event, general, actor=user, reason="The player deleted their account.")
    _delete(user, keep_name=keep_name)


@transaction.atomic
def _delete(user, *, keep_name):
    for event in Event.objects.filter(owner=user).order_by("pk"):
        locks.event(event)  # the owner check below holds against a hand-over at the same moment
    refusal = ownership_refusal(user)
    if refusal:
        raise Conflict(refusal)
    locks.account(user)
    general = General.objects.filter(user=user).first()
    if general is not None:
        _release_general(locks.general(general), user, keep_name=keep_name)
    for event in Event.objects.filter(organizers=user).order_by("pk"):
        audit(event, user, "organizer removed", user.get_username(), reason="They deleted their account.")
    revoke_api_tokens(user)
    user.delete()  # email addresses, notification settings, invitations to organize go with it


def _release_general(general, user, *, keep_name):
    before = general.name
    general.user, general.claim_code, general.player_left_at = None, "", timezone.now()
    if not keep_name:
        general.name = former_name(general)
    general.save(update_fields=["user", "claim_code", "name", "player_left_at"])
    Invitation.objects.filter(general=general, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.DECLINED, answered_at=timezone.now())
    for event in Event.objects.filter(registrations__general=general).distinct().order_by("pk"):
        if general.name != before:
            audit(event, user, "general renamed", general.name, before={"name": before}, after={"name": general.name},
                  reason="The player deleted their account and chose an anonymous name.")
        else:
            audit(event, user, "player left", general.name,
                  reason="The player deleted their account; the general keeps its name and results.")
