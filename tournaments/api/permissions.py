"""DRF permission classes over `tournaments.trust`: each view declares its own, per action, so who
may call an endpoint is read where the endpoint is. The services ask the same rules again.

The schema (schema.py) documents 403 for reading wherever a view has a permission class that can refuse
a signed-in user; a class that never refuses reading in practice says so with `refuses_reading = False`."""
from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments import trust


def _event_of(obj):
    return getattr(obj, "event", obj)


class ReadsPublished(BasePermission):
    """Everyone reads published events (and their battles, seasons); organizers read their own too."""

    message = trust.NOT_ORGANIZER
    refuses_reading = False  # the views' querysets (visible_events) already hide the others: 404

    def has_object_permission(self, request, view, obj):
        event = _event_of(obj)
        return event.published or trust.may_organize(request.user, event)


class OrganizesEvent(BasePermission):
    """The event's organizers (for any method: the queue and the audit trail are theirs to read)."""

    message = trust.NOT_ORGANIZER

    def has_object_permission(self, request, view, obj):
        return trust.may_organize(request.user, _event_of(obj))


class OrganizesEventToChange(BasePermission):
    """Reading follows `ReadsPublished`; changing is for the event's organizers."""

    message = trust.NOT_ORGANIZER
    refuses_reading = False  # as ReadsPublished

    def has_object_permission(self, request, view, obj):
        event = _event_of(obj)
        if request.method in SAFE_METHODS:
            return event.published or trust.may_organize(request.user, event)
        return trust.may_organize(request.user, event)


# The former name, kept for the views that still use it.
IsEventOrganizerOrReadOnly = OrganizesEventToChange


class MayCreateEvents(BasePermission):
    """Creating events is a granted role (the `organize_events` permission)."""

    message = trust.NOT_GRANTED
    refuses_reading = False

    def has_permission(self, request, view):
        return getattr(view, "action", None) != "create" or trust.may_create_event(request.user)


class SeesReports(BasePermission):
    """A battle's reports are for its two generals and the event's organizers; reporting is for
    them too (`trust.may_report`)."""

    message = gettext_lazy("Only the two generals of this battle and the event's organizers see and send its reports.")

    def has_object_permission(self, request, view, obj):
        battle = getattr(obj, "battle", obj)
        if request.method in SAFE_METHODS:
            return trust.may_see_reports(request.user, battle)
        return trust.may_report(request.user, battle)


class SchedulesOrReportsSeasonBattles(BasePermission):
    """`POST seasons/{id}/battles/`: an organizer schedules or records a battle between members; a member
    of the season reports a battle they arranged (a body with `opponent`), which waits for the
    opponent like any report (`trust.may_report_arranged`)."""

    message = trust.NOT_SCHEDULER
    refuses_reading = False

    def has_object_permission(self, request, view, obj):
        if request.method in SAFE_METHODS:
            return True
        if hasattr(request.data, "keys") and "opponent" in request.data:
            self.message = trust.not_a_member(obj)
            return trust.may_report_arranged(request.user, obj)
        self.message = trust.NOT_SCHEDULER
        return trust.may_organize(request.user, obj.event)


class AnswersInvitation(BasePermission):
    message = gettext_lazy("Only the invited general's player answers the invitation.")
    refuses_reading = False  # the queryset holds only the user's own invitations: 404

    def has_object_permission(self, request, view, obj):
        return trust.may_answer_invitation(request.user, obj)


class RenamesGeneral(BasePermission):
    message = gettext_lazy("Only the general's player (or site staff) may change a claimed general.")
    refuses_reading = False

    def has_object_permission(self, request, view, obj):
        if obj.user_id is None:  # R96: an unclaimed general is its events' organizers' to rename
            self.message = trust.NOT_YOUR_GENERAL.format(name=obj.name)
        return request.method in SAFE_METHODS or trust.may_rename(request.user, obj)


class AddsGenerals(BasePermission):
    message = gettext_lazy("Only organizers add generals for players without an account.")
    refuses_reading = False

    def has_permission(self, request, view):
        return getattr(view, "action", None) != "create" or trust.may_add_generals(request.user)
