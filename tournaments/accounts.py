"""The safety of an account, in one place:

- API tokens end with the password: a password set through `set_password` (the change and reset
  forms, the admin, `manage.py changepassword`) or made unusable deletes the user's API tokens, so a
  token taken along with an old password stops working; the user signs in again for a new one. A user
  revokes their tokens themselves with `DELETE /api/v1/auth/token/` or the button on
  /my/notifications/.
- Failed sign-ins per client address, whatever the usernames: after `OPP_SIGNIN_FAILURES_PER_ADDRESS`
  wrong passwords from one address within `AXES_COOLOFF_TIME`, the login form, the admin's and the
  token endpoint answer that address 429 with a sentence until the window ends. It adds to django-axes'
  lockout of one username from one address (a guesser spreading over many usernames is slowed too);
  the threshold is higher, as many players may share a venue's address.
- Password-reset mails: at most `OPP_PASSWORD_RESETS_PER_EMAIL` an hour to one email address (further
  requests are answered exactly as a sent one, so the page never tells whether an account has that
  address) and `OPP_PASSWORD_RESETS_PER_ADDRESS` requests an hour from one client address (429, whatever
  the email asked for).
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.signals import user_login_failed
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from rest_framework.authtoken.models import Token

from opp import limits

HOUR = 3600
SIGN_IN_URL_NAMES = {"login", "api-token"}  # the login form (the site's and the admin's) and the token endpoint


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


# --- failed sign-ins per client address -----------------------------------------------------------------

def _signin_window():
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


@receiver(user_login_failed, dispatch_uid="accounts.sign_in_failed")
def sign_in_failed(sender, credentials, request=None, **kwargs):
    if request is not None:
        limits.add_one("signin-failures", limits.client_ip(request), _signin_window())


def signin_limit_sentence(window):
    minutes = max(1, round(limits.seconds_left(window) / 60))
    return (f"Too many failed sign-ins from your address, whatever the usernames: signing in from it is paused "
            f"for about {minutes} minute{'s' if minutes != 1 else ''}. Ask an organizer if you have forgotten "
            f"your password.")


class SignInAddressLimitMiddleware:
    """Answers a sign-in attempt (POST to a sign-in address) from an address over the limit with 429,
    before any password is hashed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and _is_sign_in(request):
            window = _signin_window()
            if limits.count("signin-failures", limits.client_ip(request), window) >= settings.OPP_SIGNIN_FAILURES_PER_ADDRESS:
                return _too_many(request, signin_limit_sentence(window), window)
        return self.get_response(request)


def _is_sign_in(request):
    try:
        return resolve(request.path_info).url_name in SIGN_IN_URL_NAMES
    except Resolver404:
        return False


def _too_many(request, sentence, window, heading="Signing in is locked for a while"):
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": sentence, "code": "throttled"}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"sentence": sentence, "heading": heading},
                          status=429)
    response["Retry-After"] = str(limits.seconds_left(window))
    return response


# --- password-reset mails ----------------------------------------------------------------------------------

class LimitedPasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, with the two limits above."""

    def post(self, request, *args, **kwargs):
        if limits.add_one("password-reset-address", limits.client_ip(request), HOUR) > settings.OPP_PASSWORD_RESETS_PER_ADDRESS:
            sentence = (f"Too many password-reset requests from your address: at most "
                        f"{settings.OPP_PASSWORD_RESETS_PER_ADDRESS} an hour. Try again in about "
                        f"{max(1, round(limits.seconds_left(HOUR) / 60))} minutes.")
            return _too_many(request, sentence, HOUR, heading="Password reset paused for a while")
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        if limits.add_one("password-reset-email", email, HOUR) > settings.OPP_PASSWORD_RESETS_PER_EMAIL:
            # Not sent, answered as if it were: the answer never tells whether an account has this address.
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
