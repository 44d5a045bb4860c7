"""The jobs: `tournaments.deliver_webhook` tries one delivery; `tournaments.send_due_webhooks` (Celery beat,
and the background thread's sweep in the embedded default) hands on the deliveries whose next try is due.
Neither retries through Celery: the row's `next_attempt_at` is the schedule (tournaments.webhooks.delivery)."""
from __future__ import annotations

from celery import shared_task

from opp.background import register_sweep, run_later
from tournaments.webhooks import delivery


@shared_task(name="tournaments.deliver_webhook", ignore_result=True)
def deliver_webhook(delivery_id):
    return delivery.deliver(delivery_id)


def send_due() -> int:
    """Hands every due delivery to its job; how many."""
    due = delivery.due_ids()
    for delivery_id in due:
        run_later(deliver_webhook, delivery_id)
    return len(due)


@shared_task(name="tournaments.send_due_webhooks", ignore_result=True)
def send_due_webhooks():
    return send_due()


register_sweep(send_due)  # the embedded default's thread runs it as beat runs the task with workers
