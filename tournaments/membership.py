"""Who is who: generals and their players, invitations and co-organizers, one transaction per step.

A user has at most one general, their identity across events and leagues (`General.user`). A
general an organizer creates for a player without an account stays unclaimed until its player
claims it with the one-use code the organizer hands out. Names are compared ignoring case and
spaces, so an organizer typing "goran  golub" is shown "Goran Golub" and chooses it or explicitly
creates another general (R78).
"""
from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import rules
from tournaments.domain import Conflict, DomainError
from tournaments.models import Event, General, Invitation, name_key
from tournaments.services import CONSENT, audit, register, registration_refusal


class SameName(Conflict):
    """A general of that name exists: the caller chooses it or explicitly creates a new one."""

    def __init__(self, name, matches):
        names = ", ".join(f"{g.name} (id {g.pk}{', claimed by a player' if g.user_id else ''})" for g in matches)
        super().__init__(f"A general named {name!r} exists already: {names}. Choose that general, or create a "
                         "new one explicitly.", field="name")
        self.matches = matches
        self.extra = {"matches": [{"id": g.pk, "name": g.name, "claimed": g.user_id is not None} for g in matches]}


def same_name(name):
    return list(General.objects.filter(name_key=name_key(name)).order_by("pk"))


def _clean_name(name):
    name = " ".join(str(name or "").split())
    if not name:
        raise DomainError("A general needs a name.", field="name")
    if len(name) > 120:
        raise DomainError("A general's name has at most 120 characters.", field="name")
    return name


def new_claim_code():
    return secrets.token_urlsafe(12)  # as General.save gives a new unclaimed general


@transaction.atomic
def create_general(name, *, actor, create_new=False, external_id=""):
    """An unclaimed general an organizer creates for a player without an account (R78). Refused with
    the existing general(s) of the same name unless `create_new`."""
    rules.require(rules.may_add_generals(actor), "Only organizers add generals for players without an account.")
    name = _clean_name(name)
    matches = same_name(name)
    if matches and not create_new:
        raise SameName(name, matches)
    if external_id and General.objects.filter(external_id=external_id).exists():
        raise DomainError(f"The external id {external_id!r} belongs to another general.", field="external_id")
    return General.objects.create(name=name, external_id=external_id, claim_code=new_claim_code(),
                                  created_by=actor if getattr(actor, "pk", None) else None)


@transaction.atomic
def create_own_general(user, name, *, create_new=False):
    """A player's own general, claimed at once. A user has at most one."""
    rules.require(getattr(user, "is_authenticated", False), "Sign in to create your general.")
    if General.objects.filter(user=user).exists():
        raise Conflict("You have a general already: a player has one general for every event and league.")
    name = _clean_name(name)
    matches = same_name(name)
    if matches and not create_new:
        raise SameName(name, matches)
    return General.objects.create(name=name, user=user)


@transaction.atomic
def claim(user, code):
    """The player claims the general an organizer created for them, with its one-use code."""
    rules.require(getattr(user, "is_authenticated", False), "Sign in to claim your general.")
    code = str(code or "").strip()
    general = General.objects.select_for_update().filter(claim_code=code, user=None).first() if code else None
    if general is None:
        raise DomainError("This claim code is unknown or was used already: ask the organizer for a new one.",
                          field="code")
    if General.objects.filter(user=user).exists():
        raise Conflict("You have a general already: a player has one general. Ask site staff to merge them.")
    general.user, general.claim_code = user, ""
    try:
        general.save(update_fields=["user", "claim_code"])
    except IntegrityError:  # claimed by this user in a concurrent request
        raise Conflict("You have a general already: a player has one general.") from None
    for event in Event.objects.filter(registrations__general=general).distinct():
        audit(event, user, "general claimed", general.name, after={"player": user.get_username()})
    return general


@transaction.atomic
def renew_claim_code(general, *, actor):
    """A new one-use code (the old one stops working), for the organizer to hand out."""
    general = General.objects.select_for_update().get(pk=general.pk)
    if general.user_id is not None:
        raise Conflict(f"{general.name} is claimed by their player already.")
    rules.require(rules.may_see_claim_code(actor, general),
                  "Only organizers of an event of this general (or site staff) hand out its claim code.")
    general.claim_code = new_claim_code()
    general.save(update_fields=["claim_code"])
    return general


@transaction.atomic
def rename(general, name, *, actor, create_new=False):
    """Only the player (or staff) renames a claimed general; organizers rename unclaimed ones."""
    general = General.objects.select_for_update().get(pk=general.pk)
    rules.require(rules.may_rename(actor, general),
                  f"Only {general.name}'s player (or site staff) may rename this general.")
    name = _clean_name(name)
    before = general.name
    matches = [g for g in same_name(name) if g.pk != general.pk]
    if matches and not create_new:
        raise SameName(name, matches)
    general.name = name
    general.save(update_fields=["name"])
    for event in Event.objects.filter(registrations__general=general).distinct():
        audit(event, actor, "general renamed", name, before={"name": before}, after={"name": name})
    return general


# --- self-registration and invitations ----------------------------------------------------------------

@transaction.atomic
def join(event, user, *, name=None, create_new=False):
    """Self-registration: the player enters their own general (created first if they name one; a refused
    registration leaves no new general behind)."""
    general = rules.general_of(user)
    if general is None:
        if not name:
            raise DomainError("You have no general yet: give its name to create it.", field="name")
        general = create_own_general(user, name, create_new=create_new)
    return register(event, general, actor=user)


@transaction.atomic
def invite(event, general, *, actor):
    """An organizer invites a player's general; it enters when the player accepts."""
    rules.require(rules.may_organize(actor, event), rules.NOT_ORGANIZER)
    refusal = registration_refusal(event)
    if refusal:
        raise Conflict(refusal)
    if general.user_id is None:
        raise DomainError(f"{general.name} has no player account yet: register them directly and hand out "
                          "their claim code.", field="general")
    if event.registrations.filter(general=general, status="active").exists():
        raise DomainError(f"{general.name} is already registered for {event.name}.", field="general")
    if event.invitations.filter(general=general, status=Invitation.Status.PENDING).exists():
        raise Conflict(f"{general.name} is invited already; the invitation waits for their answer.")
    invitation = Invitation.objects.create(event=event, general=general, invited_by=actor)
    audit(event, actor, "invited", general.name)
    return invitation


@transaction.atomic
def answer_invitation(invitation, *, user, accept):
    invitation = Invitation.objects.select_for_update().select_related("event", "general").get(pk=invitation.pk)
    rules.require(rules.may_answer_invitation(user, invitation),
                  "Only the invited general's player answers the invitation.")
    if invitation.status != Invitation.Status.PENDING:
        raise Conflict(f"This invitation is {invitation.get_status_display().lower()} already.")
    if accept:
        register(invitation.event, invitation.general, actor=user)  # marks the invitation accepted
        invitation.refresh_from_db()
        return invitation
    invitation.status, invitation.answered_at = Invitation.Status.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit(invitation.event, user, "invitation declined", invitation.general.name)
    return invitation


def register_by_organizer(event, *, actor, general=None, name=None, create_new=False, seed=None):
    """An organizer's registration: an unclaimed general (existing, or created by name with the
    same-name check); a claimed general is refused with the way to invite them."""
    rules.require(rules.may_organize(actor, event), rules.NOT_ORGANIZER)
    if general is None:
        general = create_general(name, actor=actor, create_new=create_new)
    elif general.user_id is not None and general.user_id != getattr(actor, "pk", None):
        raise rules.NotAllowed(CONSENT.format(name=general.name) + " Send them an invitation instead.")
    return register(event, general, actor=actor, seed=seed)


# --- co-organizers ---------------------------------------------------------------------------------

def _user_named(username):
    user = get_user_model().objects.filter(username=str(username or "").strip()).first()
    if user is None:
        raise DomainError(f"No user is called {username!r}.", field="username")
    return user


@transaction.atomic
def add_organizer(event, username, *, actor):
    rules.require(rules.may_organize(actor, event), rules.NOT_ORGANIZER)
    user = _user_named(username)
    if event.organizers.filter(pk=user.pk).exists():
        raise DomainError(f"{user.get_username()} organizes {event.name} already.", field="username")
    event.organizers.add(user)
    audit(event, actor, "organizer added", user.get_username())
    return user


@transaction.atomic
def remove_organizer(event, username, *, actor):
    rules.require(rules.may_organize(actor, event), rules.NOT_ORGANIZER)
    user = _user_named(username)
    if not event.organizers.filter(pk=user.pk).exists():
        raise DomainError(f"{user.get_username()} does not organize {event.name}.", field="username")
    if event.organizers.count() == 1:
        raise Conflict(f"{user.get_username()} is the only organizer of {event.name}: add another first.")
    event.organizers.remove(user)
    audit(event, actor, "organizer removed", user.get_username())
    return user


# --- the organizer role ------------------------------------------------------------------------------

def grant_organizer_role(user, *, grant=True):
    """Site staff grant (or take back) the right to create events (`manage.py grant_organizer`)."""
    from django.contrib.auth.models import Permission

    app_label, codename = rules.ORGANIZE_PERMISSION.split(".")
    permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
    if grant:
        user.user_permissions.add(permission)
    else:
        user.user_permissions.remove(permission)
    for cache in ("_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(cache, None)
    return user
