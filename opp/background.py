"""Work that must never hold a request: mails and webhook deliveries.

With workers (REDIS_URL set) a job is a Celery task, sent after the commit of what caused it. The
embedded default has no worker (Celery runs tasks eagerly, inside the request): there the job goes to
one thread of this process, which runs it after the response, one job at a time, and every
`OPP_BACKGROUND_SWEEP_SECONDS` runs the registered sweeps (mails and deliveries due for another try),
as Celery beat does with workers.

The durable record of a job is always a row written with the change it reports (a `Notification`, a
`WebhookDelivery`): a job lost here (the process stopped) is found again by the next sweep.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.core.signals import request_started
from django.db import connections

logger = logging.getLogger(__name__)

_jobs: queue.Queue = queue.Queue()
_sweeps: list = []
_thread: threading.Thread | None = None
_start_lock = threading.Lock()


def workers_run() -> bool:
    """True when jobs go to Celery workers; False in the embedded default (no REDIS_URL)."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def run_later(task, *args) -> None:
    """Runs the Celery task `task` with `args` outside this request: on a worker when workers run, else
    on this process's background thread. `OPP_BACKGROUND_INLINE` (a test setting) runs it at once.
    Raises the broker's error when workers run but the broker does not answer: the caller's row stays
    due and the sweep sends it."""
    if workers_run():
        task.delay(*args)
    elif getattr(settings, "OPP_BACKGROUND_INLINE", False):
        task.apply(args=args)
    else:
        _ensure_thread()
        _jobs.put((task, args))


def doubling_pause(attempts: int, first: float, most: float) -> timedelta:
    """The wait before the next try of a job's row after its `attempts`-th failure: `first`, doubled after each
    failure, never more than `most` (mails and webhook deliveries alike)."""
    return timedelta(seconds=min(first * 2 ** max(attempts - 1, 0), most))


def register_sweep(function) -> None:
    """`function()` runs on the background thread every OPP_BACKGROUND_SWEEP_SECONDS (embedded default)."""
    if function not in _sweeps:
        _sweeps.append(function)


def _start_with_the_first_request(**kwargs) -> None:
    """The embedded default: the sweeps start with the process's first request, not its first job, so mails
    and deliveries left due by a restart go without waiting for a new step to start the thread."""
    request_started.disconnect(_start_with_the_first_request, dispatch_uid="opp-background-start")
    if _sweeps and not workers_run() and not getattr(settings, "OPP_BACKGROUND_INLINE", False):
        _ensure_thread()


request_started.connect(_start_with_the_first_request, dispatch_uid="opp-background-start")


def drain() -> None:
    """Waits until the background thread has run every job handed to it (tests, and a clean shutdown)."""
    _jobs.join()


_STOP = object()


def stop(timeout: float = 5.0) -> None:
    """Ends the background thread once it has run the jobs handed to it (tests; a clean shutdown). The next
    job or request starts a new one."""
    global _thread
    with _start_lock:
        thread, _thread = _thread, None
    if thread is not None and thread.is_alive():
        _jobs.put((_STOP, ()))
        thread.join(timeout)


def _ensure_thread() -> None:
    global _thread
    with _start_lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, name="opp-background", daemon=True)
            _thread.start()


def _loop() -> None:
    period = getattr(settings, "OPP_BACKGROUND_SWEEP_SECONDS", 30)
    next_sweep = time.monotonic() + period
    while True:
        if time.monotonic() >= next_sweep:  # also while jobs keep coming: a busy site still retries its mails
            _run_sweeps()
            next_sweep = time.monotonic() + period
        try:
            task, args = _jobs.get(timeout=max(next_sweep - time.monotonic(), 0.01))
        except queue.Empty:
            continue
        if task is _STOP:
            _jobs.task_done()
            return
        try:
            task.apply(args=args)
        except Exception:  # noqa: BLE001 - a job's failure is its row's business; the thread goes on
            logger.exception("background job %s%r failed", getattr(task, "name", task), args)
        finally:
            connections.close_all()
            _jobs.task_done()


def _run_sweeps() -> None:
    for sweep in list(_sweeps):
        try:
            sweep()
        except Exception:  # noqa: BLE001
            logger.exception("background sweep %s failed", getattr(sweep, "__name__", sweep))
        finally:
            connections.close_all()
