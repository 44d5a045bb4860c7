"""The systemd units run the Procfile's processes through scripts/run with the site's environment file, as a
user of their own, restarted when they fail; the example proxy sends the live streams to the live processes
unbuffered and everything else to the web processes."""
import re
import shutil
import subprocess

import pytest

from tests.deploy.procfile import ROOT, RUN, process_types

SYSTEMD = ROOT / "deploy" / "systemd"
NGINX = ROOT / "deploy" / "nginx" / "opp.conf"


def unit(path):
    """{section: {key: [values]}}: systemd allows a key more than once."""
    sections, current = {}, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            current.setdefault(key.strip(), []).append(value.strip())
    return sections


def services():
    return {path.name: unit(path) for path in sorted(SYSTEMD.glob("*.service"))}


def test_every_unit_runs_a_process_of_the_procfile_through_scripts_run_and_every_process_has_one():
    started = {}
    for name, sections in services().items():
        (command,) = sections["Service"]["ExecStart"]
        program, process_type = command.split()
        assert program == "/srv/opp/scripts/run", name
        assert process_type in process_types(), name
        started[process_type] = name
    assert set(started) == set(process_types())
    assert started["beat"] == "opp-beat.service", "beat runs once per site: no template"
    assert {started[t] for t in ("web", "live", "worker")} == {"opp-web@.service", "opp-live@.service",
                                                               "opp-worker@.service"}


def test_units_read_the_site_environment_run_as_opp_restart_on_failure_and_are_hardened():
    for name, sections in services().items():
        service = sections["Service"]
        single = {key: values[-1] for key, values in service.items()}
        assert single["EnvironmentFile"] == "/etc/opp/env", name
        assert single["WorkingDirectory"] == "/srv/opp", name
        assert single["User"] == "opp" and single["Group"] == "opp", name
        assert single["Restart"] == "on-failure", name
        for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                           "PrivateTmp": "yes", "CapabilityBoundingSet": ""}.items():
            assert single.get(key) == value, f"{name}: {key}"
        assert sections["Unit"]["PartOf"] == ["opp.target"] and sections["Install"]["WantedBy"] == ["opp.target"]


def test_each_web_and_live_instance_listens_on_its_instance_port_and_workers_have_node_names_of_their_own():
    units = services()
    assert "PORT=%i" in units["opp-web@.service"]["Service"]["Environment"]
    assert "PORT=%i" in units["opp-live@.service"]["Service"]["Environment"]
    assert "CELERY_NODENAME=worker%i@%%h" in units["opp-worker@.service"]["Service"]["Environment"]
    beat = units["opp-beat.service"]["Service"]
    assert beat["StateDirectory"] == ["opp-beat"]
    assert "CELERY_BEAT_SCHEDULE=/var/lib/opp-beat/celerybeat-schedule" in beat["Environment"]
    assert unit(SYSTEMD / "opp.target")["Install"]["WantedBy"] == ["multi-user.target"]


def test_systemd_itself_reads_the_units_without_a_complaint(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the units are checked by the tests above only")
    # A machine root with the units installed, /srv/opp/scripts/run in place and the system's own units.
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    for path in SYSTEMD.iterdir():
        shutil.copy(path, tmp_path / "etc/systemd/system" / path.name)
    (tmp_path / "srv/opp/scripts").mkdir(parents=True)
    shutil.copy(RUN, tmp_path / "srv/opp/scripts/run")
    (tmp_path / "usr/lib/systemd").mkdir(parents=True)
    (tmp_path / "usr/lib/systemd/system").symlink_to("/usr/lib/systemd/system")
    instances = ["opp-web@8000.service", "opp-live@8001.service", "opp-worker@1.service", "opp-beat.service",
                 "opp.target"]
    answer = subprocess.run([analyze, "verify", f"--root={tmp_path}", *instances], capture_output=True, text=True,
                            timeout=60)
    complaints = [line for line in (answer.stdout + answer.stderr).splitlines() if "opp" in line]
    assert answer.returncode == 0 and not complaints, complaints


def nginx_locations():
    """{location: body} of the example's server block (one level of braces inside a location)."""
    return dict(re.findall(r"^\s*location ([^{]+?)\s*\{(.*?)^\s*\}", NGINX.read_text(), re.S | re.M))


def test_the_proxy_sends_live_streams_unbuffered_to_the_live_processes_and_the_rest_to_the_web():
    locations = nginx_locations()
    stream = next(body for location, body in locations.items() if "stream" in location)
    pattern = next(location for location in locations if "stream" in location)
    regex = re.compile(pattern.removeprefix("~").strip())
    assert regex.match("/live/events/spring-open-2026/stream/")
    assert not regex.match("/live/events/spring-open-2026/") and not regex.match("/events/spring-open-2026/")
    assert "proxy_pass http://opp_live;" in stream and "proxy_buffering off;" in stream
    assert re.search(r"proxy_read_timeout (\d+)h;", stream)
    assert "proxy_pass http://opp_web;" in locations["/"]
    text = NGINX.read_text()
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text
    assert re.search(r"upstream opp_live \{[^}]*:8001", text) and re.search(r"upstream opp_web \{[^}]*:8000", text)


def test_nginx_accepts_the_example_with_a_certificate_in_place(tmp_path):
    nginx, openssl = shutil.which("nginx", path="/usr/sbin:/usr/bin:/sbin:/bin"), shutil.which("openssl")
    if nginx is None or openssl is None:
        pytest.skip("nginx (or openssl) is not installed: the example is checked by the test above only")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=opp.example.org",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    # The example as it is, but for where the certificate lies on this machine.
    example = NGINX.read_text()
    for placeholder, generated in (("/etc/letsencrypt/live/opp.example.org/fullchain.pem", "cert.pem"),
                                   ("/etc/letsencrypt/live/opp.example.org/privkey.pem", "key.pem")):
        assert placeholder in example
        example = example.replace(placeholder, str(tmp_path / generated))
    (tmp_path / "opp.conf").write_text(example)
    (tmp_path / "nginx.conf").write_text(f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
                                         f"http {{\n    access_log off;\n    include {tmp_path}/opp.conf;\n}}\n")
    answer = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                            capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0 and "test is successful" in answer.stderr, answer.stderr
