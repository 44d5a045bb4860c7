"""Production settings come from the environment; a missing one stops start-up with a sentence."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3y-for-the-deploy-check-" + "x7Qp2Lm9Zr4Tv8Wn1Ys6" * 2,
    "ALLOWED_HOSTS": "opp.example.org",
    "DATABASE_URL": "postgres://opp@127.0.0.1:5432/opp",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def manage(*args, env):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"}}
    clean.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_production_values():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_missing_production_setting_stops_start_up_naming_it(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert f"{missing} is not set" in result.stderr
    assert "Traceback" not in result.stderr.splitlines()[-1]


def test_development_runs_on_sqlite_in_the_project_folder_by_default():
    code = "from django.conf import settings; print(settings.DATABASES['default']['NAME'])"
    result = manage("shell", "-v", "0", "-c", code, env={"DEBUG": "true"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(ROOT / "db.sqlite3")


def test_without_redis_jobs_run_in_process_and_with_it_on_the_broker():
    code = ("from django.conf import settings as s; "
            "print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL, s.CACHES['default']['BACKEND'])")
    without = manage("shell", "-v", "0", "-c", code, env={"DEBUG": "true"})
    assert without.stdout.split() == ["True", "memory://", "django.core.cache.backends.locmem.LocMemCache"]
    with_redis = manage("shell", "-v", "0", "-c", code, env={"DEBUG": "true", "REDIS_URL": "redis://127.0.0.1:6379/3"})
    assert with_redis.stdout.split() == [
        "False", "redis://127.0.0.1:6379/3", "opp.cache.DegradingRedisCache"]


def test_a_malformed_boolean_is_refused_with_its_name():
    result = manage("check", env={"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


def test_celery_beat_runs_every_sweep_and_each_names_a_registered_task():
    # One schedule: a second assignment once silently dropped the sweep of waiting adjudications.
    from opp.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert scheduled == {"tournaments.send_waiting_adjudications", "tournaments.confirm_expired_reports",
                         "tournaments.send_due_mails", "tournaments.send_due_webhooks"}
    assert scheduled <= set(app.tasks)


def test_sign_up_is_open_by_default_and_an_unknown_mode_is_refused_with_its_name():
    code = "from django.conf import settings; print(settings.OPP_SIGNUP, settings.LOGIN_URL)"
    default = manage("shell", "-v", "0", "-c", code, env={"DEBUG": "true"})
    assert default.stdout.split() == ["open", "account_login"], default.stderr
    chosen = manage("shell", "-v", "0", "-c", code, env={"DEBUG": "true", "OPP_SIGNUP": "Invite"})
    assert chosen.stdout.split()[0] == "invite"
    wrong = manage("check", env={"DEBUG": "true", "OPP_SIGNUP": "sometimes"})
    assert wrong.returncode != 0 and "OPP_SIGNUP must be open, invite or closed" in wrong.stderr
