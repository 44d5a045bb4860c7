"""What a player does for themselves: claim the general an organizer created for them, join an
event (self-registration), withdraw, answer invitations. Every step is a `membership` or
`services` call that checks `tournaments.trust` again."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import trust
from tournaments.domain import Conflict, DomainError
from tournaments.events import membership, services
from tournaments.models import Invitation
from tournaments.web.forms import ClaimForm
from tournaments.web.views import event_detail


@login_required
def claim_general(request, code=""):
    form = ClaimForm(request.POST or None, initial={"code": code})
    if request.method == "POST" and form.is_valid():
        try:
            general = membership.claim(request.user, form.cleaned_data["code"])
        except DomainError as error:
            form.add_error("code" if error.field == "code" else None, str(error))
        else:
            messages.success(request, _("%(general)s is your general now.") % {"general": general.name})
            return redirect("my-battles")
    return render(request, "tournaments/claim.html", {"form": form, "me": trust.general_of(request.user)})


@login_required
@require_POST
def join_event(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    try:
        registration = membership.join(event, request.user, name=request.POST.get("name", "").strip() or None,
                                       create_new=request.POST.get("create_new") == "1")
    except membership.SameName as error:
        messages.warning(request, _("%(error)s If one of them is yours, claim it with the organizer's "
                                    "code; otherwise tick “a different general” and join again.")
                                  % {"error": error})
    except Conflict as error:  # e.g. registration is closed (R78): 409, the event page with the sentence
        messages.error(request, str(error))
        response = event_detail(request, slug)
        response.status_code = 409
        return response
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(general)s is registered for %(event)s.")
                                  % {"general": registration.general.name, "event": event.name})
    return redirect("event-detail", slug=slug)


@login_required
@require_POST
def withdraw_from_event(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    general = trust.general_of(request.user)
    try:
        if general is None:
            raise DomainError(_("You have no general to withdraw."))
        services.withdraw(event, general, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(general)s is withdrawn from %(event)s.")
                                  % {"general": general.name, "event": event.name})
    return redirect("event-detail", slug=slug)


@login_required
@require_POST
def answer_invitation(request, pk):
    invitation = get_object_or_404(Invitation.objects.filter(general__user=request.user), pk=pk)
    accept = request.POST.get("answer") == "accept"
    try:
        membership.answer_invitation(invitation, user=request.user, accept=accept)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        answered = _("You joined %(event)s.") if accept else _("You declined %(event)s.")
        messages.success(request, answered % {"event": invitation.event.name})
    return redirect("event-detail", slug=invitation.event.slug)
