"""How much of onnx's node suite xhip passes, out of what ONNX Runtime passes.

Every case of `onnx.backend.test.case.node` (made here by onnx's generators,
with fixed random data), run through ONNX Runtime and through xhip's ONNX
backend on the CPU, each compared with the case's expected outputs the way
onnx's runner does (its rtol/atol). A case counts when ORT passes it. For
each such case xhip either passes, refuses it (an import or conversion error:
one line), or gives a wrong answer (runs, and an output differs) or crashes.

    python scripts/node_coverage.py [--json F] [-k SUBSTRING] [--jobs N]

Prints the totals and, per op type, the cases xhip does not pass and why.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import warnings
from collections import Counter, defaultdict
from typing import Any

import numpy as np


def _cases() -> list[Any]:
    from onnx.backend.test.case import node  # lazy: seconds of generators

    state = np.random.get_state()
    np.random.seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cases = node.collect_testcases(None)
    finally:
        np.random.set_state(state)
    return [c for c in cases if c.model is not None and c.data_sets]


def _arrays(values: Any) -> list[np.ndarray]:
    from onnx import TensorProto, numpy_helper  # lazy: worker processes

    return [
        numpy_helper.to_array(v) if isinstance(v, TensorProto) else v for v in values
    ]


def _ort(case: Any) -> str:
    import onnxruntime as ort  # lazy: worker processes
    from onnx.backend.test.runner import Runner  # lazy: worker processes

    try:
        options = ort.SessionOptions()
        options.log_severity_level = 4
        session = ort.InferenceSession(
            case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        names = [i.name for i in session.get_inputs()]
        for inputs, outputs in case.data_sets:
            got = session.run(None, dict(zip(names, _arrays(inputs), strict=False)))
            Runner.assert_similar_outputs(
                _arrays(outputs), got, rtol=case.rtol, atol=case.atol
            )
    except Exception:
        return "fail"
    return "pass"


def _xhip(case: Any) -> tuple[str, str]:
    from onnx.backend.test.runner import Runner  # lazy: worker processes

    from xhip.onnx_backend import XhipBackend  # lazy: worker processes

    try:
        if not XhipBackend.is_compatible(case.model):
            return "refused", "unsupported op or type"
        rep = XhipBackend.prepare(case.model, "CPU")
    except Exception as e:
        return "refused", f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"
    try:
        for inputs, outputs in case.data_sets:
            got = rep.run(_arrays(inputs))
            Runner.assert_similar_outputs(
                _arrays(outputs), list(got), rtol=case.rtol, atol=case.atol
            )
    except AssertionError as e:
        return "wrong", " ".join(str(e).split())[:200]
    except Exception as e:
        return "crashed", f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"
    return "pass", ""


def _one(case: Any) -> dict[str, str]:
    ops = sorted({n.op_type for n in case.model.graph.node})
    row = {"case": case.name, "ops": " ".join(ops), "ort": _ort(case)}
    if row["ort"] == "pass":
        row["xhip"], row["why"] = _xhip(case)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write every case's row to this file")
    parser.add_argument("-k", default="", help="only cases whose name has this")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    cases = [c for c in _cases() if args.k in c.name]
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            rows = pool.map(_one, cases, chunksize=4)
    else:
        rows = [_one(c) for c in cases]
    passed_by_ort = [r for r in rows if r["ort"] == "pass"]
    outcome = Counter(r["xhip"] for r in passed_by_ort)
    n = len(passed_by_ort)
    print(f"node cases: {len(rows)}; ONNX Runtime passes {n}")
    for what in ("pass", "refused", "wrong", "crashed"):
        share = 100 * outcome[what] / n if n else 0.0
        print(f"  xhip {what}: {outcome[what]} ({share:.1f}%)")
    missed: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in passed_by_ort:
        if r["xhip"] != "pass":
            missed[r["ops"]].append(r)
    print("\nnot passed, by the ops of the case:")
    for ops, each in sorted(missed.items(), key=lambda kv: -len(kv[1])):
        kinds = Counter(r["xhip"] for r in each)
        print(f"  {len(each):4d}  {ops}  ({dict(kinds)}): {each[0]['why'][:160]}")
    for r in passed_by_ort:
        if r["xhip"] in ("wrong", "crashed"):
            print(f"  {r['xhip'].upper()}: {r['case']}: {r['why']}", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
