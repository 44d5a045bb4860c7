"""The Procfile read as the tests, the container image and the systemd units read it: one command per
process type, run by scripts/run."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROCFILE = ROOT / "Procfile"
RUN = ROOT / "scripts" / "run"


def process_types(path=PROCFILE):
    """{process type: command} in the Procfile's order."""
    types = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, separator, command = line.partition(":")
        if not separator or not name.strip().isidentifier():
            raise ValueError(f"{path.name} line {number} is not 'type: command': {line!r}")
        types[name.strip()] = command.strip()
    return types


def run_command(process_type):
    """The argv that starts one process type (environment: PORT, OPP_BIND, WEB_CONCURRENCY, ...)."""
    if process_type not in process_types():
        raise KeyError(process_type)
    return ["bash", str(RUN), process_type]
