"""The organizer's pages: create an event, registrations, groups, the report queue,
disqualifications and the audit trail. Every step is a service call; a refusal is shown on the form
with what the organizer typed kept."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.domain import DomainError, NotAllowed
from tournaments.events import membership, services
from tournaments.leagues import seasons
from tournaments.models import Battle, Event, General, OrganizerInvitation, Registration
from tournaments.results import confirmation, recording, reporting
from tournaments.web.forms import (
    CloseSeasonForm,
    DisqualifyForm,
    EventForm,
    FormGroupsForm,
    LeagueBattleForm,
    OrganizerForm,
    RegisterForm,
    ReopenSeasonForm,
    SeasonForm,
    show_refusal,
)


def organizer_event(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not trust.may_organize(request.user, event):
        raise PermissionDenied(trust.NOT_ORGANIZER)
    confirmation.sweep(event)
    return event


def refused(request, sentence):
    return render(request, "tournaments/refused.html", {"sentence": sentence}, status=403)


@login_required
def event_create(request):
    if not trust.may_create_event(request.user):
        return refused(request, trust.NOT_GRANTED)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(actor=request.user, organizers=[request.user], **form.cleaned_data)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(event)s is created. Register its generals next.")
                                      % {"event": event.name})
            return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/organizer/event_form.html", {"form": form})


def _dashboard(request, event, **forms):
    count, partitions = services.partition_choices(event)
    registrations = list(event.registrations.select_related("general"))
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    members = [r.general for r in registrations if r.status == Registration.Status.ACTIVE
               and r.general_id not in disqualified]
    season = event.current_season()
    context = {
        "event": event,
        "registrations": registrations,
        "awaiting_approval": [r for r in registrations if r.status == Registration.Status.PENDING],
        "claim_codes": {r.general_id: r.general.claim_code for r in registrations
                        if trust.may_see_claim_code(request.user, r.general) and r.general.claim_code},
        "matches": forms.get("matches"),
        "typed_name": forms.get("typed_name"),
        "organizers": event.organizers.order_by("username"),
        "owns_event": trust.owns(request.user, event),
        "organizer_invitations": event.organizer_invitations.filter(
            status=OrganizerInvitation.Status.PENDING).select_related("user", "invited_by"),
        "organizer_form": forms.get("organizer_form") or OrganizerForm(),
        "invitations": event.invitations.select_related("general"),
        "offers": recording.disqualification_offers(event),
        "odd_warning": services.odd_registration_warning(event) if event.kind == Event.Kind.TOURNAMENT else None,
        "active_count": count,
        "partitions": partitions,
        "register_form": forms.get("register_form") or RegisterForm(league=event.kind == Event.Kind.LEAGUE),
        "groups_form": forms.get("groups_form") or FormGroupsForm(partitions=partitions),
        "plan": forms.get("plan"),
        "plan_groups": [(services.group_name(i), generals) for i, generals in enumerate(forms["plan"].groups)]
        if forms.get("plan") else [],
        "disqualify_form": forms.get("disqualify_form") or DisqualifyForm(
            generals=[g for g in members if g.pk not in disqualified]),
        "queue": reporting.open_reports(event),
        "disqualifications": event.disqualifications.select_related("general"),
        "disqualified_ids": disqualified,
        "season": season,
        "season_waiting_for": seasons.waiting_for(season) if season else None,
        "removable_battles": list(season.battles.filter(playoff=False, kind="", reports__isnull=True)
                                  .select_related("general_a", "general_b")) if season else [],
        "latest_season": event.seasons.order_by("-number").first(),
        "season_form": forms.get("season_form") or SeasonForm(),
        "close_season_form": forms.get("close_season_form") or CloseSeasonForm(),
        "reopen_form": forms.get("reopen_form") or ReopenSeasonForm(),
        "league_battle_form": forms.get("league_battle_form") or LeagueBattleForm(members=members),
    }
    return render(request, "tournaments/organizer/dashboard.html", context)


@login_required
def event_manage(request, slug):
    event = organizer_event(request, slug)
    if request.method != "POST":
        return _dashboard(request, event)
    action = request.POST.get("action")
    handler = {"register": _register, "invite": _invite, "close_registration": _close_registration,
               "form_groups": _form_groups, "disqualify": _disqualify, "open_season": _open_season,
               "schedule_battle": _schedule_battle, "close_season": _close_season,
               "reopen_season": _reopen_season, "remove_battle": _remove_battle,
               "add_organizer": _add_organizer, "remove_organizer": _remove_organizer,
               "withdraw_organizer_invitation": _withdraw_organizer_invitation, "hand_over": _hand_over,
               "withdraw": _withdraw, "set_window": _set_window,
               "decide_registration": _decide_registration}.get(action)
    if handler is None:
        messages.error(request, _("Unknown step."))
        return redirect("event-manage", slug=slug)
    return handler(request, event)


def _register(request, event):
    """A general without a player account. A name like an existing general's (ignoring case and
    spaces) shows that general: the organizer chooses it, invites its player, or explicitly
    creates a new one."""
    form = RegisterForm(request.POST, league=event.kind == Event.Kind.LEAGUE)
    chosen = request.POST.get("general")
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            general = get_object_or_404(General, pk=int(chosen)) if chosen and chosen.isdigit() else None
            registration = membership.register_by_organizer(
                event, actor=request.user, general=general, name=name, seed=form.cleaned_data.get("seed"),
                create_new=request.POST.get("create_new") == "1")
        except membership.SameName as error:
            return _dashboard(request, event, register_form=form, matches=error.matches, typed_name=name)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(general)s is registered.")
                                      % {"general": registration.general.name})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, register_form=form)


def _invite(request, event):
    general = get_object_or_404(General, pk=request.POST.get("general") or 0)
    try:
        membership.invite(event, general, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(general)s is invited; they enter %(event)s when they accept.")
                                  % {"general": general.name, "event": event.name})
    return redirect("event-manage", slug=event.slug)


def _withdraw(request, event):
    general = get_object_or_404(General, pk=request.POST.get("general") or 0)
    try:
        services.withdraw(event, general, actor=request.user, reason=request.POST.get("reason", ""))
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(general)s is withdrawn.") % {"general": general.name})
    return redirect("event-manage", slug=event.slug)


def _decide_registration(request, event):
    general = get_object_or_404(General, pk=request.POST.get("general") or 0)
    approve = request.POST.get("decision") == "approve"
    try:
        services.decide_registration(event, general, actor=request.user, approve=approve,
                                     reason=request.POST.get("reason", ""))
    except DomainError as error:
        messages.error(request, _("%(general)s: %(error)s") % {"general": general.name, "error": error})
    else:
        messages.success(request, _("%(general)s is registered.") % {"general": general.name} if approve else
                         _("%(general)s's registration is refused; they read your sentence on the event's "
                           "page.") % {"general": general.name})
    return redirect("event-manage", slug=event.slug)


def _set_window(request, event):
    try:
        minutes = int(request.POST.get("confirmation_minutes", ""))
        confirmation.set_window(event, minutes, actor=request.user)
    except ValueError:
        messages.error(request, _("The confirmation window is a number of minutes."))
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Reports now count by themselves after %(window_text)s without a "
                                    "dispute.") % {"window_text": confirmation.window_text(minutes)})
    return redirect("event-manage", slug=event.slug)


def _add_organizer(request, event):
    """Invites a co-organizer; they organize once they accept (the invitation is mailed to them)."""
    form = OrganizerForm(request.POST)
    if form.is_valid():
        try:
            invitation = membership.invite_organizer(event, form.cleaned_data["username"], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(user)s is invited to organize %(event)s; they organize it once "
                                        "they accept.")
                                      % {"user": invitation.user.get_username(), "event": event.name})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, organizer_form=form)


def _withdraw_organizer_invitation(request, event):
    invitation = get_object_or_404(event.organizer_invitations, pk=request.POST.get("invitation") or 0)
    try:
        membership.withdraw_organizer_invitation(invitation, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The invitation of %(user)s is withdrawn.")
                                  % {"user": invitation.user.get_username()})
    return redirect("event-manage", slug=event.slug)


def _remove_organizer(request, event):
    try:
        user = membership.remove_organizer(event, request.POST.get("username", ""), actor=request.user)
    except NotAllowed as error:  # e.g. the owner: 403 with the sentence
        return refused(request, str(error))
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(user)s no longer organizes %(event)s.")
                                  % {"user": user.get_username(), "event": event.name})
    return redirect("event-manage", slug=event.slug)


def _hand_over(request, event):
    try:
        membership.hand_over(event, request.POST.get("username", ""), actor=request.user)
    except NotAllowed as error:
        return refused(request, str(error))
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(username)s owns %(event)s now.")
                                  % {"username": request.POST.get("username"), "event": event.name})
    return redirect("event-manage", slug=event.slug)


@login_required
def organizer_invitation(request, pk):
    """The invited account's page: which event, who invites, accept or decline."""
    invitation = get_object_or_404(OrganizerInvitation.objects.filter(user=request.user)
                                   .select_related("event", "invited_by"), pk=pk)
    if request.method == "POST":
        accept = request.POST.get("answer") == "accept"
        try:
            membership.answer_organizer_invitation(invitation, user=request.user, accept=accept)
        except NotAllowed as error:
            return refused(request, str(error))
        except DomainError as error:
            messages.error(request, str(error))
        else:
            if accept:
                messages.success(request, _("You organize %(event)s now.")
                                          % {"event": invitation.event.name})
                return redirect("event-manage", slug=invitation.event.slug)
            messages.success(request, _("You declined to organize %(event)s.")
                                      % {"event": invitation.event.name})
        return redirect("organizer-invitation", pk=invitation.pk)
    return render(request, "tournaments/organizer/invitation.html", {"invitation": invitation})


def _close_registration(request, event):
    try:
        eliminated = services.close_registration(event, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        if eliminated:
            messages.warning(request, _("Registration is closed. %(general)s is eliminated: "
                                        "%(status_reason)s")
                                      % {"general": eliminated.general.name, "status_reason": eliminated.status_reason})
        else:
            messages.success(request, _("Registration is closed; the field is even, nobody is eliminated."))
    return redirect("event-manage", slug=event.slug)


def _form_groups(request, event):
    _count, partitions = services.partition_choices(event)
    form = FormGroupsForm(request.POST, partitions=partitions)
    plan = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            plan = services.plan_groups(event, data["group_count"], data["method"], seed=data.get("seed"))
            if request.POST.get("confirm"):
                services.form_groups(event, plan.group_count, plan.method, seed=plan.seed, actor=request.user)
                messages.success(request, _("%(group_count)s groups of %(group_size)s are formed and "
                                            "scheduled: the Qualifying Stage has begun.")
                                          % {"group_count": plan.group_count, "group_size": plan.group_size})
                return redirect("event-detail", slug=event.slug)
        except DomainError as error:
            show_refusal(form, error)
            plan = None
        else:
            # The preview's seed goes into the form, so confirming forms exactly these groups.
            form = FormGroupsForm(dict(request.POST.items(), seed=plan.seed or ""), partitions=partitions)
            form.is_valid()
    return _dashboard(request, event, groups_form=form, plan=plan)


def _disqualify(request, event):
    participants = [r.general for r in event.active_registrations()]
    form = DisqualifyForm(request.POST, generals=participants)
    if form.is_valid():
        general = next(g for g in participants if g.pk == form.cleaned_data["general"])
        try:
            services.disqualify(event, general, reason=form.cleaned_data["reason"],
                                details=form.cleaned_data["details"], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(general)s is disqualified; the remaining opponents get 1 OPP "
                                        "per battle not fought (R23).") % {"general": general.name})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, disqualify_form=form)


def _members(event):
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    return [registration.general for registration in event.active_registrations()
            if registration.general_id not in disqualified]


def _open_season(request, event):
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = seasons.open_season(event, form.cleaned_data["name"], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(season)s is open.") % {"season": season.name})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, season_form=form)


def _schedule_battle(request, event):
    members = _members(event)
    form = LeagueBattleForm(request.POST, members=members)
    season = event.season_taking_battles()
    if form.is_valid():
        by_pk = {g.pk: g for g in members}
        try:
            if season is None:
                raise DomainError(_("Open a season first."))
            battle = seasons.schedule_battle(season, by_pk[form.cleaned_data["general_a"]],
                                             by_pk[form.cleaned_data["general_b"]], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("Scheduled: %(battle)s.") % {"battle": battle})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, league_battle_form=form)


def _close_season(request, event):
    season = event.current_season()
    form = CloseSeasonForm(request.POST)
    if not form.is_valid():
        return _dashboard(request, event, close_season_form=form)
    try:
        if season is None:
            raise DomainError(_("No season is open."))
        settled = seasons.close_season(season, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        season.refresh_from_db()
        sentence = seasons.waiting_for(season)
        if settled.playoffs:
            sentence += _(" Playoffs scheduled: ") + "; ".join(str(b) for b in settled.playoffs) + "."
        (messages.success if season.state == "closed" else messages.warning)(request, sentence)
    return redirect("event-manage", slug=event.slug)


def _reopen_season(request, event):
    season = event.seasons.order_by("-number").first()
    form = ReopenSeasonForm(request.POST)
    if form.is_valid():
        try:
            if season is None:
                raise DomainError(_("There is no season to reopen."))
            seasons.reopen_season(season, actor=request.user, reason=form.cleaned_data["reason"])
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("%(season)s is open again.") % {"season": season.name})
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, reopen_form=form)


def _remove_battle(request, event):
    battle = Battle.objects.filter(event=event, pk=request.POST.get("battle") or 0).first()
    try:
        if battle is None:
            raise DomainError(_("That battle is not one of this league's."))
        seasons.remove_battle(battle, actor=request.user, reason="Removed on the organizer page.")
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Removed: %(battle)s.") % {"battle": battle})
    return redirect("event-manage", slug=event.slug)


@login_required
def event_audit(request, slug):
    event = organizer_event(request, slug)
    entries = event.audit_entries.select_related("actor")[:500]
    return render(request, "tournaments/organizer/audit.html", {"event": event, "entries": entries})
