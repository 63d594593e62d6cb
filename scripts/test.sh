#!/usr/bin/env bash
# The whole test suite: lint, lit + FileCheck tests, then pytest (notebooks included).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
ruff check --quiet .
lit -q -sv tests/filecheck
pytest -q -n 2 "$@"
