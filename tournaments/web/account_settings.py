"""Small settings pages: an event's details (organizers: name, description, venue, days, time zone), a
user's email notifications and API access (/my/notifications/, their own settings page) and deleting
their account (/my/account/delete/, tournaments/events/leaving.py)."""
from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from tournaments import accounts, notifications
from tournaments.domain import DomainError
from tournaments.events import leaving, services
from tournaments.models import NotificationSettings
from tournaments.web import embed
from tournaments.web.forms import EventDetailsForm, show_refusal
from tournaments.web.organizer import organizer_event


@login_required
def event_details(request, slug):
    event = organizer_event(request, slug)
    form = EventDetailsForm(request.POST or None, initial={**services.event_details(event), "rated": event.rated},
                            started=event.has_started)
    if request.method == "POST" and form.is_valid():
        details = dict(form.cleaned_data)
        rated = details.pop("rated")
        try:
            if rated != event.rated:  # R98: a rule of the event, refused once it has started
                event = services.change_rules(event, actor=request.user, rated=rated)
        except DomainError as error:
            show_refusal(form, error)
        else:
            services.change_details(event, actor=request.user, **details)
            messages.success(request, _("The event's details are saved."))
            return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/organizer/event_details.html", {
        "event": event, "form": form, "embed_code": embed.embed_code(request, event),
        "widget_url": embed.widget_url(request, event)}, status=400 if form.errors else 200)


@login_required
def my_notifications(request):
    prefs = notifications.settings_of(request.user)
    if request.method == "POST":
        chosen = {kind: kind in request.POST.getlist("kinds") for kind in NotificationSettings.KINDS}
        notifications.update_settings(request.user, **chosen)
        messages.success(request, _("Your email settings are saved."))
        return redirect("my-notifications")
    kinds = [{"name": kind, "label": notifications.KINDS[kind], "on": prefs.wants(kind)}
             for kind in NotificationSettings.KINDS]
    token = Token.objects.filter(user=request.user).only("created").first()
    return render(request, "tournaments/my_notifications.html", {"kinds": kinds, "email": request.user.email,
                                                                 "token_created": token.created if token else None})


@login_required
@require_POST
def revoke_api_token(request):
    """The button on /my/notifications/: every API client signed in as this user is signed out."""
    if accounts.revoke_api_tokens(request.user):
        messages.success(request, _("Your API token is revoked: clients using it are signed out. Sign in "
                                    "to the API again for a new one."))
    else:
        messages.info(request, _("You had no API token."))
    return redirect("my-notifications")


class DeleteAccountForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    name = forms.ChoiceField(choices=[("keep", "keep"), ("anonymous", "anonymous")],
                             error_messages={"required": gettext_lazy("Choose how your general appears in "
                                                                      "past results.")})

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self):
        # Through authenticate, so that django-axes' lockout and the per-address limit count wrong passwords here too.
        password = self.cleaned_data["password"]
        user = self.request.user
        if authenticate(self.request, username=user.get_username(), password=password) != user:
            raise forms.ValidationError(_("That is not your password."))
        return password


@login_required
def delete_account(request):
    """Asks for the password and how the general appears in past results, then deletes the account."""
    general = getattr(request.user, "general", None)
    form = DeleteAccountForm(request.POST or None, request=request)
    refusal = leaving.ownership_refusal(request.user)
    if request.method == "POST" and not refusal and form.is_valid():
        try:
            leaving.delete_account(request.user, keep_name=form.cleaned_data["name"] == "keep")
        except DomainError as error:
            refusal = str(error)
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Your general's counted results stay in "
                                        "their events."))
            return redirect("home")
    return render(request, "tournaments/delete_account.html", {
        "form": form, "general": general, "refusal": refusal,
        "former_name": leaving.former_name(general) if general else None})
