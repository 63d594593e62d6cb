#!/usr/bin/env bash
# Device check on a machine with an NVIDIA GPU (docs/benchmarks.md, "GPU device check").
#
#   bash scripts/gpu-check.sh [OUT_DIR] [--cpu-only]
#
# Sets up .venv, installs CuPy for the CUDA major version found, runs the GPU
# tests, runs every model with `xhip run --check` on cuda and cpu, and times
# attention, MHA and a transformer block on cuda, cpu and PyTorch eager (where
# torch imports). Everything lands in OUT_DIR ($1, else $OUT, else
# ./gpu-check-out): one log per step and summary.txt with each step's status.
# No step stops the others. --cpu-only (or XHIP_GPU_CHECK_CPU_ONLY=1) skips
# everything that needs a GPU: a dry run of the rest on any machine.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

CPU_ONLY=${XHIP_GPU_CHECK_CPU_ONLY:-0}
DIR=""
for arg in "$@"; do
  case "$arg" in
    --cpu-only) CPU_ONLY=1 ;;
    *) DIR=$arg ;;
  esac
done
DIR=${DIR:-${OUT:-gpu-check-out}}
mkdir -p "$DIR/models"
DIR=$(cd "$DIR" && pwd)
SUMMARY=$DIR/summary.txt
: >"$SUMMARY"
DEVICES="cpu cuda"
[ "$CPU_ONLY" = 1 ] && DEVICES="cpu"
START=$(date +%s)

note() { echo "$*" | tee -a "$SUMMARY"; }

# step NAME TIMEOUT_S COMMAND...: run it, log to $DIR/NAME.log, record its status.
step() {
  local name=$1 limit=$2 begin rc
  shift 2
  begin=$(date +%s)
  timeout "$limit" "$@" >"$DIR/$name.log" 2>&1
  rc=$?
  local status=ok
  [ $rc -ne 0 ] && status="FAILED rc=$rc"
  [ $rc -eq 124 ] && status="TIMED OUT after ${limit}s"
  note "$(printf '%-44s %-22s %4ss' "$name" "$status" $(($(date +%s) - begin)))"
  return 0
}

note "xhip GPU device check, $(date -u +%Y-%m-%dT%H:%M:%SZ), devices: $DEVICES"
note "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (modified tree)')"

step env 60 bash -c 'uname -a; nvidia-smi || true; nvcc --version || true;
  python3 --version; g++ --version | head -1 || true'

# The venv (setup.sh exits on a failed install: run it in a child shell).
step setup 400 bash -c 'source scripts/setup.sh'
PY=$REPO/.venv/bin/python
export PATH="$REPO/.venv/bin:$PATH"

if [ "$CPU_ONLY" != 1 ]; then
  cuda_major=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  if [ -z "$cuda_major" ]; then
    cuda_major=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: \([0-9]*\)\..*/\1/p')
  fi
  cupy=cupy-cuda12x
  [ "${cuda_major:-12}" -ge 13 ] 2>/dev/null && cupy=cupy-cuda13x
  note "CUDA major version: ${cuda_major:-unknown}, installing $cupy"
  step install-cupy 300 "$PY" -m pip install "$cupy"
  step cupy-device 120 "$PY" -c 'import cupy
n = cupy.cuda.runtime.getDeviceCount(); print("devices:", n)
for i in range(n):
    p = cupy.cuda.runtime.getDeviceProperties(i)
    print(i, p["name"].decode(), "sm_%d%d" % (p["major"], p["minor"]), p["totalGlobalMem"] >> 20, "MiB")
print("nvrtc", cupy.cuda.nvrtc.getVersion())'
  step pytest-gpu 420 "$PY" -m pytest -q -rs -m gpu -p no:cacheprovider tests/pytest
fi
# The kernels on the emulator and through the real compilers (no GPU needed).
step pytest-emulator-kernel-compile 300 "$PY" -m pytest -q -rs -m "emulator or kernel_compile" \
  -p no:cacheprovider tests/pytest

# The models: the example, the transformer block of notebooks/transformer_block.ipynb
# and its multi-head attention alone, plus every .onnx file of tests/ and examples/.
cat >"$DIR/models.py" <<'EOF'
"""Writes the benchmark models to the folder given: attention, mha, block."""
import ast
import sys
from pathlib import Path

import nbformat
import onnx

out = Path(sys.argv[1])
sys.path.insert(0, "examples")
import attention  # noqa: E402

onnx.save(attention.build(), out / "attention.onnx")

# build_block from the notebook: its imports, constants and the function, nothing run.
cell = next(
    c.source
    for c in nbformat.read("notebooks/transformer_block.ipynb", 4).cells
    if c.cell_type == "code" and "def build_block" in c.source
)
tree = ast.parse(cell)
keep = [
    n
    for n in tree.body
    if isinstance(n, (ast.Import, ast.ImportFrom, ast.Assign))
    or (isinstance(n, ast.FunctionDef) and n.name == "build_block")
]
keep = [n for n in keep if "IPython" not in ast.unparse(n)]
scope: dict = {}
exec(compile(ast.Module(body=keep, type_ignores=[]), "block", "exec"), scope)
block = scope["build_block"]()
onnx.save(block, out / "block.onnx")

# MHA: the block's graph up to the attention output projection.
mha = onnx.ModelProto()
mha.CopyFrom(block)
graph = mha.graph
names = [n.name for n in graph.node]
del graph.node[names.index("o_bias") + 1 :]
used = {i for n in graph.node for i in n.input}
kept = [t for t in graph.initializer if t.name in used]
del graph.initializer[:]
graph.initializer.extend(kept)
output = onnx.ValueInfoProto()
output.CopyFrom(graph.output[0])
output.name = "attn"
del graph.output[:]
graph.output.append(output)
onnx.checker.check_model(mha)
onnx.save(mha, out / "mha.onnx")
print("wrote", sorted(p.name for p in out.glob("*.onnx")))
EOF
step make-models 120 "$PY" "$DIR/models.py" "$DIR/models"

models=("$DIR"/models/*.onnx)
while IFS= read -r -d '' f; do models+=("$f"); done \
  < <(find tests examples -name '*.onnx' -print0 2>/dev/null)
for model in "${models[@]}"; do
  [ -f "$model" ] || continue
  base=${model#"$DIR"/}
  base=${base%.onnx}
  base=${base//\//-}
  for device in $DEVICES; do
    step "run-$base-$device" 180 "$REPO/.venv/bin/xhip" run "$model" --device "$device" \
      --check --dims batch=2,seq=128
    step "run-$base-$device-debug" 180 "$REPO/.venv/bin/xhip" run "$model" \
      --device "$device" --check --debug --dims batch=3,seq=37
  done
done

# Timing: median per call, the benchmark shapes of docs/benchmarks.md.
cat >"$DIR/bench.py" <<'EOF'
"""Times each model on each device (and in PyTorch eager where torch imports)."""
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

import xhip

folder, devices = Path(sys.argv[1]), sys.argv[2].split(",")
SHAPES = ((1, 128), (8, 128), (8, 512), (4, 2048))
try:
    import torch

    torch_device = "cuda" if torch.cuda.is_available() else "cpu"
except ImportError:
    torch = None


def median(fn, budget=1.0):
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    times = []
    for _ in range(max(3, min(200, int(budget / max(once, 1e-6))))):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def torch_eager(model):
    """The ONNX graph as eager torch calls (the ops these models use)."""
    weights = {
        t.name: torch.tensor(numpy_helper.to_array(t).copy(), device=torch_device)
        for t in model.graph.initializer
    }

    def run(x):
        env = dict(weights, **{model.graph.input[0].name: x})
        for n in model.graph.node:
            a = [env[i] for i in n.input]
            attrs = {at.name: onnx.helper.get_attribute_value(at) for at in n.attribute}
            if n.op_type == "MatMul":
                r = torch.matmul(a[0], a[1])
            elif n.op_type in ("Add", "Mul", "Sub", "Div"):
                r = getattr(torch, n.op_type.lower())(a[0], a[1])
            elif n.op_type == "Softmax":
                r = torch.softmax(a[0], dim=attrs.get("axis", -1))
            elif n.op_type == "Relu":
                r = torch.relu(a[0])
            elif n.op_type == "Transpose":
                r = a[0].permute(*attrs["perm"])
            elif n.op_type == "Reshape":
                shape = [a[0].shape[i] if s == 0 else s for i, s in enumerate(a[1].tolist())]
                r = a[0].reshape(shape)
            else:
                raise NotImplementedError(n.op_type)
            env[n.output[0]] = r
        return env[model.graph.output[0].name]

    return run


print(f"{'model':10} {'batch x seq':12} " + " ".join(f"{d + ' ms':>10}" for d in devices)
      + (f" {'torch ms':>10} {'xhip/torch':>10}" if torch else ""))
for name in ("attention", "mha", "block"):
    path = folder / f"{name}.onnx"
    if not path.exists():
        print(name, "missing")
        continue
    model = onnx.load(path)
    compiled = {}
    for device in devices:
        try:
            compiled[device] = xhip.compile(path, device=device)
        except Exception as e:  # noqa: BLE001
            print(name, device, "compile failed:", type(e).__name__, e)
    eager = torch_eager(model) if torch else None
    for batch, seq in SHAPES:
        x = np.random.default_rng(0).standard_normal((batch, seq, 64 if name == "attention" else 32))
        x = x.astype(np.float32)
        inputs = {model.graph.input[0].name: x}
        row, outs, times = [], {}, {}
        for device in devices:
            if device not in compiled:
                row.append(f"{'-':>10}")
                continue
            try:
                outs[device] = next(iter(compiled[device](inputs).values()))
                times[device] = median(lambda: compiled[device](inputs))
                row.append(f"{1e3 * times[device]:10.3f}")
            except Exception as e:  # noqa: BLE001
                row.append(f"{'ERR':>10}")
                print(name, device, batch, seq, type(e).__name__, e)
        line = f"{name:10} {f'{batch} x {seq}':12} " + " ".join(row)
        if eager is not None:
            xt = torch.tensor(x, device=torch_device)

            def call():
                y = eager(xt)
                if torch_device == "cuda":
                    torch.cuda.synchronize()
                return y

            with torch.no_grad():
                ref = call().cpu().numpy()
                t = median(call)
            ratio = times.get(devices[-1], float("nan")) / t
            line += f" {1e3 * t:10.3f} {ratio:10.2f}"
            for device, y in outs.items():
                err = float(np.max(np.abs(y - ref)) / max(np.max(np.abs(ref)), 1e-30))
                line += f"  {device} vs torch {err:.1e}"
        print(line, flush=True)
print("torch:", torch.__version__ if torch else "not importable",
      f"({torch_device})" if torch else "")
EOF
step bench 420 "$PY" "$DIR/bench.py" "$DIR/models" "${DEVICES// /,}"
cat "$DIR/bench.log" >>"$SUMMARY" 2>/dev/null

note "total $(($(date +%s) - START))s; logs in $DIR"
grep -c -E 'FAILED|TIMED OUT' "$SUMMARY" | sed 's/^/steps failed: /' | tee -a "$SUMMARY"
exit 0
