"""Two small settings pages: an event's details (organizers: name, description, venue, days, time
zone) and a user's email notifications and API access (/my/notifications/)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from tournaments import accounts, notifications
from tournaments.events import services
from tournaments.models import NotificationSettings
from tournaments.web.forms import EventDetailsForm
from tournaments.web.organizer import organizer_event


@login_required
def event_details(request, slug):
    event = organizer_event(request, slug)
    form = EventDetailsForm(request.POST or None, initial=services.event_details(event))
    if request.method == "POST" and form.is_valid():
        services.change_details(event, actor=request.user, **form.cleaned_data)
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
