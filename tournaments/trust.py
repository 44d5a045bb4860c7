"""The trust model: who may do what. Every page, API permission class and service asks here, so the
whole of it reads in one file.

- Creating events is a permission site staff grant (`tournaments.organize_events`, in the admin or
  with `manage.py grant_organizer`). An event has an owner (its creator) whom nobody removes; the
  owner may hand ownership to a co-organizer. Co-organizers are invited and accept, and hold the
  organizer permission (or are staff).
- A general belongs to its player (`General.user`). Only the player enters it into an event
  (self-registration, or accepting an invitation), withdraws it, renames it and claims it.
- An unclaimed general belongs to the events that registered it (R96): only their organizers see or
  renew its claim code, rename it or enter it into another event.
- A result counts when both generals stand behind it or an organizer decided it: a general reports,
  the opponent confirms or disputes; a replay alone proves the battle is legal, not that it was played.
  An organizer whose own general plays the battle reports it as a general (R90), and so does an
  organizer appointed by one of the battle's generals (R95).
- A replay's sides belong to the battle (R92): its ids and names must be the battle's generals, in
  the order the report states; two uploads agree only with the same sides and the same result.
- A dispute stays a dispute: only the general who disputed (withdrawing or confirming) or an
  organizer (deciding, with a reason) ends it; a new report while it stands is evidence only.
- Nobody counts alone: a report against an unclaimed general or an unreachable player waits for an
  organizer (`cannot_answer`); the window measures the opponent's time only.
- A report, its replay, its dispute and override reasons are for the battle's two generals and the
  event's organizers; the public sees the counted result and the engine's verdict summary.
"""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.domain import NotAllowed
from tournaments.models import Event, General, OrganizerInvitation, Report

ORGANIZE_PERMISSION = "tournaments.organize_events"

NOT_ORGANIZER = gettext_lazy("Only an organizer of this event may do that.")
NOT_GRANTED = (gettext_lazy("Creating events is a role site staff grant: ask them for the organizer "
                            "permission (`manage.py grant_organizer <username>`)."))


def require(allowed, sentence):
    """Refuses with the sentence unless `allowed`."""
    if not allowed:
        raise NotAllowed(sentence)


def _signed_in(user):
    return bool(user is not None and getattr(user, "is_authenticated", False))


def general_of(user):
    """The user's own general, if they have one (a user has at most one)."""
    if not _signed_in(user):
        return None
    return General.objects.filter(user=user).first()


# --- organizing -----------------------------------------------------------------------------------

def may_create_event(user):
    return _signed_in(user) and user.has_perm(ORGANIZE_PERMISSION)


def may_organize(user, event):
    return _signed_in(user) and (user.is_superuser or event.organizers.filter(pk=user.pk).exists())


def plays_in(user, battle):
    """Whether the user's own general is one of the battle's two generals."""
    general = general_of(user)
    return general is not None and battle.involves(general)


def organizes_battle(user, battle):
    """R90: an organizer decides a battle (their report counts at once; they confirm, override and
    correct), unless their own general is one of its two: then they report and answer as a general,
    their report waits for the opponent, and another organizer decides. R95: nor does an organizer
    whom one of the battle's generals appointed (directly or through other appointees)."""
    return (may_organize(user, battle.event) and not plays_in(user, battle)
            and appointed_by_a_general_of(user, battle) is None)


PLAYS_OWN_BATTLE = (gettext_lazy("You are one of this battle's generals: your report waits for your "
                                 "opponent like any general's, and another organizer of the event decides "
                                 "it (R90)."))
APPOINTED_BY_A_GENERAL = (gettext_lazy("You organize this event because {appointer}, whose general plays "
                                       "this battle, appointed you: another organizer of the event decides "
                                       "it (R95)."))


def decide_refusal(user, battle):
    """The sentence refusing `user` an organizer's step on the battle."""
    if not may_organize(user, battle.event):
        return NOT_ORGANIZER
    if plays_in(user, battle):
        return PLAYS_OWN_BATTLE
    appointer = appointed_by_a_general_of(user, battle)
    return APPOINTED_BY_A_GENERAL.format(appointer=appointer.get_username()) if appointer else PLAYS_OWN_BATTLE


def appointer_of(user, event):
    """Who made `user` an organizer of `event`: the account that sent the organizer invitation they
    accepted (R95 records "appointed by" there); None for the event's creator and for organizers
    added before invitations existed."""
    invitation = (OrganizerInvitation.objects.filter(event=event, user=user,
                                                     status=OrganizerInvitation.Status.ACCEPTED)
                  .select_related("invited_by").order_by("-answered_at", "-pk").first())
    return invitation.invited_by if invitation is not None else None


def appointed_by_a_general_of(user, battle):
    """R95: the player of one of the battle's generals from whom `user`'s appointment as organizer
    descends (they invited `user`, or invited who invited `user`, ...), or None."""
    players = {battle.general_a.user_id, battle.general_b.user_id} - {None}
    if not players or not _signed_in(user):
        return None
    seen, current = {user.pk}, user
    while True:
        appointer = appointer_of(current, battle.event)
        if appointer is None or appointer.pk in seen:
            return None
        if appointer.pk in players:
            return appointer
        seen.add(appointer.pk)
        current = appointer


def may_be_organizer(user):
    """Only accounts holding the organizer permission (or staff) become co-organizers (and owners)."""
    return _signed_in(user) and user.is_active and (user.is_staff or user.has_perm(ORGANIZE_PERMISSION))


def may_answer_organizer_invitation(user, invitation):
    return _signed_in(user) and invitation.user_id == user.pk


def owns(user, event):
    return _signed_in(user) and event.owner_id == user.pk


def may_hand_over(user, event):
    """The owner hands ownership to a co-organizer (site staff too, for an owner who left)."""
    return owns(user, event) or (_signed_in(user) and user.is_superuser)


NOT_OWNER = gettext_lazy("Only the event's owner hands its ownership over.")
OWNER_STAYS = (gettext_lazy("{name} owns {event}: nobody removes the owner. The owner may hand ownership "
                            "to a co-organizer first."))
NOT_ORGANIZER_MATERIAL = (gettext_lazy("{name} does not hold the organizer permission: only accounts site "
                                       "staff granted it (`manage.py grant_organizer`) organize events."))


def may_record_result(user, battle, *, attested=False):
    """A result reaches a battle from an organizer who does not play in it (R90), or from a report both
    sides stand behind or the window made count (`attested`: `tournaments.results.reporting` checked it, R75)."""
    return attested or organizes_battle(user, battle)


def may_add_generals(user):
    """Organizers create generals for players without an account (they stay unclaimed)."""
    return _signed_in(user) and (user.is_staff or may_create_event(user) or user.organized_events.exists())


# --- generals -------------------------------------------------------------------------------------

def may_enter(user, general):
    """Whether `user` may put `general` into an event: a claimed general only by its own player
    (consent); an unclaimed one by an organizer (checked with `may_organize`)."""
    return general.user_id is None or (_signed_in(user) and general.user_id == user.pk)


def _organizes_an_event_of(user, general):
    """Whether `user` organizes an event `general` is registered in (a withdrawn registration too)."""
    return general.registrations.filter(event__organizers=user).exists()


def may_manage_general(user, general):
    """R96: an unclaimed general belongs to the events that registered it. Its claim code is shown or
    renewed, and it is renamed, only by the organizers of those events (a general registered nowhere
    yet: by the organizer who created it), and only while it is unclaimed; site staff too. Stops a
    rival organizer from reading another event's walk-in's code and claiming it with a second account.
    A general whose player deleted their account is nobody's to hand out again (`player_left_at`)."""
    if general.user_id is not None or general.player_left_at is not None or not _signed_in(user):
        return False
    if user.is_staff or user.is_superuser:
        return True
    if general.registrations.exists():
        return _organizes_an_event_of(user, general)
    return general.created_by_id == user.pk


def may_register_unclaimed(user, general, event):
    """R96: an unclaimed general enters another event only by an organizer of an event it already
    plays in (it is registered there); one registered nowhere yet by any organizer of `event` unless
    another organizer created it. Stops a rival organizer from entering another event's walk-in into a
    hidden event of their own (where its code would be theirs to read). Nor is a general whose player
    left entered anywhere again."""
    if general.user_id is not None or general.player_left_at is not None or not may_organize(user, event):
        return False
    if user.is_staff or user.is_superuser:
        return True
    if general.registrations.exists():
        return _organizes_an_event_of(user, general)
    return general.created_by_id in (None, user.pk)


NOT_YOUR_WALK_IN = (gettext_lazy("{name} plays in another event: only the organizers of an event {name} is "
                                 "registered in enter them elsewhere, or their player once they claim "
                                 "them. Register a new general instead."))
NOT_YOUR_GENERAL = (gettext_lazy("Only the organizers of an event {name} is registered in (or site staff) "
                                 "manage this unclaimed general."))


def may_rename(user, general):
    if not _signed_in(user):
        return False
    if general.user_id is not None:
        return general.user_id == user.pk or user.is_staff
    return may_manage_general(user, general)


def may_see_claim_code(user, general):
    return may_manage_general(user, general)


def may_answer_invitation(user, invitation):
    return _signed_in(user) and invitation.general.user_id == user.pk


# --- league seasons -------------------------------------------------------------------------------

def may_report_arranged(user, season):
    """A member of the season reports a battle they arranged; it waits for the opponent (R75)."""
    general = general_of(user)
    return general is not None and season.memberships.filter(general=general).exists()


def not_a_member(season):
    return (_("Only members of %(event)s in %(season)s report its battles.")
            % {"event": season.event.name, "season": season.name})


NOT_SCHEDULER = (gettext_lazy("Only an organizer schedules battles between other members; a member reports "
                              "their own battle with `opponent`."))


# --- results --------------------------------------------------------------------------------------

def may_submit_list(user, event, general):
    """A general's deck or army list: its own player, or the event's organizers (a list handed in on
    paper, or an unclaimed general's)."""
    return _signed_in(user) and (general.user_id == user.pk or may_organize(user, event))


def may_report(user, battle):
    general = general_of(user)
    return may_organize(user, battle.event) or (general is not None and battle.involves(general))


def reporting_general(report):
    """The general on whose side the report was made (None for an organizer's report)."""
    general = general_of(report.reported_by)
    return general if general is not None and report.battle.involves(general) else None


def opponent_of_reporter(report):
    """The general expected to confirm: the battle's other general than the reporter's."""
    reporter = reporting_general(report)
    return report.battle.opponent_of(reporter) if reporter is not None else None


def may_answer(user, report):
    """Only the opponent confirms or disputes a general's report."""
    opponent = opponent_of_reporter(report)
    return opponent is not None and _signed_in(user) and opponent.user_id == user.pk


def may_decide(user, report):
    """Organizers decide disputed and failed reports, and override any open one; not on a battle of
    their own general (R90)."""
    return organizes_battle(user, report.battle)


def cannot_answer(general):
    """Why nobody can answer a report against `general`, or None (nobody counts alone): an unclaimed
    general has no player, an inactive account cannot sign in. Such a report waits for an organizer:
    the confirmation window never counts it."""
    if general is None:
        return None
    if general.user_id is None:
        return (_("%(general)s is not claimed by a player, so nobody can confirm or dispute this report: "
                  "an organizer decides it.") % {"general": general.name})
    if not general.user.is_active:
        return _("%(general)s's player cannot be reached (the account is inactive): an organizer decides "
                 "it.") % {"general": general.name}
    return None


def dispute_open(battle):
    """A general disputed one of the battle's reports (by disputing it or by reporting another
    result): the dispute stays until that general withdraws it or confirms, or an organizer decides.
    The engine's disputes are not a general's: the reporter may correct them with a new report."""
    return battle.reports.filter(status=Report.Status.DISPUTED, answered_by__isnull=False).exists()


def may_withdraw_dispute(user, report):
    """Only the general who disputed a report withdraws the dispute."""
    return (report.status == Report.Status.DISPUTED and report.answered_by_id is not None
            and _signed_in(user) and report.answered_by_id == user.pk and may_answer(user, report))


def may_see_reports(user, battle):
    """A battle's reports (with replays, dispute and override reasons): its two generals and the
    event's organizers."""
    if not _signed_in(user):
        return False
    return (battle.general_a.user_id == user.pk or battle.general_b.user_id == user.pk
            or may_organize(user, battle.event))


def visible_events(user):
    """The events `user` may see: published ones, and the ones they organize (staff: all)."""
    events = Event.objects.all()
    if user.is_superuser:
        return events
    if user.is_authenticated:
        return events.filter(Q(published=True) | Q(organizers=user)).distinct()
    return events.filter(published=True)


def visible_reports(user, reports):
    """A Report queryset narrowed to those `user` may see."""
    if not _signed_in(user):
        return reports.none()
    if user.is_superuser:
        return reports
    return reports.filter(Q(battle__general_a__user=user) | Q(battle__general_b__user=user)
                          | Q(battle__event__organizers=user)).distinct()
