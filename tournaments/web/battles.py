"""A battle's page and what players and organizers do on it: report (with a replay), confirm or
dispute, override, record or correct the result. Also the player's own list of battles."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import trust
from tournaments.domain import DomainError, NotAllowed
from tournaments.eventday import round_desk
from tournaments.eventday.replay_steps import battle_side_names, viewer_document
from tournaments.leagues import seasons
from tournaments.models import Battle, Event, Report, Season, label_in_sentence
from tournaments.results import arranged, confirmation, reporting
from tournaments.web.forms import (
    ArrangedBattleForm,
    DisputeForm,
    report_form_for,
    result_form_for,
    show_disqualification_offer,
    show_refusal,
)
from tournaments.web.live import changed_under


def _battle(request, pk):
    battle = get_object_or_404(
        Battle.objects.filter(event__in=trust.visible_events(request.user)).select_related(
            "event", "group", "season", "swiss_round", "general_a", "general_b", "winner", "forfeited_by", "player_1"), pk=pk)
    if confirmation.sweep(battle.event):  # a report whose window passed counts before the page shows
        battle.refresh_from_db()
    return battle


def battle_detail(request, pk, *, report_form=None, result_form=None, dispute_form=None):
    battle = _battle(request, pk)
    user = request.user
    organizer = trust.organizes_battle(user, battle)  # R90: an organizer who plays here reports as a general
    reports = list(battle.reports.select_related("reported_by", "answered_by", "winner", "forfeited_by",
                                                 "player_1", "adjudication"))
    latest = reports[0] if reports else None
    me = trust.general_of(user)
    involved = trust.may_see_reports(user, battle)
    closed = battle.season_id is not None and battle.season.state == Season.State.CLOSED
    me_disqualified = (not organizer and me is not None
                       and battle.event.disqualifications.filter(general=me).exists())
    # Organizers have their one result form (below) instead of the players' report form.
    may_report = involved and not organizer and not battle.kind and not closed and not me_disqualified
    waiting = [r for r in reports if r.is_awaiting_opponent]
    # The opponent answers at once, also while the replay waits for the engine (the window waits).
    awaiting_me = next((r for r in reports if r.status in reporting.ANSWERABLE and trust.may_answer(user, r)), None)
    disputed_by_me = next((r for r in reports if trust.may_withdraw_dispute(user, r)), None)
    # The public sees the counted result and the verdict summary of the report that counted.
    counted = next((r for r in reports if r.status in (Report.Status.CONFIRMED, Report.Status.OVERRIDDEN)), None)
    # The organizer's form starts from the open report (or the engine's verdict, or the counted result).
    desk_line = round_desk.line_for(battle, next((r for r in reports if r.is_open), None)) if organizer else None
    # The player's own open report: a report sent now replaces it (and its engine check), which the
    # form must say before it is sent again.
    my_open_report = (next((r for r in reports if r.is_open and trust.reporting_general(r) == me), None)
                      if may_report and me is not None else None)
    resend = None  # what sending the form again does to that report
    if my_open_report is not None:
        if my_open_report.status in Report.BEING_ADJUDICATED_STATUSES:
            resend = "wait"  # refused until the verdict is in: no form to send meanwhile
        elif any(r.status == Report.Status.DISPUTED and r.answered_by_id for r in reports):
            resend = "evidence"  # a general's dispute stands: a new report is evidence only
        else:
            resend = "replace"
    context = {
        "battle": battle, "event": battle.event, "organizer": organizer, "reports": reports,
        "latest": latest if involved else counted, "waiting": waiting, "may_report": may_report,
        "awaiting_me": awaiting_me, "disputed_by_me": disputed_by_me, "may_see_replay": involved,
        "report_form": report_form or (report_form_for(battle) if may_report and resend != "wait" else None),
        "resend": resend,
        "result_form": result_form or (result_form_for(battle, initial=desk_line.initial)
                                       if organizer and not closed else None),
        "desk_line": desk_line, "my_open_report": my_open_report,
        "opponent": battle.opponent_of(me) if me is not None and battle.involves(me) else None,
        "closed": closed, "me_disqualified": me_disqualified and involved,
        "dispute_form": dispute_form or (DisputeForm() if awaiting_me else None),
        "show_reports": involved,
    }
    return render(request, "tournaments/battle_detail.html", context)


@login_required
@require_POST
def battle_report(request, pk):
    battle = _battle(request, pk)
    form = report_form_for(battle, request.POST, request.FILES)
    if form.is_valid():
        try:
            report = reporting.submit_report(battle, user=request.user, player_1=form.general("player_1"),
                                             replay=form.replay(), **form.outcome())
        except DomainError as error:
            field = {"replay": "replay_file"}.get(error.field, error.field)
            error.field = field
            show_refusal(form, error)
        else:
            report.refresh_from_db()
            messages.success(request, _("Your report is in: %(status)s.")
                                      % {"status": label_in_sentence(report.get_status_display())})
            return redirect("battle-detail", pk=battle.pk)
    return battle_detail(request, pk, report_form=form)


@login_required
@require_POST
def battle_result(request, pk):
    """An organizer records, corrects or overrides the result directly."""
    battle = _battle(request, pk)
    form = result_form_for(battle, request.POST)
    if form.is_valid():
        try:
            recorded = round_desk.record(battle, user=request.user, outcome=form.outcome(),
                                         reason=form.cleaned_data["reason"])
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, _("The result is recorded."))
            show_disqualification_offer(request, recorded.offer_disqualification)
            return redirect("battle-detail", pk=battle.pk)
    return battle_detail(request, pk, result_form=form)


@login_required
@require_POST
def report_answer(request, pk):
    """The opponent (or an organizer) confirms; the opponent disputes with a reason, or withdraws their
    dispute."""
    report = get_object_or_404(Report.objects.filter(battle__event__in=trust.visible_events(request.user)), pk=pk)
    try:
        if request.POST.get("answer") == "withdraw":
            reporting.withdraw_dispute(report, user=request.user, reason=request.POST.get("reason", "")[:2000])
            messages.success(request, _("Your dispute is withdrawn: the report waits for your confirmation "
                                        "again."))
        elif request.POST.get("answer") == "confirm":
            report = reporting.confirm_report(report, user=request.user)
            messages.success(request, _("Confirmed: the result counts in the standings."))
            if trust.may_organize(request.user, report.battle.event):
                show_disqualification_offer(request, report.recorded.offer_disqualification)
        else:
            form = DisputeForm(request.POST)
            if not form.is_valid():
                return battle_detail(request, report.battle_id, dispute_form=form)
            try:
                reporting.dispute_report(report, user=request.user, reason=form.cleaned_data["reason"])
            except NotAllowed:
                raise  # not theirs to dispute: said at the top of the battle's page, where no dispute form shows
            except DomainError as error:
                # The report changed while the reason was being typed (issue 24 item 4): the page comes
                # back with the reason in its field, now answering the newer report, and says what changed.
                changed = changed_under(report)
                form.add_error(None, (_("Your dispute was not sent. %(changed)s Your reason is kept below: "
                                        "read the report again, then send it if it still applies.")
                                      % {"changed": changed}) if changed else str(error))
                return battle_detail(request, report.battle_id, dispute_form=form)
            messages.warning(request, _("Disputed: an organizer will decide."))
    except DomainError as error:
        changed = changed_under(report)
        messages.error(request, f"{error} {changed}" if changed else str(error))
    return redirect("battle-detail", pk=report.battle_id)


def battle_replay(request, pk):
    """The replay viewer for the battle's latest report with a replay: for the battle's two generals
    and the event's organizers, like the reports themselves."""
    battle = _battle(request, pk)
    if not trust.may_see_reports(request.user, battle):
        raise Http404(_("This battle's replay is shown to its generals and the event's organizers."))
    report = battle.reports.exclude(replay="").first()
    if report is None:
        raise Http404(_("This battle has no replay."))
    names = battle_side_names(report.replay, battle)
    return render(request, "tournaments/replay_viewer.html",
                  {"battle": battle, "document": viewer_document(report.replay, names=names)})


@login_required
def my_battles(request):
    me = trust.general_of(request.user)
    battles, waiting = [], []
    if me is not None:
        for event in Event.objects.filter(Q(battles__general_a=me) | Q(battles__general_b=me),
                                          battles__reports__status__in=Report.AWAITING_STATUSES).distinct():
            confirmation.sweep(event)
        waiting = [r for r in Report.objects.filter(Q(battle__general_a=me) | Q(battle__general_b=me),
                                                    status__in=reporting.ANSWERABLE)
                   .select_related("battle", "battle__event", "battle__general_a", "battle__general_b",
                                   "reported_by", "winner", "forfeited_by")
                   if trust.may_answer(request.user, r)]
        battles = (Battle.objects.filter(Q(general_a=me) | Q(general_b=me))
                   .select_related("event", "group", "season", "general_a", "general_b", "winner", "forfeited_by")
                   .prefetch_related(Prefetch("reports", Report.objects.select_related(
                       "reported_by", "winner", "forfeited_by")))
                   .order_by("kind", "event_id", "round", "number"))
    return render(request, "tournaments/my_battles.html", {"me": me, "battles": battles, "waiting": waiting})


@login_required
def league_report(request, slug):
    """A league member reports a battle arranged with another member: the battle is scheduled in
    the open season and reported in one step (arranged.report_arranged_battle), so a refused report
    leaves no battle behind."""
    event = get_object_or_404(trust.visible_events(request.user), slug=slug, kind=Event.Kind.LEAGUE)
    me = trust.general_of(request.user)
    members = [registration.general for registration in event.active_registrations()]
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    season = event.season_taking_battles()
    problem = None
    if me is None or me not in members:
        problem = _("Only members of %(event)s report league battles.") % {"event": event.name}
    elif me.pk in disqualified:
        problem = (_("%(me)s is disqualified from %(event)s and reports no more battles (R23).")
                   % {"me": me.name, "event": event.name})
    elif season is None:
        current = event.current_season()
        problem = seasons.waiting_for(current) if current else (_("%(event)s has no open season.")
                                                                % {"event": event.name})
    form = ArrangedBattleForm(request.POST or None, request.FILES or None,
                              opponents=[g for g in members if g != me and g.pk not in disqualified])
    if request.method == "POST" and problem is None and form.is_valid():
        data = form.cleaned_data
        opponent = next(g for g in members if g.pk == data["opponent"])
        side = {"me": me, "opponent": opponent}
        try:
            report = arranged.report_arranged_battle(
                season, user=request.user, me=me, opponent=opponent, kind=data["kind"],
                winner=side.get(data["won"]) if data["kind"] == "victory" else None,
                condition=data.get("condition") or "",
                forfeited_by=side.get(data["forfeited"]) if data["kind"] == "forfeit" else None,
                player_1=side.get(data["player_1"]), replay=form.replay())
        except DomainError as error:
            error.field = {"replay": "replay_file", "general": "opponent", "general_b": "opponent"}.get(
                error.field, error.field)
            show_refusal(form, error)
        else:
            messages.success(request, _("Your battle is reported; it counts when your opponent confirms it "
                                        "(or when the confirmation window passes without a dispute)."))
            return redirect("battle-detail", pk=report.battle_id)
    return render(request, "tournaments/league_report.html",
                  {"event": event, "season": season, "form": form, "problem": problem})
