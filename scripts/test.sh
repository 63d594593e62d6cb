#!/usr/bin/env bash
# The whole test suite: lit + FileCheck tests, then pytest (notebooks included).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
lit -q -sv tests/filecheck
pytest -q -n 2 "$@"
