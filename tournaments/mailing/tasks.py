"""The mail jobs: `tournaments.send_mails` sends the mails a step queued; `tournaments.send_due_mails`
(Celery beat with workers, the background thread's sweep in the embedded default) sends those whose next
try is due. Neither retries through Celery: the row's `next_attempt_at` is the schedule (`sending`)."""
from __future__ import annotations

from celery import shared_task

from opp.background import register_sweep
from tournaments.mailing import sending

# A batch waits for the mail server at most EMAIL_TIMEOUT per message; the limits end a job stuck anyway
# (its mails are due again when their lease ends, settings.OPP_MAIL_LEASE_SECONDS, longer than these).
LIMITS = {"soft_time_limit": 120, "time_limit": 150}


@shared_task(name="tournaments.send_mails", ignore_result=True, **LIMITS)
def send_mails(ids):
    return sending.send_mails(ids).sent


def send_due() -> int:
    return sending.send_due_mails().sent


@shared_task(name="tournaments.send_due_mails", ignore_result=True, **LIMITS)
def send_due_mails():
    return send_due()


register_sweep(send_due)  # the embedded default's thread runs it as beat runs the task with workers
