"""The Procfile is the one list of the processes a site runs; scripts/run starts one of them."""
import subprocess

from tests.deploy.procfile import ROOT, RUN, process_types


def test_the_procfile_names_the_web_live_worker_and_beat_processes():
    types = process_types()
    assert list(types) == ["web", "live", "worker", "beat"]
    assert "gunicorn opp.wsgi" in types["web"]
    assert "uvicorn opp.asgi:application" in types["live"]
    assert "celery -A opp worker" in types["worker"]
    assert "celery -A opp beat" in types["beat"]


def test_every_process_listens_where_the_environment_says():
    types = process_types()
    for name in ("web", "live"):
        assert "${PORT:-" in types[name] and "${OPP_BIND:-" in types[name], name


def test_run_refuses_an_unknown_process_type_and_lists_the_known_ones():
    answer = subprocess.run(["bash", str(RUN), "webserver"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert answer.returncode == 2
    assert "web live worker beat" in answer.stderr

