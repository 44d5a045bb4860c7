"""allauth's views where this site adds a rule; opp/urls.py mounts them at allauth's own addresses and names.

- Sign-up: an invitation another sign-up took between the form's check and the save is refused on the
  form with a sentence (never a 500); `?invite=CODE` fills the code in.
- Password reset: the per-address and per-email limits of tournaments/accounts/protection.py.
- `too_many_requests`: the page for allauth's own rate limits (ACCOUNT_RATE_LIMITS), in words.
"""
from __future__ import annotations

from allauth.account import views as allauth_views
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.accounts import protection, signup


class SignupView(allauth_views.SignupView):
    def get_initial(self):
        initial = super().get_initial()
        code = self.request.GET.get("invite", "").strip()
        if code:
            initial["invite"] = code[:40]
        return initial

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except signup.InvitationRefused as refused:
            form.add_error("invite" if "invite" in form.fields else None, str(refused))
            return self.form_invalid(form)


class LimitedPasswordResetView(allauth_views.PasswordResetView):
    def post(self, request, *args, **kwargs):
        refusal = protection.reset_refusal(request)
        return refusal or super().post(request, *args, **kwargs)

    def form_valid(self, form):
        if not protection.reset_mail_allowed(form.cleaned_data["email"]):
            # Not sent, answered as if it were: the answer never tells whether an account has this address.
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


def too_many_requests(request, exception=None):
    """allauth's 429 (`opp.urls.handler429`): a limit on sign-ups, email changes, verification mails or
    password changes was reached."""
    if request.path.startswith("/api/"):
        return protection.too_many(request, _("Too many requests: wait a few minutes, then try again."))
    return render(request, "429.html", status=429)
