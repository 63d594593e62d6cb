"""A differential fuzzer: random valid ONNX graphs, xhip against ONNX Runtime.

`generate(seed)` builds a graph of random ops over one or two float32 inputs
with named dynamic dims (`batch`, `seq`), with reused values and several
outputs; `check(seed, runtime)` compiles it with xhip, runs it on `runtime`
(the CPU runtime, or a GPU runtime on the emulator: `RUNTIMES`) and in ONNX
Runtime on the same random inputs at random dims and says how it went:
`match`, `mismatch` (a wrong answer: the thing this hunts), `refused` (xhip
said in one line that it cannot convert something), `unsupported` (the GPU
runtime said in one line that it has no kernel for an op in that type): both
counted, not failures) or `error` (any other exception: a bug too).

Each op type has one generator in `GENERATORS` (an ONNX Runtime contrib op's
named with its domain, `com.microsoft.FastGelu`), gathered from one module per
family of ops (`compute`, `reduce`, `conv`, ..., named like the `onnx_to_hip`
module that converts the family) over the graph-building core in `graph`; an
op newer than the base opset declares the opset it needs in its family's
`OPSETS`, and a graph imports the largest its ops need. An op the importer
reads without a generator is listed by `unfuzzed_ops()`, which a test keeps
empty. `python scripts/fuzz.py --seeds 5000` is the long run.
"""

from xhip.testing.fuzz.driver import (
    ATOL,
    FAMILIES,
    GENERATORS,
    NOT_DRAWN,
    OPSETS,
    OUTCOMES,
    RTOL,
    RUNTIMES,
    Case,
    Outcome,
    Result,
    check,
    generate,
    make_runtime,
    unfuzzed_ops,
)
from xhip.testing.fuzz.graph import OPSET, Generator, Graph, Shape, Value

__all__ = [
    "ATOL",
    "FAMILIES",
    "GENERATORS",
    "NOT_DRAWN",
    "OPSET",
    "OPSETS",
    "OUTCOMES",
    "RTOL",
    "RUNTIMES",
    "Case",
    "Generator",
    "Graph",
    "Outcome",
    "Result",
    "Shape",
    "Value",
    "check",
    "generate",
    "make_runtime",
    "unfuzzed_ops",
]
