#!/usr/bin/env bash
# The whole test suite: lint, types, lit + FileCheck tests, then pytest (notebooks included).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
ruff check --quiet .
# Types (pyproject.toml: strict for the compiler proper): silent unless errors.
if ! types=$(basedpyright --pythonpath .venv/bin/python 2>&1); then
  printf '%s\n' "$types" >&2
  exit 1
fi
lit -q -sv tests/filecheck
pytest -q -n 2 "$@"
