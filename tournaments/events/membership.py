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
from django.utils.translation import gettext as _

from tournaments import locks, trust
from tournaments.audit import record as audit
from tournaments.domain import Conflict, DomainError
from tournaments.events.services import CONSENT, register, registration_refusal
from tournaments.models import Event, General, Invitation, OrganizerInvitation, label_in_sentence, name_key


class SameName(Conflict):
    """A general of that name exists: the caller chooses it or explicitly creates a new one."""

    def __init__(self, name, matches):
        names = ", ".join(f"{g.name} (id {g.pk}{', claimed by a player' if g.user_id else ''})" for g in matches)
        super().__init__(_("A general named %(name)s exists already: %(names)s. Choose that general, or "
                           "create a new one explicitly.") % {"name": name, "names": names}, field="name")
        self.matches = matches
        self.extra = {"matches": [{"id": g.pk, "name": g.name, "claimed": g.user_id is not None} for g in matches]}


def same_name(name):
    return list(General.objects.filter(name_key=name_key(name)).order_by("pk"))


def _clean_name(name):
    name = " ".join(str(name or "").split())
    if not name:
        raise DomainError(_("A general needs a name."), field="name")
    if len(name) > 120:
        raise DomainError(_("A general's name has at most 120 characters."), field="name")
    return name


def new_claim_code():
    return secrets.token_urlsafe(12)  # as General.save gives a new unclaimed general


@transaction.atomic
def create_general(name, *, actor, create_new=False, external_id=""):
    """An unclaimed general an organizer creates for a player without an account (R78). Refused with
    the existing general(s) of the same name unless `create_new`."""
    trust.require(trust.may_add_generals(actor), _("Only organizers add generals for players without an "
                                                   "account."))
    name = _clean_name(name)
    locks.general_name(name)  # two requests creating one name at once: the second finds the first's
    # Another event's walk-in is not the organizer's to choose (R96): only claimed generals (to invite)
    # and unclaimed ones they manage are offered.
    matches = [g for g in same_name(name) if g.user_id is not None or trust.may_manage_general(actor, g)]
    if matches and not create_new:
        raise SameName(name, matches)
    if external_id and General.objects.filter(external_id=external_id).exists():
        raise DomainError(_("The external id %(external_id)r belongs to another general.")
                          % {"external_id": external_id}, field="external_id")
    return General.objects.create(name=name, external_id=external_id, claim_code=new_claim_code(),
                                  created_by=actor if getattr(actor, "pk", None) else None)


@transaction.atomic
def create_own_general(user, name, *, create_new=False):
    """A player's own general, claimed at once. A user has at most one."""
    trust.require(getattr(user, "is_authenticated", False), _("Sign in to create your general."))
    locks.account(user)  # a user has one general: their concurrent requests take turns here
    if General.objects.filter(user=user).exists():
        raise Conflict(_("You have a general already: a player has one general for every event and league."))
    name = _clean_name(name)
    locks.general_name(name)
    matches = same_name(name)
    if matches and not create_new:
        raise SameName(name, matches)
    return General.objects.create(name=name, user=user)


@transaction.atomic
def claim(user, code):
    """The player claims the general an organizer created for them, with its one-use code."""
    trust.require(getattr(user, "is_authenticated", False), _("Sign in to claim your general."))
    code = str(code or "").strip()
    general = General.objects.select_for_update().filter(claim_code=code, user=None).first() if code else None
    if general is None:
        raise DomainError(_("This claim code is unknown or was used already: ask the organizer for a new "
                            "one."),
                          field="code")
    if General.objects.filter(user=user).exists():
        raise Conflict(_("You have a general already: a player has one general. Ask site staff to merge "
                         "them."))
    general.user, general.claim_code = user, ""
    try:
        general.save(update_fields=["user", "claim_code"])
    except IntegrityError:  # claimed by this user in a concurrent request
        raise Conflict(_("You have a general already: a player has one general.")) from None
    for event in Event.objects.filter(registrations__general=general).distinct():
        audit(event, user, "general claimed", general.name, after={"player": user.get_username()})
    return general


def _events_of(general):
    return Event.objects.filter(registrations__general=general).distinct()


@transaction.atomic
def renew_claim_code(general, *, actor):
    """A new one-use code (the old one stops working), for the organizer to hand out; audited in each
    event the general is registered in (without the code)."""
    general = General.objects.select_for_update().get(pk=general.pk)
    if general.user_id is not None:
        raise Conflict(_("%(general)s is claimed by their player already.") % {"general": general.name})
    trust.require(trust.may_manage_general(actor, general), trust.NOT_YOUR_GENERAL.format(name=general.name))
    general.claim_code = new_claim_code()
    general.save(update_fields=["claim_code"])
    for event in _events_of(general):
        audit(event, actor, "claim code renewed", general.name,
              reason="A new claim code was made; the one handed out before no longer works.")
    return general


@transaction.atomic
def rename(general, name, *, actor, create_new=False):
    """Only the player (or staff) renames a claimed general; organizers rename unclaimed ones."""
    general = General.objects.select_for_update().get(pk=general.pk)
    trust.require(trust.may_rename(actor, general),
                  (_("Only %(general)s's player (or site staff) may rename this general.")
                   % {"general": general.name}) if general.user_id
                  else trust.NOT_YOUR_GENERAL.format(name=general.name))
    name = _clean_name(name)
    before = general.name
    if name == before:  # e.g. the same rename sent twice: done once, audited once
        return general
    locks.general_name(name)  # after the general's lock (tournaments/locks.py)
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
    event = locks.event(event)  # the lock order: event, then the account (tournaments/locks.py)
    locks.account(user)
    general = trust.general_of(user)
    if general is not None and event.registrations.filter(general=general, status="active").exists():
        raise Conflict(_("%(general)s is registered for %(event)s already.")
                       % {"general": general.name, "event": event.name})  # e.g. a join sent twice
    if general is None:
        if not name:
            raise DomainError(_("You have no general yet: give its name to create it."), field="name")
        general = create_own_general(user, name, create_new=create_new)
    return register(event, general, actor=user)


@transaction.atomic
def invite(event, general, *, actor):
    """An organizer invites a player's general; it enters when the player accepts."""
    event = locks.event(event)  # the same invitation sent twice: the second finds the first's
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    refusal = registration_refusal(event)
    if refusal:
        raise Conflict(refusal)
    if general.user_id is None:
        raise DomainError(_("%(general)s has no player account yet: register them directly and hand out "
                            "their claim code.") % {"general": general.name}, field="general")
    if event.registrations.filter(general=general, status="active").exists():
        raise DomainError(_("%(general)s is already registered for %(event)s.")
                          % {"general": general.name, "event": event.name}, field="general")
    if event.invitations.filter(general=general, status=Invitation.Status.PENDING).exists():
        raise Conflict(_("%(general)s is invited already; the invitation waits for their answer.")
                       % {"general": general.name})
    invitation = Invitation.objects.create(event=event, general=general, invited_by=actor)
    audit(event, actor, "invited", general.name)
    return invitation


@transaction.atomic
def answer_invitation(invitation, *, user, accept):
    invitation = locks.invitation(invitation)  # its event first, then the invitation (tournaments/locks.py)
    trust.require(trust.may_answer_invitation(user, invitation),
                  _("Only the invited general's player answers the invitation."))
    if invitation.status != Invitation.Status.PENDING:
        raise Conflict(_("This invitation is %(status)s already.")
                       % {"status": label_in_sentence(invitation.get_status_display())})
    if accept:
        register(invitation.event, invitation.general, actor=user)  # marks the invitation accepted
        invitation.refresh_from_db()
        return invitation
    invitation.status, invitation.answered_at = Invitation.Status.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit(invitation.event, user, "invitation declined", invitation.general.name)
    return invitation


@transaction.atomic  # a general created by name and then refused is not left behind
def register_by_organizer(event, *, actor, general=None, name=None, create_new=False, seed=None):
    """An organizer's registration: an unclaimed general (existing, or created by name with the
    same-name check); a claimed general is refused with the way to invite them."""
    event = locks.event(event)  # before the name's lock that create_general takes (tournaments/locks.py)
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if general is None:
        general = create_general(name, actor=actor, create_new=create_new)
    elif general.user_id is not None and general.user_id != getattr(actor, "pk", None):
        raise trust.NotAllowed(CONSENT.format(name=general.name) + _(" Send them an invitation instead."))
    return register(event, general, actor=actor, seed=seed)  # R96: another event's walk-in is refused there


# --- co-organizers ---------------------------------------------------------------------------------

def _user_named(username):
    user = get_user_model().objects.filter(username=str(username or "").strip()).first()
    if user is None:
        raise DomainError(_("No user is called %(username)r.") % {"username": username}, field="username")
    return user


def _locked_event(event):
    return locks.event(event)  # lock 1 of the one lock order (tournaments/locks.py)


@transaction.atomic
def invite_organizer(event, username, *, actor):
    """An organizer invites an account to co-organize; it organizes only once it accepts (consent), and
    only an account with the organizer permission (or staff) can. The invitation records who appointed
    it (R95)."""
    event = _locked_event(event)
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    user = _user_named(username)
    if event.organizers.filter(pk=user.pk).exists():
        raise DomainError(_("%(user)s organizes %(event)s already.")
                          % {"user": user.get_username(), "event": event.name}, field="username")
    if not trust.may_be_organizer(user):
        raise DomainError(trust.NOT_ORGANIZER_MATERIAL.format(name=user.get_username()), field="username")
    if event.organizer_invitations.filter(user=user, status=OrganizerInvitation.Status.PENDING).exists():
        raise Conflict(_("%(user)s is invited to organize %(event)s already; the invitation waits for "
                         "their answer.") % {"user": user.get_username(), "event": event.name})
    invitation = OrganizerInvitation.objects.create(event=event, user=user,
                                                    invited_by=actor if getattr(actor, "pk", None) else None)
    audit(event, actor, "organizer invited", user.get_username())
    return invitation


@transaction.atomic
def answer_organizer_invitation(invitation, *, user, accept):
    """The invited account accepts (it organizes the event from now on) or declines."""
    event = _locked_event(invitation.event)
    invitation = OrganizerInvitation.objects.select_for_update().select_related("event").get(pk=invitation.pk)
    trust.require(trust.may_answer_organizer_invitation(user, invitation),
                  _("Only the invited account answers this invitation."))
    if invitation.status != OrganizerInvitation.Status.PENDING:
        raise Conflict(_("This invitation is %(status)s already.")
                       % {"status": label_in_sentence(invitation.get_status_display())})
    invitation.answered_at = timezone.now()
    if not accept:
        invitation.status = OrganizerInvitation.Status.DECLINED
        invitation.save(update_fields=["status", "answered_at"])
        audit(event, user, "organizer invitation declined", user.get_username())
        return invitation
    if not trust.may_be_organizer(user):  # the permission may have been taken back meanwhile
        raise trust.NotAllowed(trust.NOT_ORGANIZER_MATERIAL.format(name=user.get_username()))
    invitation.status = OrganizerInvitation.Status.ACCEPTED
    invitation.save(update_fields=["status", "answered_at"])
    event.organizers.add(user)
    audit(event, user, "organizer added", user.get_username(),
          after={"appointed_by": invitation.invited_by.get_username() if invitation.invited_by_id else None})
    return invitation


@transaction.atomic
def withdraw_organizer_invitation(invitation, *, actor):
    event = _locked_event(invitation.event)
    invitation = OrganizerInvitation.objects.select_for_update().get(pk=invitation.pk)
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    if invitation.status != OrganizerInvitation.Status.PENDING:
        raise Conflict(_("This invitation is %(status)s already.")
                       % {"status": label_in_sentence(invitation.get_status_display())})
    invitation.status, invitation.answered_at = OrganizerInvitation.Status.WITHDRAWN, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit(event, actor, "organizer invitation withdrawn", invitation.user.get_username())
    return invitation


@transaction.atomic
def remove_organizer(event, username, *, actor):
    """An organizer removes a co-organizer (or themselves); nobody removes the owner (finding: a
    co-organizer removed the creator, who then got 403 on their own event)."""
    event = _locked_event(event)
    trust.require(trust.may_organize(actor, event), trust.NOT_ORGANIZER)
    user = _user_named(username)
    if not event.organizers.filter(pk=user.pk).exists():
        raise DomainError(_("%(user)s does not organize %(event)s.")
                          % {"user": user.get_username(), "event": event.name}, field="username")
    trust.require(not trust.owns(user, event), trust.OWNER_STAYS.format(name=user.get_username(), event=event.name))
    if event.organizers.count() == 1:
        raise Conflict(_("%(user)s is the only organizer of %(event)s: add another first.")
                       % {"user": user.get_username(), "event": event.name})
    event.organizers.remove(user)
    audit(event, actor, "organizer removed", user.get_username())
    return user


@transaction.atomic
def hand_over(event, username, *, actor):
    """The owner makes a co-organizer the event's owner; the former owner stays a co-organizer."""
    event = _locked_event(event)
    trust.require(trust.may_hand_over(actor, event), trust.NOT_OWNER)
    user = _user_named(username)
    if not event.organizers.filter(pk=user.pk).exists():
        raise DomainError(_("%(user)s does not organize %(event)s: invite them as a co-organizer first.")
                          % {"user": user.get_username(), "event": event.name}, field="username")
    if event.owner_id == user.pk:
        raise DomainError(_("%(user)s owns %(event)s already.")
                          % {"user": user.get_username(), "event": event.name}, field="username")
    if not trust.may_be_organizer(user):
        raise DomainError(trust.NOT_ORGANIZER_MATERIAL.format(name=user.get_username()), field="username")
    before = event.owner.get_username() if event.owner_id else None
    event.owner = user
    event.save(update_fields=["owner"])
    audit(event, actor, "ownership handed over", user.get_username(), before={"owner": before},
          after={"owner": user.get_username()})
    return event


# --- the organizer role ------------------------------------------------------------------------------

def grant_organizer_role(user, *, grant=True):
    """Site staff grant (or take back) the right to create events (`manage.py grant_organizer`)."""
    from django.contrib.auth.models import Permission

    app_label, codename = trust.ORGANIZE_PERMISSION.split(".")
    permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
    if grant:
        user.user_permissions.add(permission)
    else:
        user.user_permissions.remove(permission)
    for cache in ("_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(cache, None)
    return user
