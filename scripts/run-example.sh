#!/usr/bin/env bash
# The main job: build the attention example as a real .onnx file, compile it with the
# onnx-to-hip pipeline, run it on the CPU and check the result against ONNX Runtime.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
python examples/attention.py -o examples/attention.onnx
xhip compile examples/attention.onnx -o examples/attention.hip.mlir --externalize-output-dir examples
xhip run examples/attention.onnx --device cpu --dims batch=2,seq=64 --check "$@"
