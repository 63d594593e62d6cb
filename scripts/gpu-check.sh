#!/usr/bin/env bash
# The device check on a machine with an NVIDIA GPU, offline (docs/gpu.md).
#
#   bash scripts/gpu-wheels.sh                  # here, with a network: fills .whl/
#   OUT=dir bash scripts/gpu-check.sh [--dry-run] [--quick] [--python PY] [--strict]
#
# Runs scripts/gpu_check.py with the machine's own python3 ($PYTHON or
# --python to choose another): the wheels of .whl/ are installed with
# `pip install --no-index` into a temporary folder, nothing is fetched. Every
# stage is a subprocess with its own time limit. At most 7 files land in $OUT
# (default ./gpu-check-out): summary.json, report.md, logs.tar.gz and the
# benchmark's JSON and markdown. --dry-run: the emulated device stands in for
# the GPU, on any machine.
set -uo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --python) PY=$2; shift 2 ;;
    --python=*) PY=${1#--python=}; shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
exec "$PY" scripts/gpu_check.py "${ARGS[@]}"
