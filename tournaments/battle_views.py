"""A battle's page and what players and organizers do on it: report (with a replay), confirm or
dispute, override, record or correct the result. Also the player's own list of battles."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments import reporting, services
from tournaments.domain import DomainError, NotAllowed
from tournaments.forms import ArrangedBattleForm, DisputeForm, ReportForm, ResultForm, show_refusal
from tournaments.models import Battle, Event, Report
from tournaments.replay_view import viewer_document
from tournaments.views import visible_events


def _battle(request, pk):
    return get_object_or_404(
        Battle.objects.filter(event__in=visible_events(request)).select_related(
            "event", "group", "season", "general_a", "general_b", "winner", "forfeited_by", "player_1"), pk=pk)


def battle_detail(request, pk, *, report_form=None, result_form=None, dispute_form=None):
    battle = _battle(request, pk)
    user = request.user
    organizer = battle.event.is_organizer(user)
    me = reporting.general_of_user(user)
    reports = list(battle.reports.select_related("reported_by", "answered_by", "winner", "forfeited_by",
                                                 "player_1", "adjudication"))
    latest = reports[0] if reports else None
    involved = organizer or (me is not None and battle.involves(me))  # reporting.can_report, already looked up
    may_report = involved and not battle.kind
    awaiting_me = (latest is not None and latest.status == Report.Status.AWAITING_OPPONENT and me is not None
                   and reporting.opponent_of_reporter(latest) == me)
    context = {
        "battle": battle, "event": battle.event, "organizer": organizer, "reports": reports, "latest": latest,
        "may_report": may_report, "awaiting_me": awaiting_me,
        "report_form": report_form or (ReportForm(battle=battle) if may_report else None),
        "result_form": result_form or (ResultForm(battle=battle) if organizer else None),
        "dispute_form": dispute_form or (DisputeForm() if awaiting_me else None),
        "show_reports": involved,
    }
    return render(request, "tournaments/battle_detail.html", context)


@login_required
@require_POST
def battle_report(request, pk):
    battle = _battle(request, pk)
    form = ReportForm(request.POST, request.FILES, battle=battle)
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
            messages.success(request, f"Your report is in: {report.get_status_display().lower()}.")
            return redirect("battle-detail", pk=battle.pk)
    return battle_detail(request, pk, report_form=form)


@login_required
@require_POST
def battle_result(request, pk):
    """An organizer records, corrects or overrides the result directly."""
    battle = _battle(request, pk)
    form = ResultForm(request.POST, battle=battle)
    if form.is_valid():
        try:
            if not battle.event.is_organizer(request.user):
                raise NotAllowed("Only an organizer of this event may record results here.")
            latest = battle.reports.filter(status__in=Report.OPEN_STATUSES).first()
            if latest is not None and latest.status not in (Report.Status.QUEUED, Report.Status.ADJUDICATING):
                reporting.override_report(latest, user=request.user, reason=form.cleaned_data["reason"] or
                                          "Decided by an organizer.", **form.outcome())
                recorded = None
            else:
                recorded = services.record_result(battle, actor=request.user, reason=form.cleaned_data["reason"],
                                                  **form.outcome())
        except DomainError as error:
            show_refusal(form, error)
        else:
            messages.success(request, "The result is recorded.")
            if recorded and recorded.offer_disqualification:
                messages.warning(request, f"{recorded.offer_disqualification.name} has reached the forfeit limit: "
                                          "you may disqualify them on the event's organizer page.")
            return redirect("battle-detail", pk=battle.pk)
    return battle_detail(request, pk, result_form=form)


@login_required
@require_POST
def report_answer(request, pk):
    """The opponent (or an organizer) confirms; the opponent disputes with a reason."""
    report = get_object_or_404(Report.objects.filter(battle__event__in=visible_events(request)), pk=pk)
    try:
        if request.POST.get("answer") == "confirm":
            reporting.confirm_report(report, user=request.user)
            messages.success(request, "Confirmed: the result counts in the standings.")
        else:
            form = DisputeForm(request.POST)
            if not form.is_valid():
                return battle_detail(request, report.battle_id, dispute_form=form)
            reporting.dispute_report(report, user=request.user, reason=form.cleaned_data["reason"])
            messages.warning(request, "Disputed: an organizer will decide.")
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("battle-detail", pk=report.battle_id)


def battle_replay(request, pk):
    """The replay viewer for the battle's latest report with a replay."""
    battle = _battle(request, pk)
    report = battle.reports.exclude(replay="").first()
    if report is None:
        raise Http404("This battle has no replay.")
    return render(request, "tournaments/replay_viewer.html",
                  {"battle": battle, "document": viewer_document(report.replay)})


@login_required
def my_battles(request):
    me = reporting.general_of_user(request.user)
    battles = []
    if me is not None:
        battles = (Battle.objects.filter(Q(general_a=me) | Q(general_b=me))
                   .select_related("event", "group", "season", "general_a", "general_b", "winner", "forfeited_by")
                   .prefetch_related("reports").order_by("kind", "event_id", "round", "number"))
    return render(request, "tournaments/my_battles.html", {"me": me, "battles": battles})


@login_required
def league_report(request, slug):
    """A league member reports a battle arranged with another member: the battle is scheduled in
    the open season and reported in one step, so a refused report leaves no battle behind."""
    event = get_object_or_404(visible_events(request), slug=slug, kind=Event.Kind.LEAGUE)
    me = reporting.general_of_user(request.user)
    members = [registration.general for registration in services.active_registrations(event)]
    season = event.season_taking_battles()
    problem = None
    if me is None or me not in members:
        problem = f"Only members of {event.name} report league battles."
    elif season is None:
        problem = f"{event.name} has no open season."
    form = ArrangedBattleForm(request.POST or None, request.FILES or None,
                              opponents=[g for g in members if g != me])
    if request.method == "POST" and problem is None and form.is_valid():
        data = form.cleaned_data
        opponent = next(g for g in members if g.pk == data["opponent"])
        winner = (me if data["won"] == "me" else opponent) if data["kind"] == "victory" else None
        upload = data.get("replay_file")
        try:
            with transaction.atomic():
                battle = services.schedule_league_battle(season, me, opponent, actor=request.user)
                reporting.submit_report(battle, user=request.user, kind=data["kind"], winner=winner,
                                        condition=data.get("condition") or "", player_1=None,
                                        replay=upload.read() if upload else "")
        except DomainError as error:
            error.field = {"replay": "replay_file", "general": "opponent"}.get(error.field, error.field)
            show_refusal(form, error)
        else:
            messages.success(request, "Your battle is reported; your opponent confirms it (or the replay does).")
            return redirect("battle-detail", pk=battle.pk)
    return render(request, "tournaments/league_report.html",
                  {"event": event, "season": season, "form": form, "problem": problem})
