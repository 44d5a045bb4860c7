"""Keeping an account hard to take over and the site cheap to defend:

- API tokens end with the password: a password set through `set_password` (allauth's change and reset
  forms, the admin, `manage.py changepassword`) or made unusable deletes the user's API tokens, so a
  token taken along with an old password stops working; the user signs in again for a new one. A user
  revokes their tokens themselves with `DELETE /api/v1/auth/token/` or the button on /my/notifications/.
- Failed sign-ins per client address, whatever the usernames: after `OPP_SIGNIN_FAILURES_PER_ADDRESS`
  wrong passwords from one address within `AXES_COOLOFF_TIME`, the sign-in form, the admin's and the
  token endpoint answer that address 429 with a sentence until the window ends. It adds to django-axes'
  lockout of one username from one address (a guesser spreading over many usernames is slowed too);
  the threshold is higher, as many players may share a venue's address.
- django-axes counts an account's failures under one name whether the sign-in form was given the
  username or an email address of the account (`lockout_username`), so typing the email instead does
  not buy five more guesses.
- Password-reset requests: at most `OPP_PASSWORD_RESETS_PER_EMAIL` mails an hour to one email address
  (further requests are answered exactly as a sent one, so the page never tells whether an account has
  that address) and `OPP_PASSWORD_RESETS_PER_ADDRESS` requests an hour from one client address (429,
  whatever the email asked for). tournaments/accounts/views.py applies them to allauth's reset form.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.authtoken.models import Token

from opp import limits

HOUR = 3600
# The sign-in forms (allauth's, the admin's `login`) and the token endpoint.
SIGN_IN_URL_NAMES = {"account_login", "login", "api-token"}


# --- API tokens ---------------------------------------------------------------------------------------

def revoke_api_tokens(user) -> int:
    """Deletes the user's API tokens; how many there were."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.password_saved")
def password_saved(sender, instance, created, raw=False, **kwargs):
    # `_password` holds the new password from `set_password` until the save ends; Django's own re-hash of
    # an unchanged password at sign-in (a newer hasher) clears it before saving, so it is no change here.
    if created or raw:
        return
    if getattr(instance, "_password", None) is not None or not instance.has_usable_password():
        revoke_api_tokens(instance)


# --- the username django-axes counts failures under ------------------------------------------------------

def lockout_username(request, credentials=None):
    """AXES_USERNAME_CALLABLE: the account's username when the typed login (a username or an email
    address) names one account, else the typed text in lower case. The sign-in form sends `login`,
    the admin and the token endpoint `username`; django-axes' own checks pass it as `login`."""
    credentials = credentials or {}
    data = getattr(request, "data", None) or getattr(request, "POST", {})
    typed = (credentials.get("login") or credentials.get("username") or credentials.get("email")
             or data.get("login") or data.get("username") or "")
    typed = str(typed).strip()
    if not typed:
        return ""
    user_model = get_user_model()
    by_name = user_model.objects.filter(username=typed).values_list("username", flat=True).first()
    if by_name:
        return by_name
    if "@" in typed:
        owners = list(user_model.objects.filter(Q(email__iexact=typed) | Q(emailaddress__email__iexact=typed))
                      .values_list("username", flat=True).distinct()[:2])
        if len(owners) == 1:
            return owners[0]
    return typed.lower()


# --- failed sign-ins per client address -----------------------------------------------------------------

def signin_window():
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


@receiver(user_login_failed, dispatch_uid="accounts.sign_in_failed")
def sign_in_failed(sender, credentials, request=None, **kwargs):
    if request is not None:
        limits.add_one("signin-failures", limits.client_ip(request), signin_window())


def signin_limit_sentence(window):
    minutes = max(1, round(limits.seconds_left(window) / 60))
    return ngettext("Too many failed sign-ins from your address, whatever the usernames: signing in from it is "
                    "paused for about %(minutes)s minute. Use \"Forgot your password?\" on the sign-in page if you "
                    "have forgotten it.",
                    "Too many failed sign-ins from your address, whatever the usernames: signing in from it is "
                    "paused for about %(minutes)s minutes. Use \"Forgot your password?\" on the sign-in page if you "
                    "have forgotten it.", minutes) % {"minutes": minutes}


class SignInAddressLimitMiddleware:
    """Answers a sign-in attempt (POST to a sign-in address) from an address over the limit with 429,
    before any password is hashed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and is_sign_in(request):
            window = signin_window()
            if limits.count("signin-failures", limits.client_ip(request), window) >= settings.OPP_SIGNIN_FAILURES_PER_ADDRESS:
                return too_many(request, signin_limit_sentence(window), window)
        return self.get_response(request)


def is_sign_in(request):
    try:
        return resolve(request.path_info).url_name in SIGN_IN_URL_NAMES
    except Resolver404:
        return False


SIGN_IN_LOCKED = gettext_lazy("Signing in is locked for a while")


def too_many(request, sentence, window=None, heading=SIGN_IN_LOCKED):
    """429 with the sentence: the API's error body under /api/, else the page in the site's style."""
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": sentence, "code": "throttled"}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"sentence": sentence, "heading": heading},
                          status=429)
    if window:
        response["Retry-After"] = str(limits.seconds_left(window))
    return response


# --- password-reset requests ----------------------------------------------------------------------------

def reset_refusal(request):
    """Counts one reset request from the client's address; a 429 once over the hourly limit, else None."""
    if limits.add_one("password-reset-address", limits.client_ip(request), HOUR) <= settings.OPP_PASSWORD_RESETS_PER_ADDRESS:
        return None
    sentence = (_("Too many password-reset requests from your address: at most %(limit)s an hour. Try again "
                  "in about %(minutes)s minutes.")
                % {"limit": settings.OPP_PASSWORD_RESETS_PER_ADDRESS, "minutes": max(1, round(limits.seconds_left(HOUR) / 60))})
    return too_many(request, sentence, HOUR, heading=_("Password reset paused for a while"))


def reset_mail_allowed(email):
    """Counts one reset mail to `email`; False once over the hourly limit (the mail is then not sent)."""
    return limits.add_one("password-reset-email", email.strip().lower(), HOUR) <= settings.OPP_PASSWORD_RESETS_PER_EMAIL
