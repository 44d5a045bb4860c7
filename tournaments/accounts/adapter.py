"""django-allauth's account adapter (ACCOUNT_ADAPTER) fitted to this site: sign-up open, by invitation
or closed (tournaments/accounts/signup.py), the invitation taken with the account, and the client's
address as the site's throttles see it (behind `API_NUM_PROXIES` proxies)."""
from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.db import transaction

from opp import limits
from tournaments.accounts import signup


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request):
        # Invite-only is open to the form, which then asks for the code; closed shows no form at all.
        return signup.signup_mode() != signup.CLOSED

    def save_user(self, request, user, form, commit=True):
        if signup.signup_mode() != signup.INVITE:
            return super().save_user(request, user, form, commit)
        with transaction.atomic():  # the account and its invitation are saved together or not at all
            user = super().save_user(request, user, form, commit=True)
            signup.take_invitation(form.cleaned_data.get("invite"), user)
        return user

    def get_client_ip(self, request):
        return limits.client_ip(request)
