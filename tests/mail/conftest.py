"""A real SMTP server for the mail tests (aiosmtpd on a free port), whose behaviour a test switches:
it hangs (answers nothing for longer than the client's timeout), refuses (421: the service is not
available), or accepts and keeps each mail. What it accepted is what arrived."""
import asyncio
import email
import email.header
import threading

import pytest
from aiosmtpd.controller import Controller

from opp import background
from tests.conftest import free_port


class FlakyServer:
    """The handler: `mode` is "accept", "hang" or "refuse"; `received` lists (recipient, subject)."""

    def __init__(self):
        self.mode = "accept"
        self.hang_seconds = 3.0
        self.received = []
        self.tries = 0
        self._lock = threading.Lock()

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        with self._lock:
            self.tries += 1
        if self.mode == "hang":
            await asyncio.sleep(self.hang_seconds)  # the client gave up meanwhile: nothing is accepted
            return "421 4.3.2 Too slow, closing"
        if self.mode == "refuse":
            return "421 4.3.2 Service not available, closing the channel"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content)
        with self._lock:
            for recipient in envelope.rcpt_tos:
                self.received.append((recipient, str(email.header.make_header(
                    email.header.decode_header(message["Subject"])))))
        return "250 Message accepted"

    def arrivals(self):
        """How often each (recipient, subject) arrived."""
        with self._lock:
            counts = {}
            for item in self.received:
                counts[item] = counts.get(item, 0) + 1
            return counts


@pytest.fixture
def smtp_server(settings):
    """The flaky server, and the settings that send to it over SMTP with a short timeout; jobs run as in the
    embedded default (the background thread), not at once."""
    handler = FlakyServer()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.port = controller.port
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 0.5
    settings.OPP_BACKGROUND_INLINE = False
    yield handler
    handler.mode = "accept"
    background.drain()
    background.stop()  # no sweep of this test's settings runs on into the next tests
    controller.stop()


@pytest.fixture
def four_players():
    """An organizer and a 4-general tournament whose players have addresses, registration open."""
    from django.contrib.auth import get_user_model

    from tournaments.events import services
    from tournaments.events.membership import grant_organizer_role
    from tournaments.models import General

    User = get_user_model()
    organizer = grant_organizer_role(User.objects.create_user("org", password="pw", email="org@example.org"))
    event = services.create_event(name="Harbour Cup", slug="harbour-cup", actor=organizer)
    for name in ("Ada", "Ben", "Cyd", "Dov"):
        user = User.objects.create_user(name.lower(), password="pw", email=f"{name.lower()}@example.org")
        services.register(event, General.objects.create(name=name, user=user), actor=user)
    return event, organizer
