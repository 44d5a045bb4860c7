"""Who may open an account, and when an account may sign in.

- The sign-up mode: `open` (anyone), `invite` (only with a one-use `SignupInvitation` code, typed on the
  sign-up form or brought by `?invite=CODE`) or `closed` (site staff create accounts). The `SiteAccess`
  row staff keep in the admin decides; without one, the `OPP_SIGNUP` setting.
- An invitation is taken inside the transaction that creates the account, after locking its row, so two
  sign-ups with one code cannot both succeed: the second is refused with a sentence.
- Email verification: an account that signed up (allauth records its address) signs in, on the site and
  at the API's token endpoint, only once one of its addresses is verified. An account with no recorded
  address at all is one site staff made (the admin, an archive import, the demo): it signs in as before.
"""
from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from tournaments.domain import Conflict
from tournaments.models import SignupInvitation, SiteAccess

OPEN, INVITE, CLOSED = SiteAccess.Signup.OPEN, SiteAccess.Signup.INVITE, SiteAccess.Signup.CLOSED

VERIFY_EMAIL_FIRST = (gettext_lazy("Verify your email first: follow the link in the mail sent when you "
                                   "signed up (signing in on the site sends a new one)."))
INVITATION_REFUSED = (gettext_lazy("This invitation code is not valid or has been used already: ask "
                                   "whoever invited you for a new one."))
INVITATION_NEEDED = gettext_lazy("Sign-up is by invitation only: enter the invitation code you were given.")


def signup_mode():
    """open, invite or closed: the admin's `SiteAccess` row, else the `OPP_SIGNUP` setting."""
    chosen = SiteAccess.objects.order_by("pk").values_list("signup", flat=True).first()
    return chosen or settings.OPP_SIGNUP


def header_links(request):
    """Context processor: whether the header offers "Sign up" (asked only where the template looks)."""
    return {"sign_up_open": lambda: signup_mode() != CLOSED}


def invitation_refusal(code):
    """Why `code` cannot open an account now (a sentence), or None."""
    code = (code or "").strip()
    if not code:
        return INVITATION_NEEDED
    if not SignupInvitation.objects.filter(code=code, used_at=None).exists():
        return INVITATION_REFUSED
    return None


class InvitationRefused(Conflict):
    """The code was valid when the form was checked but another sign-up took it first."""


def take_invitation(code, user):
    """Marks the invitation used by `user`; call inside the transaction that creates `user`. Locks the
    invitation's row first, so of two sign-ups racing with one code exactly one takes it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("take_invitation runs inside the sign-up's transaction")
    invitation = SignupInvitation.objects.select_for_update().filter(code=(code or "").strip()).first()
    if invitation is None or invitation.used_at is not None:
        raise InvitationRefused(INVITATION_REFUSED, field="invite")
    invitation.used_by, invitation.used_at = user, timezone.now()
    invitation.save(update_fields=["used_by", "used_at"])
    return invitation


def needs_email_verification(user):
    """True while an account that signed up has no verified address. Staff-made accounts (no recorded
    address) never need it."""
    addresses = EmailAddress.objects.filter(user=user)
    return addresses.exists() and not addresses.filter(verified=True).exists()
