"""The organizer's pages: create an event, registrations, groups, the report queue,
disqualifications and the audit trail. Every step is a service call; a refusal is shown on the form
with what the organizer typed kept."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render

from tournaments import reporting, services
from tournaments.domain import DomainError
from tournaments.forms import (
    DisqualifyForm,
    EventForm,
    FormGroupsForm,
    LeagueBattleForm,
    RegisterForm,
    SeasonForm,
    show_refusal,
)
from tournaments.models import Event, General, Registration


def organizer_event(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not event.is_organizer(request.user):
        raise PermissionDenied("Only an organizer of this event may do that.")
    return event


@login_required
def event_create(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(actor=request.user, organizers=[request.user], **form.cleaned_data)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, f"{event.name} is created. Register its generals next.")
            return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/organizer/event_form.html", {"form": form})


def _dashboard(request, event, **forms):
    count, partitions = services.partition_choices(event)
    registrations = list(event.registrations.select_related("general"))
    participants = [r.general for r in registrations if r.status != Registration.Status.WITHDRAWN]
    members = [r.general for r in registrations if r.status == Registration.Status.ACTIVE]
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    context = {
        "event": event,
        "registrations": registrations,
        "odd_warning": services.odd_registration_warning(event),
        "active_count": count,
        "partitions": partitions,
        "register_form": forms.get("register_form") or RegisterForm(),
        "groups_form": forms.get("groups_form") or FormGroupsForm(partitions=partitions),
        "plan": forms.get("plan"),
        "plan_groups": [(services.group_name(i), generals) for i, generals in enumerate(forms["plan"].groups)]
        if forms.get("plan") else [],
        "disqualify_form": forms.get("disqualify_form") or DisqualifyForm(
            generals=[g for g in participants if g.pk not in disqualified]),
        "queue": reporting.open_reports(event),
        "disqualifications": event.disqualifications.select_related("general"),
        "season": event.current_season(),
        "season_form": forms.get("season_form") or SeasonForm(),
        "league_battle_form": forms.get("league_battle_form") or LeagueBattleForm(members=members),
    }
    return render(request, "tournaments/organizer/dashboard.html", context)


@login_required
def event_manage(request, slug):
    event = organizer_event(request, slug)
    if request.method != "POST":
        return _dashboard(request, event)
    action = request.POST.get("action")
    handler = {"register": _register, "close_registration": _close_registration, "form_groups": _form_groups,
               "disqualify": _disqualify, "open_season": _open_season, "schedule_battle": _schedule_battle,
               "close_season": _close_season}.get(action)
    if handler is None:
        messages.error(request, "Unknown step.")
        return redirect("event-manage", slug=slug)
    return handler(request, event)


def _register(request, event):
    form = RegisterForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"].strip()
        general = General.objects.filter(name__iexact=name).first() or General(name=name)
        try:
            if general.pk is None:
                general.save()
            services.register(event, general, actor=request.user, seed=form.cleaned_data.get("seed"))
        except DomainError as error:
            show_refusal(form, error)
            if not general.registrations.exists():
                general.delete()
        else:
            messages.success(request, f"{general.name} is registered.")
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, register_form=form)


def _close_registration(request, event):
    try:
        eliminated = services.close_registration(event, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        if eliminated:
            messages.warning(request, f"{eliminated.general.name} is eliminated: {eliminated.status_reason}")
        else:
            messages.success(request, "The field is even; nobody is eliminated.")
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
                messages.success(request, f"{plan.group_count} groups of {plan.group_size} are formed and "
                                          "scheduled: the Qualifying Stage has begun.")
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
    participants = [r.general for r in event.registrations.select_related("general")]
    form = DisqualifyForm(request.POST, generals=participants)
    if form.is_valid():
        general = next(g for g in participants if g.pk == form.cleaned_data["general"])
        try:
            services.disqualify(event, general, reason=form.cleaned_data["reason"],
                                details=form.cleaned_data["details"], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, f"{general.name} is disqualified; the remaining opponents get 1 OPP per "
                                      "battle not fought (R23).")
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, disqualify_form=form)


def _members(event):
    return [registration.general for registration in services.active_registrations(event)]


def _open_season(request, event):
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = services.open_season(event, form.cleaned_data["name"], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, f"{season.name} is open.")
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
                raise DomainError("Open a season first.")
            battle = services.schedule_league_battle(season, by_pk[form.cleaned_data["general_a"]],
                                                     by_pk[form.cleaned_data["general_b"]], actor=request.user)
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, f"Scheduled: {battle}.")
            return redirect("event-manage", slug=event.slug)
    return _dashboard(request, event, league_battle_form=form)


def _close_season(request, event):
    season = event.current_season()
    try:
        if season is None:
            raise DomainError("No season is open.")
        champion = services.close_season(season, actor=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        if champion:
            messages.success(request, f"{season.name} is closed: {champion.name} is the champion.")
        else:
            messages.warning(request, f"{season.name} ends in a tie at the top: playoff battles are scheduled (R24).")
    return redirect("event-manage", slug=event.slug)


@login_required
def event_audit(request, slug):
    event = organizer_event(request, slug)
    entries = event.audit_entries.select_related("actor")[:500]
    return render(request, "tournaments/organizer/audit.html", {"event": event, "entries": entries})
