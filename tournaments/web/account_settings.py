"""Two small settings pages: an event's details (organizers: name, description, venue, days, time
zone) and a user's email notifications and API access (/my/notifications/)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from tournaments import accounts, notifications
from tournaments.events import services
from tournaments.models import Event, NotificationSettings
from tournaments.web.forms import EventDetailsForm
from tournaments.web.organizer import organizer_event

DETAIL_FIELDS = ("name", "description", "venue", "starts_on", "ends_on", "time_zone")


def _details(event):
    return {field: getattr(event, field) for field in DETAIL_FIELDS}


@transaction.atomic
def change_details(event, *, actor, **details):
    """Presentation only (no rule changes): audited as "details changed" with before and after."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = _details(event)
    for field, value in details.items():
        if field in DETAIL_FIELDS:
            setattr(event, field, value)
    event.full_clean(exclude=[f.name for f in Event._meta.fields if f.name not in DETAIL_FIELDS])
    after = _details(event)
    changed = [field for field in DETAIL_FIELDS if before[field] != after[field]]
    if changed:
        event.save()
        text = {field: str(value) if value is not None else None for field, value in before.items()}
        services.audit(event, actor, "details changed", event.name,
                       before={f: text[f] for f in changed},
                       after={f: str(after[f]) if after[f] is not None else None for f in changed})
    return event


@login_required
def event_details(request, slug):
    event = organizer_event(request, slug)
    form = EventDetailsForm(request.POST or None, initial=_details(event))
    if request.method == "POST" and form.is_valid():
        change_details(event, actor=request.user, **form.cleaned_data)
        messages.success(request, "The event's details are saved.")
        return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/organizer/event_details.html", {"event": event, "form": form})


@login_required
def my_notifications(request):
    prefs = notifications.settings_of(request.user)
    if request.method == "POST":
        chosen = {kind: kind in request.POST.getlist("kinds") for kind in NotificationSettings.KINDS}
        notifications.update_settings(request.user, **chosen)
        messages.success(request, "Your email settings are saved.")
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
        messages.success(request, "Your API token is revoked: clients using it are signed out. Sign in to the "
                                  "API again for a new one.")
    else:
        messages.info(request, "You had no API token.")
    return redirect("my-notifications")
