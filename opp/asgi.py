"""The live process's application (the Procfile's `live:`, uvicorn): the event streams
(`GET /live/events/<slug>/stream/`, tournaments/web/live_stream.py) are answered by a small async
handler without Django's middleware, as they are the hot path of 10,000 open pages; every other path
goes to Django, so the process still answers the site's URLs (docs/live-pages.md)."""
import contextlib
import os
import resource

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opp.settings")
django_application = get_asgi_application()  # sets Django up: the stream module needs the models

from tournaments.web import live_stream  # noqa: E402


def _open_files_up_to_the_hard_limit():
    """Each stream is an open socket; a supervisor's default soft limit (systemd's 1024) would refuse
    connections long before OPP_LIVE_MAX_STREAMS, so the process takes what the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # the limit stays: beyond it the pages poll
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


_open_files_up_to_the_hard_limit()


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["method"] == "GET":
        slug = live_stream.stream_slug(scope["path"])
        if slug is not None:
            await live_stream.stream(scope, receive, send, slug)
            return
    await django_application(scope, receive, send)
