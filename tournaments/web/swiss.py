"""A Swiss event on its page: the standings with the chosen tie-breakers and their figures, every round
with its tables and bye, the top cut; and the organizer's steps (pair the next round, start the top
cut) and a player's drop. The steps are tournaments.swiss.rounds'."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import trust
from tournaments.domain import DomainError
from tournaments.eventday.round_desk import swiss_label
from tournaments.lists import services as lists
from tournaments.models import Battle, Event, General, SwissRound, Table
from tournaments.swiss import rounds, standings
from tournaments.swiss.progress import undecided
from tournaments.swiss.tables import result_text


def swiss_panel(event, user):
    """What the event page shows of a Swiss event."""
    if not event.is_swiss:
        return None
    table = standings.table(event)
    paired = list(SwissRound.objects.filter(event=event).select_related("bye"))
    paired.sort(key=lambda r: (r.stage == SwissRound.Stage.TOP_CUT, -r.number))
    battles = {}
    for game_table in Table.objects.filter(event=event).prefetch_related("seats__general").order_by("number"):
        battles.setdefault(game_table.swiss_round_id, []).append(game_table)
        game_table.seated = [seat.general for seat in game_table.seats.all()]
        game_table.result = (result_text(game_table, game_table.eliminations, game_table.finished)
                             if game_table.is_decided else "")
    for battle in Battle.objects.filter(event=event, swiss_round__isnull=False).select_related(
            "general_a", "general_b", "winner", "forfeited_by").order_by("number"):
        battles.setdefault(battle.swiss_round_id, []).append(battle)
    organizer = trust.may_organize(user, event)
    me = trust.general_of(user)
    my_registration = event.registrations.filter(general=me, status="active").first() if me else None
    refusal = rounds.pairing_refusal(event) if organizer else None
    played = sum(1 for r in paired if r.stage == SwissRound.Stage.SWISS)
    cut_started = any(r.stage == SwissRound.Stage.TOP_CUT for r in paired)
    unready = []
    if organizer and event.game_system.has_lists and event.state in (Event.State.REGISTRATION,
                                                                      Event.State.REGISTRATION_CLOSED):
        unready = [registration.general.name for registration, version in lists.event_lists(event)
                   if registration.status == "active" and (version is None or version.status in ("violations",
                                                                                                 "withdrawn"))]
    return {
        "unready_lists": unready,
        "table": table,
        "rounds": [{"round": r, "label": swiss_label(r), "battles": battles.get(r.pk, [])} for r in paired],
        "planned": rounds.planned_rounds(event),
        "played": played,
        "may_pair": organizer and refusal is None,
        "may_set_rounds": organizer and event.state not in (Event.State.COMPLETE, Event.State.FINAL),
        "pairing_refusal": refusal if event.state != Event.State.REGISTRATION else None,
        # start_top_cut's own conditions (its battles and tables all counted: progress.undecided).
        "may_start_cut": organizer and event.top_cut and not cut_started and played >= rounds.planned_rounds(event)
        and not undecided(event) and event.state != Event.State.COMPLETE,
        "may_drop": my_registration is not None and my_registration.dropped_after_round is None
        and event.state in (Event.State.REGISTRATION_CLOSED, Event.State.QUALIFYING),
        "organizer": organizer,
        "active": event.registrations.filter(status="active", dropped_after_round__isnull=True)
        .select_related("general") if organizer else [],
    }


@login_required
@require_POST
def swiss_act(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    action = request.POST.get("action")
    try:
        if action == "pair":
            paired = rounds.pair_next_round(event, actor=request.user)
            if paired.bye_id:
                messages.success(request, _("Swiss round %(number)s is paired; %(general)s has the bye.")
                                 % {"number": paired.number, "general": paired.bye.name})
            else:
                messages.success(request, _("Swiss round %(number)s is paired.") % {"number": paired.number})
        elif action == "rounds":
            value = request.POST.get("rounds", "")
            rounds.set_rounds(event, int(value) if value.isdigit() else -1, actor=request.user)
            messages.success(request, _("%(event)s plays %(value)s Swiss rounds.")
                                      % {"event": event.name, "value": value})
        elif action == "top_cut":
            rounds.start_top_cut(event, actor=request.user)
            messages.success(request, _("The top %(top_cut)s is paired.") % {"top_cut": event.top_cut})
        elif action == "drop":
            general = trust.general_of(request.user)
            if request.POST.get("general") and trust.may_organize(request.user, event):
                general = get_object_or_404(General, pk=request.POST["general"])
            if general is None:
                raise DomainError(_("You have no general in this event."))
            rounds.drop(event, general, actor=request.user)
            messages.success(request, _("%(general)s dropped: not paired again, kept in the standings.")
                                      % {"general": general.name})
        else:
            raise DomainError(_("Choose pair, rounds, top_cut or drop."))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect(f"/events/{event.slug}/#swiss")
