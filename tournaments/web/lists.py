"""Deck and army lists on the site: a player submits, replaces or withdraws theirs (a JSON file, pasted
JSON, or rows) and sees its violations at once; organizers see every list with its status, accept one
despite violations with a reason, upload the card pool or model list (row errors shown), and set the
deadline and who sees the lists. The steps are tournaments.lists.services'."""
from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import timezones, trust
from tournaments.domain import DomainError
from tournaments.lists import rows as list_rows
from tournaments.lists import services
from tournaments.models import Event, General
from tournaments.web.forms import show_refusal

STATUS_LABELS = {"valid": gettext_lazy("Valid"), "violations": gettext_lazy("Has violations"), "accepted": gettext_lazy(
        "Accepted by the organizers"),
                 "withdrawn": "Withdrawn", "none": gettext_lazy("Not submitted")}


class ListForm(forms.Form):
    list_file = forms.FileField(required=False, label=gettext_lazy("List file (JSON)"),
                                help_text=gettext_lazy("The list as the game's JSON, at most 200 kB."))
    list_json = forms.CharField(required=False, label=gettext_lazy("…or paste or edit the list's JSON"),
                                widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))
    rows = forms.CharField(required=False, label=gettext_lazy("…or type it as rows"),
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))
    general = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="For",
                                     help_text=gettext_lazy("Organizers: whose list this is."))

    def __init__(self, *args, event, generals=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        if generals:
            self.fields["general"].choices = [(g.pk, g.name) for g in generals]
        else:
            del self.fields["general"]
        if event.game == "warlord-ccg-4e":
            self.fields["rows"].help_text = (_("One card per line: “3 Dwarf Spearman”, and for the "
                                               "starting army “3 Dwarf Spearman, starting 2”."))
        else:
            self.fields["rows"].help_text = (_("“Faction: Crusaders”, then one model per line (“6 Crusader "
                                               "Soldier”); an empty line or “Troop” starts the next troop."))

    def clean(self):
        data = super().clean()
        upload = data.get("list_file")
        given = [name for name in ("list_file", "list_json", "rows") if data.get(name)]
        if not given:
            raise forms.ValidationError(_("Give the list: a file, its JSON, or rows."))
        if len(given) > 1:
            raise forms.ValidationError(_("Give the list one way only: a file, its JSON, or rows."))
        if upload:
            if upload.size > services.MAX_LIST_BYTES:
                self.add_error("list_file", _("The file is larger than 200 kB; a list is a few kilobytes."))
                return data
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("list_file", _("The file is not UTF-8 text."))
        elif data.get("list_json"):
            data["text"] = data["list_json"]
        else:
            try:
                data["text"] = json.dumps(list_rows.rows_to_list(self.event.game, data["rows"]), ensure_ascii=False)
            except DomainError as error:
                self.add_error("rows", str(error))
        return data


class AcceptForm(forms.Form):
    general = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=500, label=gettext_lazy("Why accept it despite its violations?"))


class PoolForm(forms.Form):
    pool_file = forms.FileField(required=False, label=gettext_lazy("CSV file"))
    pool_text = forms.CharField(required=False, label=gettext_lazy("…or paste the CSV"),
                                widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false"}))


class RulesForm(forms.Form):
    list_deadline = forms.DateTimeField(required=False, label=gettext_lazy("Lists lock at"),
                                        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                        help_text=gettext_lazy("In the event's time zone; empty: when "
                                                               "registration closes."))
    list_visibility = forms.ChoiceField(choices=Event.ListVisibility.choices, label=gettext_lazy(
            "Who sees the lists"))
    lists_public_from = forms.DateTimeField(required=False, label=gettext_lazy("Open lists are public from"),
                                            widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                            help_text=gettext_lazy("Empty: once the lists lock."))
    list_options = forms.CharField(required=False, label=gettext_lazy("List options (JSON)"),
                                   widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
                                   help_text=gettext_lazy(
                                           "The game's options, e.g. {\"points_limit\": 750}."))

    def clean_list_options(self):
        text = self.cleaned_data.get("list_options") or "{}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(_("Not JSON: %(msg)s at column %(colno)s.")
                                        % {"msg": error.msg, "colno": error.colno}) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The options are a JSON object of option names and values."))
        return value


def _status(version):
    return version.status if version is not None else "none"


def list_summary(event, user):
    """What the event page says of the lists: the player's own list, and when they lock."""
    if not event.game_system.has_lists:
        return None
    me = trust.general_of(user)
    registration = event.registrations.filter(general=me, status__in=services.LIST_HOLDERS).first() if me else None
    mine = services.current(registration) if registration else None
    if mine is not None:
        mine.status_label = STATUS_LABELS[mine.status]
    return {"pool_label": event.game_system.list_checker.pool_label, "registered": registration is not None,
            "mine": mine, "lock_text": _lock_text(event)}


def _lock_text(event):
    refusal = services.lock_reason(event)
    if refusal:
        return refusal
    if event.list_deadline:
        return (_("Lists lock at %(format_event_time)s.")
                % {"format_event_time": timezones.format_event_time(event.list_deadline, event)})
    return _("Lists lock when registration closes.")


def _visible_event(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    if not event.game_system.has_lists:
        raise Http404(_("%(game_system)s has no deck or army lists.")
                       % {"game_system": event.game_system.name})
    return event


def event_lists(request, slug):
    event = _visible_event(request, slug)
    organizer = trust.may_organize(request.user, event)
    me = trust.general_of(request.user)
    forms_ = {}
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        response = _act(request, event, organizer, me, forms_)
        if response is not None:
            return response
    entries = services.event_lists(event)
    public = services.lists_public(event)
    mine = next(((registration, version) for registration, version in entries
                 if me is not None and registration.general_id == me.pk), None)
    shown = [(registration, version, _status(version)) for registration, version in entries
             if organizer or public or (mine and registration.pk == mine[0].pk)]
    generals = [registration.general for registration, _ in entries] if organizer else ()
    editable = mine is not None and (services.lock_reason(event) is None) or organizer
    initial = {}
    if mine is not None and mine[1] is not None and not mine[1].withdrawn:
        initial = {"rows": list_rows.list_to_rows(event.game, mine[1].content)}
        if not initial["rows"]:
            initial = {"list_json": mine[1].text}
    context = {
        "event": event, "organizer": organizer, "public": public, "entries": shown, "labels": STATUS_LABELS,
        "mine": mine, "mine_status": _status(mine[1]) if mine else None, "lock_text": _lock_text(event),
        "locked": services.lock_reason(event) is not None,
        "checker": event.game_system.list_checker,
        "list_form": forms_.get("list") or (ListForm(event=event, generals=generals, initial=initial)
                                            if editable and (mine or organizer) else None),
        "accept_form": forms_.get("accept"),
        "pool_form": forms_.get("pool") or (PoolForm() if organizer else None),
        "pool_rows": forms_.get("pool_rows", []),
        "rules_form": forms_.get("rules") or (RulesForm(initial={
            "list_deadline": _local_input(event.list_deadline, event), "list_visibility": event.list_visibility,
            "lists_public_from": _local_input(event.lists_public_from, event),
            "list_options": json.dumps(event.list_options)}) if organizer else None),
        "pool_lines": max(0, len(event.list_pool.splitlines()) - 1),
    }
    return render(request, "tournaments/lists.html", context)


def _local_input(moment, event):
    return timezone.localtime(moment, timezones.zone_of(event)).strftime("%Y-%m-%dT%H:%M") if moment else ""


def _aware(value, event):
    """A datetime-local field's naive value read in the event's time zone."""
    if value is None or timezone.is_aware(value):
        return value
    return timezone.make_aware(value, timezones.zone_of(event))


def _act(request, event, organizer, me, forms_):
    action = request.POST.get("action")
    back = redirect("event-lists", slug=event.slug)
    generals = [registration.general for registration, _ in services.event_lists(event)] if organizer else ()
    if action == "submit":
        form = ListForm(request.POST, request.FILES, event=event, generals=generals)
        forms_["list"] = form
        if not form.is_valid():
            return None
        general = me
        if organizer and form.cleaned_data.get("general"):
            general = get_object_or_404(General, pk=form.cleaned_data["general"])
        if general is None:
            form.add_error(None, _("You have no general in this event."))
            return None
        try:
            version = services.submit(event, general, user=request.user, text=form.cleaned_data["text"])
        except DomainError as error:
            error.field = {"list": None}.get(error.field, error.field)
            show_refusal(form, error)
            return None
        if version.violations:
            count = len(version.violations)
            messages.warning(request, ngettext("List version %(version)s is saved with %(count)s violation: fix it "
                                               "below.",
                                               "List version %(version)s is saved with %(count)s violations: fix "
                                               "them below.", count) % {"version": version.version, "count": count})
        else:
            messages.success(request, _("List version %(version)s is saved: it is valid.")
                                      % {"version": version.version})
        return back
    try:
        if action == "withdraw":
            general = me
            if organizer and request.POST.get("general"):
                general = get_object_or_404(General, pk=request.POST["general"])
            services.withdraw(event, general, user=request.user)
            messages.success(request, _("The list is withdrawn; you may submit another before the lists "
                                        "lock."))
        elif action == "accept":
            form = AcceptForm(request.POST)
            forms_["accept"] = form
            if not form.is_valid():
                messages.error(request, _("Say why the list is accepted despite its violations."))
                return back
            general = get_object_or_404(General, pk=form.cleaned_data["general"])
            services.accept(event, general, user=request.user, version=form.cleaned_data["version"],
                            reason=form.cleaned_data["reason"])
            messages.success(request, _("%(general)s's list is accepted despite its violations.")
                                      % {"general": general.name})
        elif action == "pool":
            form = PoolForm(request.POST, request.FILES)
            forms_["pool"] = form
            if not form.is_valid():
                return None
            upload = form.cleaned_data.get("pool_file")
            try:
                text = upload.read().decode("utf-8-sig") if upload else form.cleaned_data.get("pool_text", "")
            except UnicodeDecodeError:
                form.add_error("pool_file", _("The file is not UTF-8 text."))
                return None
            try:
                services.set_pool(event, user=request.user, csv_text=text)
            except DomainError as error:
                form.add_error(None, str(error))
                forms_["pool_rows"] = (error.extra or {}).get("rows", [])
                return None
            messages.success(request, _("The pool is saved; every list was checked against it again."))
        elif action == "rules":
            form = RulesForm(request.POST)
            forms_["rules"] = form
            if not form.is_valid():
                return None
            data = form.cleaned_data
            try:
                services.set_rules(event, user=request.user, deadline=_aware(data.get("list_deadline"), event),
                                   visibility=data["list_visibility"],
                                   public_from=_aware(data.get("lists_public_from"), event),
                                   options=data["list_options"])
            except DomainError as error:
                show_refusal(form, error)
                return None
            messages.success(request, _("The list rules are saved."))
        else:
            raise DomainError(_("Choose submit, withdraw, accept, pool or rules."))
    except DomainError as error:
        messages.error(request, str(error))
    return back


def list_detail(request, slug, general_id):
    """One player's list with its violations and every version with its time."""
    event = _visible_event(request, slug)
    registration = get_object_or_404(event.registrations.filter(status__in=services.LIST_HOLDERS),
                                     general_id=general_id)
    if not services.may_see_list(request.user, event, registration):
        raise Http404(_("This list is not public."))
    versions = list(registration.list_versions.select_related("submitted_by", "accepted_by"))
    for version in versions:
        version.status_label = STATUS_LABELS[version.status]
    current = versions[0] if versions else None
    organizer = trust.may_organize(request.user, event)
    return render(request, "tournaments/list_detail.html", {
        "event": event, "registration": registration, "versions": versions, "current": current,
        "rows": list_rows.list_to_rows(event.game, current.content) if current and current.content else "",
        "organizer": organizer,
        "accept_form": AcceptForm(initial={"general": general_id, "version": current.version})
        if organizer and current and current.status == "violations" else None,
    })
