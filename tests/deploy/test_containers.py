"""The Dockerfile and compose.yaml run the Procfile's processes the way CI runs them: through scripts/run,
after installing requirements.lock with --require-hashes and collecting the static files with the README's
own commands (tests/deploy/test_readme_production.py runs those). There is no Docker engine in CI: what can be
checked without one is checked here, and `docker-compose config` reads compose.yaml as Docker would."""
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.conftest import missing_service
from tests.deploy.procfile import ROOT, process_types
from tests.deploy.test_readme_production import readme_production_blocks

COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
ENV_EXAMPLE = ROOT / "deploy" / "env.example"
SECRET_NAMES = re.compile(r"SECRET|PASSWORD|TOKEN|DSN|_KEY$")


def compose():
    return yaml.safe_load(COMPOSE.read_text())


def app_services():
    """The services built from this repository's image: {name: service}."""
    return {name: service for name, service in compose()["services"].items() if "build" in service}


def dockerfile_instructions():
    """[(INSTRUCTION, arguments)] with continued lines joined."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    instructions = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, arguments = line.partition(" ")
            instructions.append((keyword.upper(), " ".join(arguments.split())))
    return instructions


def readme_commands():
    return [line.split("#")[0].strip() for block in readme_production_blocks() for line in block.splitlines()]


def test_every_process_of_the_procfile_is_a_service_running_scripts_run():
    services = app_services()
    commands = {name: service["command"] for name, service in services.items()}
    runs = {name: command[1] for name, command in commands.items() if command[:1] == ["scripts/run"]}
    assert sorted(runs.values()) == sorted(process_types()), commands
    assert all(len(commands[name]) == 2 and name == process_type for name, process_type in runs.items())
    # The one service that is not a process of the Procfile: migrate, run once before the others start.
    assert set(services) - set(runs) == {"migrate"}
    assert " ".join(commands["migrate"]) in readme_commands()


def test_the_processes_wait_for_the_migration_and_healthy_database_and_redis():
    services = compose()["services"]
    for name in process_types():
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "db": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }, name
    assert set(services["migrate"]["depends_on"]) == {"db", "redis"}
    assert services["migrate"]["restart"] == "no"
    assert services["db"]["image"].startswith("postgres:15")
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in services["db"]["volumes"])
    assert services["redis"]["image"].startswith("redis:7")
    for name in ("db", "redis", "worker"):
        assert services[name]["healthcheck"]["test"], name
    # web and live inherit the image's HEALTHCHECK (/healthz); the live process's on its own port.
    assert services["live"]["environment"]["PORT"] == "8001"
    assert "healthcheck" not in services["web"]


def test_no_secret_is_written_in_compose_yaml():
    for name, service in compose()["services"].items():
        environment = service.get("environment") or {}
        for variable, value in environment.items():
            if SECRET_NAMES.search(variable):
                assert str(value).startswith("${"), f"{name}: {variable} is written in compose.yaml"
        database_url = environment.get("DATABASE_URL", "")
        assert not database_url or re.match(r"postgres://\w+:\$\{POSTGRES_PASSWORD", database_url), database_url
    for name in app_services():
        assert compose()["services"][name]["env_file"] == ".env"


def test_the_env_example_names_every_variable_compose_needs_and_holds_only_placeholders():
    example = example_environment()
    interpolated = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    assert interpolated <= set(example), interpolated - set(example)
    for required in ("SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "POSTGRES_PASSWORD"):
        assert required in example, required
    secrets = {name: value for name, value in example.items() if SECRET_NAMES.search(name)}
    assert all(value in ("", "change-me") for value in secrets.values()), secrets


def example_environment():
    return dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text().splitlines()
                if line.strip() and not line.startswith("#"))


def test_a_shell_reads_the_env_example_as_compose_systemd_and_honcho_do():
    names = sorted(example_environment())
    printed = subprocess.run(["sh", "-c", 'set -a && . "$0" && set +a && for n; do printf "%s=%s\\n" "$n" "$(printenv "$n")"; done',
                              str(ENV_EXAMPLE), *names], env={"PATH": "/usr/bin:/bin"}, capture_output=True,
                             text=True, timeout=10)
    assert printed.returncode == 0, printed.stderr
    assert dict(line.split("=", 1) for line in printed.stdout.splitlines()) == example_environment()


def test_the_site_starts_with_the_env_example_once_its_secret_and_servers_are_filled_in():
    settings = {name: value for name, value in os.environ.items()
                if name not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS"}}
    settings.update(example_environment())
    settings.update({"SECRET_KEY": secrets.token_urlsafe(50),
                     "DATABASE_URL": "postgres://opp:secret@db.internal:5432/opp",
                     "REDIS_URL": "redis://redis.internal:6379/0"})
    answer = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                            env=settings, capture_output=True, text=True, timeout=120)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "no issues" in answer.stdout


def test_the_image_installs_the_lock_with_hashes_and_runs_scripts_run_as_a_user_of_its_own():
    instructions = dockerfile_instructions()
    keywords = [keyword for keyword, _ in instructions]
    assert instructions[0] == ("FROM", "python:3.11-slim")
    runs = [arguments for keyword, arguments in instructions if keyword == "RUN"]
    install = next(command for command in runs if "pip install" in command)
    assert "/app/.venv/bin/pip install --require-hashes -r requirements.lock" in install
    assert "python -m venv /app/.venv" in install  # where the Procfile's .venv/bin/... paths point
    assert ("WORKDIR", "/app") in instructions
    # The image runs the README's own commands (which the rehearsal runs), with the venv's absolute path.
    collect = next(command for command in runs if "collectstatic" in command)
    assert collect.split("/app/", 1)[1] in readme_commands()
    assert install.split("&& /app/", 1)[1] in readme_commands()
    # No ENTRYPOINT: a service's command is the whole `scripts/run <type>` (compose.yaml), the default web.
    assert "ENTRYPOINT" not in keywords
    assert instructions[-1] == ("CMD", '["scripts/run", "web"]')
    user = [arguments for keyword, arguments in instructions if keyword == "USER"]
    assert user == ["opp"] and keywords.index("USER") > keywords.index(next(k for k, a in instructions
                                                                         if "collectstatic" in a))
    healthcheck = next(arguments for keyword, arguments in instructions if keyword == "HEALTHCHECK")
    assert "deploy/healthcheck.py" in healthcheck
    # The build-only key lives in one RUN, never in an ENV (which every container would inherit).
    assert not any(keyword in ("ENV", "ARG") and "SECRET_KEY" in arguments for keyword, arguments in instructions)


def test_the_image_leaves_out_secrets_and_local_environments():
    ignored = ROOT.joinpath(".dockerignore").read_text().split()
    for path in (".env", ".venv", ".git", "staticfiles", "*.sqlite3"):
        assert path in ignored, path


@pytest.fixture
def docker_compose():
    program = shutil.which("docker-compose")
    if program is None:
        missing_service("docker-compose is not installed (apt-get install docker-compose; .ci/run installs it).")
    return program


def test_docker_compose_reads_compose_yaml_with_the_env_example(docker_compose, tmp_path):
    shutil.copy(COMPOSE, tmp_path / "compose.yaml")
    shutil.copy(ENV_EXAMPLE, tmp_path / ".env")
    answer = subprocess.run([docker_compose, "-f", "compose.yaml", "config"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    config = yaml.safe_load(answer.stdout)
    assert config["services"]["worker"]["command"] == ["scripts/run", "worker"]
    assert config["services"]["web"]["environment"]["DATABASE_URL"] == "postgres://opp:change-me@db:5432/opp"
    # Without the password compose refuses to start, naming it.
    (tmp_path / ".env").write_text("SECRET_KEY=x\n")
    refused = subprocess.run([docker_compose, "-f", "compose.yaml", "config"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode != 0 and "POSTGRES_PASSWORD" in refused.stderr


def test_the_worker_healthcheck_asks_the_node_name_the_procfile_gives_a_worker_in_a_container():
    # In a container PORT and CELERY_NODENAME are unset: the Procfile names the worker worker-1@<host name>.
    hostname_option = re.search(r"--hostname (\S+)", process_types()["worker"]).group(1)
    default_name = subprocess.run(["bash", "-c", f'printf %s "{hostname_option}"'], env={"PATH": "/usr/bin:/bin"},
                                  capture_output=True, text=True, timeout=10).stdout
    test = compose()["services"]["worker"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    command = shlex.split(test[1])
    assert command[:5] == [".venv/bin/celery", "-A", "opp", "inspect", "ping"]
    destination = command[command.index("--destination") + 1]
    assert default_name == "worker-1@%h" and destination == "worker-1@$$(hostname)"
