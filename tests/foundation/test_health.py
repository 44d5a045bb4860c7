"""`GET /healthz` and `manage.py health` say for the database, Redis and the workers whether each answers."""
import pytest
from django.core.management import call_command


def healthz(client, status_code):
    """The health endpoint's body, once its HTTP status is the expected one."""
    response = client.get("/healthz")
    assert response.status_code == status_code
    return response.json()


@pytest.mark.django_db
def test_healthz_without_redis_reports_in_process_jobs(client):
    body = healthz(client, 200)
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert "in-process" in body["checks"]["redis"]["detail"]
    assert "in-process" in body["checks"]["workers"]["detail"]


@pytest.mark.django_db
def test_healthz_is_503_when_redis_does_not_answer(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    body = healthz(client, 503)
    assert body["status"] == "down"
    assert body["checks"]["redis"]["ok"] is False
    assert "does not answer" in body["checks"]["redis"]["detail"]


@pytest.mark.django_db
def test_healthz_with_redis_but_no_worker_is_degraded_not_down(client, settings, redis_url):
    settings.REDIS_URL = redis_url
    from opp.celery import app

    app.conf.broker_url = redis_url
    try:
        body = healthz(client, 200)
    finally:
        app.conf.broker_url = "memory://"
    assert body["checks"]["redis"]["ok"] is True
    assert body["status"] == "degraded"
    assert "no worker answered" in body["checks"]["workers"]["detail"]


@pytest.mark.django_db
def test_health_command_prints_each_check_and_exits_0_when_all_answer(capsys):
    call_command("health")
    out = capsys.readouterr().out
    assert "database" in out and "redis" in out and "workers" in out
    assert "status: ok" in out


@pytest.mark.django_db
def test_health_command_exits_1_when_redis_is_down(settings, capsys):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    with pytest.raises(SystemExit) as exit_info:
        call_command("health")
    assert exit_info.value.code == 1
    assert "status: down" in capsys.readouterr().out
