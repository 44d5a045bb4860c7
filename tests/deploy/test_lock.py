"""requirements.lock: what production and the image install, with `pip install --require-hashes`. It pins every
runtime dependency, transitive ones included, each with its files' hashes, at exactly the versions
requirements.txt pins (scripts/demo and scripts/test install those), so the two cannot drift apart."""
import re

from tests.deploy.procfile import ROOT

REQUIREMENTS = ROOT / "requirements.txt"
LOCK = ROOT / "requirements.lock"
REGENERATE = ("pip-compile --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links "
              "-o requirements.lock requirements.txt")


def normalized(name):
    """PEP 503: Django, django and DJANGO are one project; so are psycopg_binary and psycopg-binary."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path):
    """{project: version} of the `name[extras]==version` lines."""
    found = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)", line)
        if match:
            found[normalized(match.group(1))] = match.group(3)
    return found


def lock_entries():
    """[(project, version, [hashes])] in the lock's order."""
    entries = []
    for line in LOCK.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line)
        if match:
            entries.append((normalized(match.group(1)), match.group(2), []))
        elif (hashed := re.match(r"^\s+--hash=sha256:([0-9a-f]{64})\b", line)) and entries:
            entries[-1][2].append(hashed.group(1))
    return entries


def test_the_lock_pins_exactly_the_versions_requirements_txt_pins():
    wanted = pins(REQUIREMENTS)
    locked = pins(LOCK)
    assert wanted, "requirements.txt pins nothing?"
    drifted = {name: (version, locked.get(name)) for name, version in wanted.items() if locked.get(name) != version}
    assert not drifted, (f"requirements.lock disagrees with requirements.txt (wanted, locked): {drifted}; "
                         f"regenerate it: .venv/bin/{REGENERATE}")


def test_every_locked_release_has_its_hashes_and_nothing_is_locked_twice():
    entries = lock_entries()
    assert len(entries) > len(pins(REQUIREMENTS)), "the lock should hold the transitive dependencies too"
    unhashed = [name for name, _, hashes in entries if not hashes]
    assert not unhashed, f"locked without a hash: {unhashed}"
    names = [name for name, _, _ in entries]
    assert len(names) == len(set(names))


def test_the_lock_says_how_to_regenerate_it_and_names_no_local_package_index():
    text = LOCK.read_text()
    assert REGENERATE in text[:600], "the header names the command that regenerates the lock"
    # An index or a folder of this machine in the lock would send every other machine looking for it.
    options = [line for line in text.splitlines() if line.startswith("-")]
    assert not options, f"machine-specific options in requirements.lock: {options}"
