"""The trust model: who may do what. Every page, API permission class and service asks here, so the
whole of it reads in one file.

- Creating events is a permission site staff grant (`tournaments.organize_events`, in the admin or
  with `manage.py grant_organizer`); an event's organizers may add co-organizers.
- A general belongs to its player (`General.user`). Only the player enters it into an event
  (self-registration, or accepting an invitation), withdraws it, renames it and claims it.
- A result counts when both generals stand behind it or an organizer decided it: a general reports,
  the opponent confirms or disputes; a replay alone proves the battle is legal, not that it was played.
  An organizer whose own general plays the battle reports it as a general (R90).
- A report, its replay, its dispute and override reasons are for the battle's two generals and the
  event's organizers; the public sees the counted result and the engine's verdict summary.
"""
from __future__ import annotations

from tournaments.domain import NotAllowed

ORGANIZE_PERMISSION = "tournaments.organize_events"

NOT_ORGANIZER = "Only an organizer of this event may do that."
NOT_GRANTED = ("Creating events is a role site staff grant: ask them for the organizer permission "
               "(`manage.py grant_organizer <username>`).")


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
    from tournaments.models import General

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
    their report waits for the opponent, and another organizer decides."""
    return may_organize(user, battle.event) and not plays_in(user, battle)


PLAYS_OWN_BATTLE = ("You are one of this battle's generals: your report waits for your opponent like any "
                    "general's, and another organizer of the event decides it (R90).")


def decide_refusal(user, battle):
    """The sentence refusing `user` an organizer's step on the battle."""
    return PLAYS_OWN_BATTLE if may_organize(user, battle.event) else NOT_ORGANIZER


def may_record_result(user, battle, *, attested=False):
    """A result reaches a battle from an organizer who does not play in it (R90), or from a report both
    sides stand behind or the window made count (`attested`: `tournaments.reporting` checked it, R75)."""
    return attested or organizes_battle(user, battle)


def may_add_generals(user):
    """Organizers create generals for players without an account (they stay unclaimed)."""
    return _signed_in(user) and (user.is_staff or may_create_event(user) or user.organized_events.exists())


# --- generals -------------------------------------------------------------------------------------

def may_enter(user, general):
    """Whether `user` may put `general` into an event: a claimed general only by its own player
    (consent); an unclaimed one by an organizer (checked with `may_organize`)."""
    return general.user_id is None or (_signed_in(user) and general.user_id == user.pk)


def may_rename(user, general):
    if not _signed_in(user):
        return False
    if general.user_id is not None:
        return general.user_id == user.pk or user.is_staff
    return user.is_staff or general.created_by_id == user.pk or _organizes_an_event_of(user, general)


def may_see_claim_code(user, general):
    return (general.user_id is None and _signed_in(user)
            and (user.is_staff or general.created_by_id == user.pk or _organizes_an_event_of(user, general)))


def _organizes_an_event_of(user, general):
    return user.is_superuser or general.registrations.filter(event__organizers=user).exists() \
        or general.invitations.filter(event__organizers=user).exists()


def may_answer_invitation(user, invitation):
    return _signed_in(user) and invitation.general.user_id == user.pk


# --- league seasons -------------------------------------------------------------------------------

def may_report_arranged(user, season):
    """A member of the season reports a battle they arranged; it waits for the opponent (R75)."""
    general = general_of(user)
    return general is not None and season.memberships.filter(general=general).exists()


def not_a_member(season):
    return f"Only members of {season.event.name} in {season.name} report its battles."


NOT_SCHEDULER = ("Only an organizer schedules battles between other members; a member reports their own battle "
                 "with `opponent`.")


# --- results --------------------------------------------------------------------------------------

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


def may_see_reports(user, battle):
    """A battle's reports (with replays, dispute and override reasons): its two generals and the
    event's organizers."""
    if not _signed_in(user):
        return False
    return (battle.general_a.user_id == user.pk or battle.general_b.user_id == user.pk
            or may_organize(user, battle.event))


def visible_reports(user, reports):
    """A Report queryset narrowed to those `user` may see."""
    from django.db.models import Q

    if not _signed_in(user):
        return reports.none()
    if user.is_superuser:
        return reports
    return reports.filter(Q(battle__general_a__user=user) | Q(battle__general_b__user=user)
                          | Q(battle__event__organizers=user)).distinct()
