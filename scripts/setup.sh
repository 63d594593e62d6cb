# Sourced by the other scripts: make .venv and install xhip with its dev extras.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.xhip-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  log=.venv/pip-install.log
  if ! { .venv/bin/python -m pip install -q --upgrade pip \
         && .venv/bin/python -m pip install -q -e '.[dev]'; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: pip install failed (log above, also in $log)" >&2
    exit 1
  fi
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
