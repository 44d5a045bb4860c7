"""The safety of an account and who may open one, in one place:

- `protection`: API tokens end with the password; failed sign-ins limited per client address (beside
  django-axes' lockout of one username from one address, whose username it derives); password-reset
  requests limited per email and per address; the 429 pages.
- `signup`: the sign-up mode (open, invite-only or closed: `SiteAccess`, else the `OPP_SIGNUP` setting),
  one-use invitation codes, and whether an account must verify its email before it signs in.
- `adapter`, `forms`, `views`: django-allauth (`allauth.account`) fitted to those rules; settings name them
  by path (ACCOUNT_ADAPTER, ACCOUNT_FORMS) and opp/urls.py mounts the views.
"""
from tournaments.accounts.protection import (
    SIGN_IN_URL_NAMES,
    SignInAddressLimitMiddleware,
    lockout_username,
    password_saved,
    revoke_api_tokens,
    sign_in_failed,
)

__all__ = ["SIGN_IN_URL_NAMES", "SignInAddressLimitMiddleware", "lockout_username", "password_saved",
           "revoke_api_tokens", "sign_in_failed"]
