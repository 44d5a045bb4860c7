"""allauth's sign-in and sign-up forms (ACCOUNT_FORMS) with this site's words and rules."""
from __future__ import annotations

from allauth.account.app_settings import EmailVerificationMethod
from allauth.account.forms import LoginForm, SignupForm
from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.accounts import signup

PASSWORD_HELP = (gettext_lazy("At least 8 characters, not only digits, not a common password and not like "
                              "your username or email."))


class SiteLoginForm(LoginForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")
        self.fields["login"].widget.attrs.pop("placeholder", None)  # the label says it; a placeholder is no label
        self.fields["login"].widget.attrs["autocomplete"] = "username"
        self.fields["password"].help_text = ""  # the page links "Forgot your password?" itself

    def clean(self):
        cleaned = super().clean()
        login = getattr(self, "_login", None)
        if login is not None and not signup.needs_email_verification(login.user):
            # A verified address, or an account site staff made (no recorded address): nothing to verify.
            # allauth would otherwise ask a staff-made account to verify an address it never recorded.
            login.email_verification = EmailVerificationMethod.NONE
        return cleaned


class SiteSignupForm(SignupForm):
    """Username, email and the password twice; while sign-up is invite-only, the invitation code too."""

    invite = forms.CharField(label=gettext_lazy("Invitation code"), max_length=40, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if signup.signup_mode() == signup.INVITE:
            self.fields["invite"].required = True
            self.fields["invite"].error_messages["required"] = signup.INVITATION_NEEDED
            self.order_fields(["invite", "username", "email", "password1", "password2"])
        else:
            del self.fields["invite"]
        if "password1" in self.fields:
            self.fields["password1"].help_text = PASSWORD_HELP
        for name, field in self.fields.items():
            field.widget.attrs.pop("placeholder", None)
            if name == "email":
                field.label = "Email"

    def clean_invite(self):
        code = self.cleaned_data.get("invite", "").strip()
        refusal = signup.invitation_refusal(code)
        if refusal:
            raise forms.ValidationError(refusal)
        return code
