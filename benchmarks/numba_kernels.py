"""The CPU runtime with its numba kernels off and on, against ONNX Runtime.

One process: the same model compiled twice, once with the numba thresholds
(`cpu_fused.NUMBA_MIN_ELEMENTS` and the copies `cpu` and `cpu_reduce`
import) out of reach, so every op takes its numpy form, and once as
shipped; then rounds of (numpy, numba, ORT), best of a few calls each, the
ratios within each round. `block` is `transformer_block.py`'s pre-LN block
(d 512, 8 heads); `attention` is `examples/attention.onnx` with
`fuse=False` (its softmax runs, not the fused attention).

    .venv/bin/python benchmarks/numba_kernels.py [block|attention] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import onnx

ROOT = Path(__file__).resolve().parents[1]


def _best_ms(call: Callable[[], object], n: int) -> float:
    call()
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "model", choices=("block", "attention"), nargs="?", default="block"
    )
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import onnxruntime as ort
    from transformer_block import transformer_block

    import xhip
    import xhip.backend.cpu as cpu
    import xhip.backend.cpu_fused as cpu_fused
    import xhip.backend.cpu_reduce as cpu_reduce

    def numba(on: bool) -> None:
        limit = 1 << 16 if on else 1 << 62
        cpu.NUMBA_MIN_ELEMENTS = cpu_fused.NUMBA_MIN_ELEMENTS = limit
        cpu_reduce.NUMBA_MIN_ELEMENTS = limit

    if args.model == "block":
        model, d, fuse = transformer_block(512, 8), 512, True
        shapes = ((8, 128), (4, 512))
    else:
        model, d, fuse = onnx.load(ROOT / "examples" / "attention.onnx"), 64, False
        shapes = ((8, 512), (4, 2048))
    name = model.graph.input[0].name
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    rng = np.random.default_rng(0)
    print(f"{args.model}: cpus {os.cpu_count()}, onnxruntime {ort.__version__}")
    for batch, seq in shapes:
        x = rng.standard_normal((batch, seq, d)).astype(np.float32)
        want = session.run(None, {name: x})[0]
        models = []
        for on in (False, True):
            numba(on)
            compiled = xhip.compile(model, device="cpu", fuse=fuse)
            got = next(iter(compiled({name: x}).values()))  # bound with this setting
            print(
                f"  numba {'on ' if on else 'off'}: max |diff| to ORT {np.abs(got - want).max():.2e}"
            )
            models.append(compiled)
        numba(True)
        n = 5 if batch * seq <= 2048 else 3
        for r in range(args.rounds):
            load = os.getloadavg()[0]
            feed = {name: x}
            off, on = (_best_ms(partial(m, feed), n) for m in models)
            theirs = _best_ms(partial(session.run, None, feed), n)
            print(
                f"{batch:>3} x {seq:<5} round {r + 1}: numpy {off:8.2f} ms  numba "
                f"{on:8.2f} ms  ORT {theirs:8.2f} ms  numpy/ORT {off / theirs:5.2f}  "
                f"numba/ORT {on / theirs:5.2f}  load {load:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
