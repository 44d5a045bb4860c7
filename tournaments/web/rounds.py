"""The organizer's round page (/events/<slug>/round/): run the current round of each group or season.
The data is gathered by tournaments.eventday.round_desk; the steps are the reporting services'."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from tournaments.domain import DomainError
from tournaments.eventday import round_desk
from tournaments.models import Battle, Report
from tournaments.web.forms import result_form_for, show_disqualification_offer, show_refusal
from tournaments.web.live import changed_under
from tournaments.web.organizer import organizer_event
from tournaments.web.printouts import round_selection


def result_form(line, data=None):
    """The one result form of a battle, its ids distinct from the other battles' on the same page."""
    return result_form_for(line.battle, data, initial=line.initial, auto_id=f"id_b{line.battle.pk}_%s")


@login_required
def round_page(request, slug):
    event = organizer_event(request, slug)  # 403 for anyone but the event's organizers
    if request.method == "POST":
        return _act(request, event)
    return _render(request, event)


def _render(request, event, *, bound=None):
    """The page; `bound` is a refused result form, shown again with what was typed and why."""
    desk = round_desk.gather(event, user=request.user, **round_selection(request))
    placed = False
    for line in (line for sheet in desk.sheets for line in sheet.lines):
        if bound is not None and bound.battle.pk == line.battle.pk and not line.own:
            line.form, placed = bound, True
        else:
            line.form = result_form(line)
    return render(request, "tournaments/organizer/round.html", {
        "event": event, "desk": desk, "query": request.GET.urlencode(),
        "unplaced": bound if bound is not None and not placed else None})


def _back(request, event):
    """Back where the click came from (the round page with its selection, or a battle page)."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return redirect(wanted)
    query = request.GET.urlencode()
    return redirect(f"{request.path}{'?' + query if query else ''}")


def _act(request, event):
    action = request.POST.get("action")
    report = None
    try:
        if action in ("accept_report", "accept_verdict"):
            report = get_object_or_404(Report.objects.filter(battle__event=event), pk=_pk(request, "report"))
            accept = round_desk.accept_report if action == "accept_report" else round_desk.accept_verdict
            recorded = accept(report, user=request.user)
            messages.success(request, _("Counted: %(general_a)s v %(general_b)s, %(outcome_text)s.")
                                      % {"general_a": recorded.battle.general_a.name, "general_b": recorded.battle.general_b.name, "outcome_text": recorded.battle.outcome_text()})
            show_disqualification_offer(request, recorded.offer_disqualification)
            return _back(request, event)
        if action != "record":
            messages.error(request, _("Unknown step."))
            return _back(request, event)
    except DomainError as error:
        # A click on a page drawn before the report changed: say what changed, not only the refusal.
        changed = changed_under(report) if report is not None else None
        messages.error(request, f"{error} {changed}" if changed else str(error))
        return _back(request, event)
    battle = get_object_or_404(Battle.objects.filter(event=event).select_related(
        "event", "general_a", "general_b", "winner", "forfeited_by", "player_1"), pk=_pk(request, "battle"))
    line = round_desk.line_for(battle, round_desk.open_report_of(battle))
    form = result_form(line, request.POST)
    if form.is_valid():
        try:
            recorded = round_desk.record(battle, user=request.user, outcome=form.outcome(),
                                         reason=form.cleaned_data["reason"])
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("Counted: %(general_a)s v %(general_b)s, %(outcome_text)s.")
                                      % {"general_a": battle.general_a.name, "general_b": battle.general_b.name, "outcome_text": recorded.battle.outcome_text()})
            show_disqualification_offer(request, recorded.offer_disqualification)
            return _back(request, event)
    return _render(request, event, bound=form)


def _pk(request, name):
    value = request.POST.get(name, "")
    if not value.isdigit():
        raise Http404(_("No such %(name)s.") % {"name": name})
    return int(value)
