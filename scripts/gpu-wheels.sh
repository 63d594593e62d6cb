#!/usr/bin/env bash
# Fetches the wheels the GPU machine lacks into .whl/ (ignored by git), for
# scripts/gpu-check.sh to install there with `pip install --no-index`, and
# copies the seed's stages beside them (docs/gpu.md).
#
#   bash scripts/gpu-wheels.sh [--python-version 3.12] [--dest .whl]
#
# The machine's own python3 (3.12) has numpy, onnx, onnxruntime, CuPy, torch,
# pytest, pytest-xdist and pytest-timeout; it lacks xdsl (the version pinned in
# pyproject.toml) and xdsl's own needs. All four are pure-Python wheels
# (py3-none-any), so the same files serve any Python 3 here for the dry run.
set -euo pipefail
cd "$(dirname "$0")/.."

PYVER=3.12
DEST=.whl
while [ $# -gt 0 ]; do
  case "$1" in
    --python-version) PYVER=$2; shift 2 ;;
    --dest) DEST=$2; shift 2 ;;
    *) echo "gpu-wheels.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

# The pin, read from pyproject.toml ("xdsl>=0.75,<0.76" -> 0.75).
XDSL=$(sed -n 's/.*"xdsl>=\([0-9.]*\),.*/\1/p' pyproject.toml | head -1)
[ -n "$XDSL" ] || { echo "gpu-wheels.sh: no xdsl pin found in pyproject.toml" >&2; exit 1; }

# xdsl's Requires-Dist, each named: --no-deps keeps out what the machine has.
WANT=("xdsl==$XDSL" "immutabledict<4.3.2" "ordered-set==4.1" "typing-extensions>=4.13,<5")

rm -rf "$DEST"
mkdir -p "$DEST"
PIP=${PYTHON:-python3}
"$PIP" -m pip download -q --no-deps --only-binary=:all: --python-version "$PYVER" \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 \
  --platform any -d "$DEST" "${WANT[@]}"

# Each requirement of each wheel fetched is either fetched too or one the
# machine provides: say which, so a new xdsl with a new need shows here.
for wheel in "$DEST"/*.whl; do
  unzip -p "$wheel" '*.dist-info/METADATA' | sed -n 's/^Requires-Dist: //p' | grep -v 'extra ==' \
    | sed "s|^|  $(basename "$wheel") needs |" || true
done

# The seed's stages (../shared/seed, beside the checkout: the device tool does
# not carry it), which the GPU tests read: they travel in the same folder, and
# gpu_check.py points XHIP_SEED at them where the seed is not beside the repo.
SEED=${XHIP_SEED:-../shared/seed}
if [ -d "$SEED/stages" ]; then
  cp -r "$SEED" "$DEST/seed" && chmod -R u+w "$DEST/seed"
else
  echo "gpu-wheels.sh: no seed at $SEED: test_gpu.py's seed tests will error on the GPU machine" >&2
fi
ls -l "$DEST"
du -sh "$DEST" | sed 's/^/total: /'
