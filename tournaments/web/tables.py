"""A multiplayer table's page (Warlord CCG, 3-4 players): its seats, its counted result, the reports
waiting for the other players; a seated player reports the elimination order, confirms or disputes
another's report; an organizer decides. The steps are tournaments.swiss.tables'."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import trust
from tournaments.domain import DomainError
from tournaments.models import Table, TableReport
from tournaments.results import confirmation
from tournaments.swiss import tables as table_steps
from tournaments.web.forms import show_refusal

ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth")


class TableResultForm(forms.Form):
    finished = forms.BooleanField(required=False, initial=True, label=gettext_lazy(
            "The game finished: one player is left, the winner"))
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Reason",
                             help_text=gettext_lazy("Organizers: kept in the audit trail; needed to "
                                                    "correct a counted result or to decide otherwise than "
                                                    "a player's report."))

    def __init__(self, *args, table, seated, organizer=False, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(general.pk, general.name) for general in seated]
        for index in range(len(seated) - 1):
            self.fields[f"out_{index + 1}"] = forms.TypedChoiceField(
                choices=choices, coerce=int, required=False, empty_value=None,
                label=_("%(ordinal)s player out") % {"ordinal": ORDINALS[index]})
        self.order_fields([f"out_{i + 1}" for i in range(len(seated) - 1)] + ["finished", "reason"])
        if not organizer:
            del self.fields["reason"]

    def eliminations(self):
        return [value for name, value in self.cleaned_data.items() if name.startswith("out_") and value]


def table_detail(request, pk):
    table = get_object_or_404(Table.objects.filter(event__in=trust.visible_events(request.user))
                              .select_related("event", "swiss_round"), pk=pk)
    if confirmation.sweep(table.event):  # a report whose window passed counts before the page shows
        table.refresh_from_db()
    event = table.event
    seated = [seat.general for seat in table.seats.select_related("general").order_by("seat")]
    me = trust.general_of(request.user)
    mine = me if me is not None and me.pk in {g.pk for g in seated} else None
    organizer = trust.may_organize(request.user, event) and mine is None
    reports = list(table.reports.select_related("reported_by")) if (mine or organizer) else []
    form = None
    if request.method == "POST" and request.user.is_authenticated:
        response, form = _act(request, table, seated, mine, organizer)
        if response is not None:
            return response
    for report in reports:
        report.text = table_steps.result_text(table, report.eliminations, report.finished)
        report.waiting_for = [g.name for g in seated if g.pk not in report.confirmed_by]
        report.may_confirm = (mine is not None and report.status == TableReport.Status.AWAITING
                              and mine.pk not in report.confirmed_by)
    show_form = organizer or (mine is not None and not table.is_decided)
    return render(request, "tournaments/table_detail.html", {
        "event": event, "table": table, "seated": seated, "mine": mine, "organizer": organizer,
        "result": table_steps.result_text(table, table.eliminations, table.finished) if table.is_decided else "",
        "reports": reports,
        "form": form or (TableResultForm(table=table, seated=seated, organizer=organizer) if show_form else None),
    })


def _act(request, table, seated, mine, organizer):
    action = request.POST.get("action")
    back = redirect("table-detail", pk=table.pk)
    if action in ("report", "decide"):
        form = TableResultForm(request.POST, table=table, seated=seated, organizer=organizer)
        if not form.is_valid():
            return None, form
        try:
            if action == "decide":
                table_steps.decide_table(table, user=request.user, eliminations=form.eliminations(),
                                         finished=form.cleaned_data["finished"], reason=form.cleaned_data["reason"])
                messages.success(request, _("The table's result is recorded."))
            else:
                table_steps.report_table(table, user=request.user, eliminations=form.eliminations(),
                                         finished=form.cleaned_data["finished"])
                messages.success(request, _("Your report is in: it counts once every other player at the "
                                            "table confirms it."))
        except DomainError as error:
            show_refusal(form, error)
            return None, form
        return back, None
    report = get_object_or_404(TableReport.objects.filter(table=table), pk=request.POST.get("report") or 0)
    try:
        if action == "confirm":
            table_steps.confirm_table(report, user=request.user)
            messages.success(request, _("You confirmed the report."))
        elif action == "dispute":
            table_steps.dispute_table(report, user=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, _("You disputed the report: an organizer decides."))
        else:
            raise DomainError(_("Choose report, confirm, dispute or decide."))
    except DomainError as error:
        messages.error(request, str(error))
    return back, None



