"""Error reports in production (docs/deployment.md, "Error reports"): every ERROR logged, whichever part of the
site logs it, is mailed to ADMINS, once; Sentry only when SENTRY_DSN is set and sentry-sdk is installed."""
import os
import subprocess
import sys

import pytest

from tests.deploy.procfile import ROOT

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3y-for-the-error-report-check-" + "x7Qp2Lm9Zr4Tv8Wn1Ys6" * 2,
    "ALLOWED_HOSTS": "opp.example.org",
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    "DEFAULT_FROM_EMAIL": "WARLINE Organized Play <noreply@opp.example.org>",
}
LOG_AND_READ_THE_OUTBOX = """
import logging
from django.core import mail
logging.getLogger("tournaments.results.adjudication").error("The engine stopped on battle 12")
logging.getLogger("django.request").error("Internal Server Error: /events/spring/")
logging.getLogger("tournaments.web.live_stream").error("The revision of spring could not be read")
for message in getattr(mail, "outbox", []):
    print(message.to, message.from_email, message.subject)
"""


def manage(*args, env):
    clean = {name: value for name, value in os.environ.items()
             if name not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "ADMINS",
                             "SENTRY_DSN", "EMAIL_BACKEND"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                          env=dict(clean, **env), capture_output=True, text=True, timeout=120)


def shell(code, env):
    return manage("shell", "-v", "0", "-c", code, env=env)


def test_in_production_every_logged_error_is_mailed_to_the_admins_once_but_the_live_streams_do_not_wait_for_mail():
    answer = shell(LOG_AND_READ_THE_OUTBOX, dict(PRODUCTION, ADMINS="Site operators <ops@example.org>, jo@example.org"))
    assert answer.returncode == 0, answer.stderr
    mails = answer.stdout.strip().splitlines()
    assert mails == [
        "['ops@example.org', 'jo@example.org'] WARLINE Organized Play <noreply@opp.example.org> "
        "[Django] ERROR: The engine stopped on battle 12",
        "['ops@example.org', 'jo@example.org'] WARLINE Organized Play <noreply@opp.example.org> "
        "[Django] ERROR: Internal Server Error: /events/spring/",
    ]


def test_without_admins_or_in_development_nothing_is_mailed():
    assert shell(LOG_AND_READ_THE_OUTBOX, PRODUCTION).stdout.strip() == ""
    development = {"DEBUG": "true", "ADMINS": "ops@example.org",
                   "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    assert shell(LOG_AND_READ_THE_OUTBOX, development).stdout.strip() == ""


def test_admins_that_are_not_addresses_stop_start_up_naming_the_setting():
    answer = manage("check", env=dict(PRODUCTION, ADMINS="ops at example dot org"))
    assert answer.returncode != 0
    assert "ADMINS must be addresses separated by commas" in answer.stderr.splitlines()[-1]


def test_sentry_dsn_without_sentry_sdk_installed_stops_start_up_saying_what_to_install():
    try:
        import sentry_sdk  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("sentry-sdk is installed here: the refusal is for sites without it")
    answer = manage("check", env=dict(PRODUCTION, SENTRY_DSN="https://key@o0.ingest.sentry.io/0"))
    assert answer.returncode != 0
    assert "SENTRY_DSN is set but sentry-sdk is not installed" in answer.stderr.splitlines()[-1]
