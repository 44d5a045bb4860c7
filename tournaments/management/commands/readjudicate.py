"""Re-runs every stored replay through the workers (e.g. after an engine release) and lists every
verdict that changed. Results are not changed: an organizer decides what a changed verdict means."""
import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Adjudication, Event, Report
from tournaments.results.agreement import map_generals
from tournaments.results.outbox import BATCH_SIZE
from tournaments.results.tasks import readjudicate_batch


class Command(BaseCommand):
    help = "Re-adjudicates stored replays through the workers and lists the verdicts that changed."

    def add_arguments(self, parser):
        parser.add_argument("--event", help="only this event (its slug)")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the workers")

    def handle(self, *args, event=None, timeout=3600, **options):
        adjudications = Adjudication.objects.filter(state=Adjudication.State.DONE).exclude(
            report__status=Report.Status.SUPERSEDED).select_related("report__battle__event")
        if event:
            if not Event.objects.filter(slug=event).exists():
                raise CommandError(f"No event has the slug {event!r}.")
            adjudications = adjudications.filter(report__battle__event__slug=event)
        ids = list(adjudications.order_by("pk").values_list("pk", flat=True))
        if not ids:
            self.stdout.write("No adjudicated replays to re-run.")
            return
        # In batches (docs/performance.md, section 4): one message, one read and one write a batch.
        pending = [(batch, readjudicate_batch.delay(batch))
                   for batch in (ids[start:start + BATCH_SIZE] for start in range(0, len(ids), BATCH_SIZE))]
        results, deadline = {}, time.monotonic() + timeout
        while pending:
            for entry in list(pending):
                batch, job = entry
                if job.ready():
                    answer = job.get(propagate=False)
                    for pk, item in zip(batch, answer if isinstance(answer, list) else [answer] * len(batch),
                                        strict=True):
                        results[pk] = item
                    pending.remove(entry)
            self._progress(len(results), len(ids))
            if pending:
                if time.monotonic() > deadline:
                    waiting = sum(len(batch) for batch, _job in pending)
                    raise CommandError(f"{waiting} replay(s) were not re-adjudicated within {timeout:.0f} s: "
                                       "are the workers running?")
                time.sleep(0.2)
        self.stdout.write("")
        changed = [r for r in results.values() if isinstance(r, dict) and r.get("changed")]
        failed = [pk for pk, r in results.items() if not isinstance(r, dict) or "error" in r]
        for item in changed:
            report = Report.objects.select_related("battle__event", "battle__general_a", "battle__general_b").get(
                pk=item["report"])
            names = _side_names(report)
            self.stdout.write(f"CHANGED {report.battle.event.slug} battle {report.battle.pk} "
                              f"({report.battle}): {_summary(item['before'], names)} -> "
                              f"{_summary(item['after'], names)}")
        for pk in failed:
            error = results[pk]["error"] if isinstance(results[pk], dict) else results[pk]
            self.stdout.write(f"FAILED adjudication {pk}: {error}")
        self.stdout.write(f"{len(ids)} replays re-adjudicated, {len(changed)} verdict(s) changed, "
                          f"{len(failed)} failed.")

    def _progress(self, done, total):
        width = 30
        filled = width * done // total
        stream = self.stdout if sys.stdout.isatty() else None
        line = f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total}"
        if stream:
            stream.write(line, ending="")
            stream.flush()
        elif done == total:
            self.stdout.write(line.strip())


def _side_names(report):
    """{"p1": name, "p2": name} as the replay maps its sides to the battle's generals (R73)."""
    try:
        document = json.loads(report.replay)
    except (ValueError, RecursionError):
        return {}
    mapped, _problem = map_generals(document, report.battle) if isinstance(document, dict) else (None, None)
    return {side: general.name for side, general in mapped.items()} if mapped else {}


def _summary(verdict, names=None):
    names = names or {}
    if not verdict:
        return "none"
    if not verdict.get("valid"):
        error = verdict.get("error") or {}
        return f"invalid ({error.get('code')} at turn {error.get('turn')})"
    parts = [verdict.get("outcome")]
    if verdict.get("winner"):
        parts.append(f"{names.get(verdict['winner'], verdict['winner'])} by {verdict.get('condition')}")
    return " ".join(str(p) for p in parts)
