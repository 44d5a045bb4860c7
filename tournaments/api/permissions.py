from rest_framework.permissions import SAFE_METHODS, BasePermission


class IsEventOrganizerOrReadOnly(BasePermission):
    """Everyone reads published events; an event's organizers change it."""

    message = "Only an organizer of this event may do that."

    def has_object_permission(self, request, view, obj):
        event = getattr(obj, "event", obj)
        if request.method in SAFE_METHODS:
            return event.published or event.is_organizer(request.user)
        return event.is_organizer(request.user)
