"""Keeps the scoreboard's cached head in step with the event: every change writes an audit entry,
and publishing or unpublishing changes the event itself. The head is dropped after the commit, so
the next poll reads the committed state."""
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments.api.scoreboard import forget_local_head
from tournaments.models import AuditEntry, Event
from tournaments.standings.queries import forget_scoreboard_head
from tournaments.web.live_stream import publish_event_change


@receiver(post_save, sender=AuditEntry)
def audit_entry_saved(sender, instance, **kwargs):
    _forget_now_and_after_commit(instance.event.slug)  # audit.record passes the event: no query


@receiver(post_save, sender=Event)
def event_saved(sender, instance, **kwargs):
    _forget_now_and_after_commit(instance.slug)


def _forget_now_and_after_commit(slug):
    # Now, for readers inside this transaction; again after the commit, in case another request
    # cached the old state in between.
    for forget in (forget_scoreboard_head, forget_local_head):
        forget(slug)
        transaction.on_commit(lambda forget=forget: forget(slug))
    transaction.on_commit(lambda: publish_event_change(slug))  # after the forgetting: streams read afresh
