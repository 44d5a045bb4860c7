"""scripts/_venv.sh marks .venv as installed only after every install step succeeded: an install that
fails (a package that does not exist, no network) leaves no mark, so the next run tries again instead
of failing for good with "No module named django"."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ensure_venv(where: Path, requirements: str):
    (where / "scripts").mkdir(exist_ok=True)
    shutil.copy(ROOT / "scripts" / "_venv.sh", where / "scripts" / "_venv.sh")
    (where / "requirements.txt").write_text(requirements)
    return subprocess.run(["bash", "-c", "source scripts/_venv.sh && ensure_venv requirements.txt"], cwd=where,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHON": sys.executable, "PIP_NO_INDEX": "1",
                               "PIP_FIND_LINKS": str(where / "wheels")})


def test_a_failed_install_leaves_no_mark_and_the_next_run_installs(tmp_path):
    (tmp_path / "wheels").mkdir()
    failed = ensure_venv(tmp_path, "no-such-package-for-this-test==1.0\n")
    assert failed.returncode == 2, failed.stdout + failed.stderr
    assert "the next run tries again" in failed.stderr
    assert not list((tmp_path / ".venv").glob(".installed-*"))
    done = ensure_venv(tmp_path, "")  # nothing to install: succeeds offline, and marks it
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(list((tmp_path / ".venv").glob(".installed-*"))) == 1
