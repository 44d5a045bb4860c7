# Sourced by scripts/demo and scripts/test: makes sure .venv exists and holds the pinned
# requirements. Reinstalls only when a requirements file changed since the last install.
# Usage: ensure_venv requirements.txt [requirements-dev.txt ...]
ensure_venv() {
  local python_bin=""
  for candidate in "${PYTHON:-}" python3.11 python3; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 \
       && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      python_bin="$candidate"
      break
    fi
  done
  if [ -z "$python_bin" ]; then
    echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)." >&2
    exit 2
  fi
  if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv with $("$python_bin" --version)"
    "$python_bin" -m venv .venv
  fi
  local stamp=".venv/.installed-$(cat "$@" | sha256sum | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    echo "==> installing $* into .venv"
    # The stamp says "installed"; it is written only after every step succeeded, so an install that
    # failed (no network, a package gone) is tried again on the next run instead of leaving a .venv
    # that lacks Django for good.
    rm -f .venv/.installed-*
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
    local args=()
    for file in "$@"; do args+=(-r "$file"); done
    local log
    log="$(mktemp)"
    if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check "${args[@]}" >"$log" 2>&1; then
      grep -v '^WARNING: Location' "$log" >&2 || true
      rm -f "$log"
      echo "error: installing $* into .venv failed (see above); the next run tries again." >&2
      exit 2
    fi
    grep -v '^WARNING: Location' "$log" || true
    rm -f "$log"
    .venv/bin/python -m pip check >/dev/null || { echo "error: pip check failed in .venv" >&2; exit 2; }
    touch "$stamp"
  fi
}
