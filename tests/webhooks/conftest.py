"""A real HTTP receiver on this machine (http.server in a thread) that answers as a test tells it, and
keeps every request it got; the test settings that let deliveries reach it (plain http, a private
address) and run their jobs at once."""
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.reporting.conftest import event_day  # noqa: F401  (a started tournament with player accounts)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


class Receiver:
    """`answers`: what each request gets in turn (the last one again once they run out), each a
    (status, body bytes, headers) or a callable taking the handler."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.requests = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    answer = receiver.answers.pop(0) if len(receiver.answers) > 1 else receiver.answers[0]
                if callable(answer):
                    answer(self)
                    return
                status, text, headers = answer
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_port}/hook"

    @property
    def port(self):
        return self.server.server_port

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    started = []

    def start(*answers):
        found = Receiver(answers or [(200, b"ok", {})])
        started.append(found)
        return found

    yield start
    for found in started:
        found.stop()


@pytest.fixture
def local_test_settings(settings):
    """The test settings a local receiver needs: http and private addresses allowed, jobs run at once,
    short timeouts."""
    settings.OPP_WEBHOOKS_ALLOW_HTTP = True
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = True
    settings.OPP_BACKGROUND_INLINE = True
    settings.OPP_WEBHOOKS_TIMEOUT = 1
    settings.OPP_WEBHOOKS_CONNECT_TIMEOUT = 1
    return settings


@pytest.fixture
def production_mode(settings):
    """Private addresses refused, as in production; plain http still allowed so that the local receiver
    (a stand-in for a public host) can be reached when a test points a public name at it."""
    settings.OPP_WEBHOOKS_ALLOW_HTTP = True
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = False
    settings.OPP_BACKGROUND_INLINE = True
    settings.OPP_WEBHOOKS_TIMEOUT = 1
    settings.OPP_WEBHOOKS_CONNECT_TIMEOUT = 1
    return settings


def documented_verifier():
    """`verify_warline` exactly as docs/webhooks.md shows it to receivers."""
    text = DOCS.read_text()
    section = text.split("## Checking a delivery", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace = {}
    exec(compile(code, str(DOCS), "exec"), namespace)  # noqa: S102 - the documentation's own snippet
    return namespace["verify_warline"]


def payload(request):
    return json.loads(request["body"])


def wait_for(condition, seconds=3.0):
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.fixture
def hooked(event_day, local_test_settings):  # noqa: F811 - the imported fixture, requested
    """The event day with one webhook of its organizer's, registered through the service, listening to
    everything; `hooked(receiver)` points it at the receiver."""
    from tournaments.models import WebhookEndpoint
    from tournaments.webhooks import services

    event, organizer, battle = event_day

    def hook(found, kinds=None):
        return services.register(organizer, event, url=found.url, kinds=kinds or list(WebhookEndpoint.Kind.values))
    return event, organizer, battle, hook
