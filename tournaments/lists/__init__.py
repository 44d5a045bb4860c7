"""Deck and army lists: submitted, checked at once by the event's game system, locked at the deadline,
accepted despite violations by an organizer with a reason, shown open or closed."""
