"""A general's record across events, head to head against another general, their recent battles, and
the directory of generals: read-only queries for the profile pages and the API.

Every function takes the events the viewer may see (`tournaments.trust.visible_events`), so a battle,
an event's name or a place in an unpublished event never reaches someone who may not see that event.
"""
