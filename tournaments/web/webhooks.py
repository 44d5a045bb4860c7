"""The organizer's webhooks page (/events/{slug}/webhooks/): the event's endpoints with their secrets and
kinds, a form to add one, and each one's last deliveries with the answer's code and a button to send one
again. Every step is a tournaments.webhooks.services call; a refusal is shown with what was typed kept."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments.domain import DomainError
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.web.organizer import organizer_event
from tournaments.webhooks import services

DELIVERIES_SHOWN = 20


@login_required
def event_webhooks(request, slug):
    event = organizer_event(request, slug)  # 403 unless the user organizes it
    typed = {"url": "", "kinds": list(WebhookEndpoint.Kind.values)}
    refusal = None
    if request.method == "POST":
        step = STEPS.get(request.POST.get("action", ""))
        if step is None:
            messages.error(request, _("Unknown step."))
            return redirect("event-webhooks", slug=slug)
        try:
            done = step(request, event)
        except DomainError as error:
            if request.POST.get("action") != "add":
                messages.error(request, str(error))
                return redirect("event-webhooks", slug=slug)
            refusal = str(error)
            typed = {"url": request.POST.get("url", ""), "kinds": request.POST.getlist("kinds")}
        else:
            messages.success(request, done)
            return redirect("event-webhooks", slug=slug)
    endpoints = list(services.endpoints_of(event))
    for endpoint in endpoints:
        endpoint.recent = list(endpoint.deliveries.all()[:DELIVERIES_SHOWN])
    return render(request, "tournaments/organizer/webhooks.html", {
        "event": event, "endpoints": endpoints, "kinds": WebhookEndpoint.Kind.choices, "typed": typed,
        "refusal": refusal, "most": services.MOST_PER_EVENT,
    }, status=400 if refusal else 200)


def _number(value) -> int:
    """A posted id; anything but digits names nothing (404), never a fault."""
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 19 else 0


def _endpoint(request, event):
    return get_object_or_404(services.endpoints_of(event), pk=_number(request.POST.get("endpoint")))


def _add(request, event):
    endpoint = services.register(request.user, event, url=request.POST.get("url", ""),
                                 kinds=request.POST.getlist("kinds"))
    return _("The webhook %(url)s is added. Its secret is below: give it to the receiver.") % {"url": endpoint.url}


def _delete(request, event):
    endpoint = _endpoint(request, event)
    services.delete(request.user, endpoint)
    return _("The webhook %(url)s is deleted.") % {"url": endpoint.url}


def _enable(request, event):
    endpoint = services.update(request.user, _endpoint(request, event), active=True)
    return _("The webhook %(url)s is enabled; what waited for it is being sent.") % {"url": endpoint.url}


def _disable(request, event):
    endpoint = services.update(request.user, _endpoint(request, event), active=False)
    return _("The webhook %(url)s is disabled: nothing is sent to it until you enable it.") % {"url": endpoint.url}


def _rotate(request, event):
    endpoint = services.rotate_secret(request.user, _endpoint(request, event))
    return _("The webhook %(url)s has a new secret: give it to the receiver.") % {"url": endpoint.url}


def _ping(request, event):
    endpoint = _endpoint(request, event)
    services.ping(request.user, endpoint)
    return _("A test delivery to %(url)s is on its way; its answer shows below.") % {"url": endpoint.url}


def _resend(request, event):
    delivery = get_object_or_404(WebhookDelivery, pk=_number(request.POST.get("delivery")),
                                 endpoint__event=event)
    services.resend(request.user, delivery)
    return _("The delivery is sent again; its answer shows below.")


STEPS = {"add": _add, "delete": _delete, "enable": _enable, "disable": _disable, "rotate": _rotate, "ping": _ping,
         "resend": _resend}
