"""`xhip run MODEL.onnx`: compile a model, run it on a device, optionally check it.

Inputs come from `--input NAME=FILE.npy`; inputs not given are random, sized
by `--dims` (named dims; unnamed or unlisted dynamic dims are 1). `--check`
runs the same inputs through ONNX Runtime and fails if the results differ.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from xhip.backend import DEVICES
from xhip.cli.common import (
    UserError,
    add_quiet_option,
    first_line,
    umask,
    whole_message,
    writable_dir,
)
from xhip.progress import terminal_progress

if TYPE_CHECKING:
    import numpy as np

RTOL = 1e-4
ATOL = 1e-5


def add_run_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "run",
        help="compile a model and run it (CPU by default)",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    p.add_argument("model", metavar="MODEL.onnx", help="the ONNX model to run")
    p.add_argument(
        "--device",
        choices=DEVICES,
        default="cpu",
        help="where to run: cpu (default), hip, cuda, or auto (a GPU if any, else cpu)",
    )
    p.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="an input array from a .npy file (repeatable)",
    )
    p.add_argument(
        "--dims",
        default="",
        metavar="batch=2,seq=128",
        help="sizes of named dynamic dims for the random inputs",
    )
    p.add_argument(
        "--check", action="store_true", help="compare with ONNX Runtime (CPU)"
    )
    p.add_argument(
        "--output-dir", metavar="DIR", help="write each output to DIR/NAME.npy"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument(
        "--max-memory",
        metavar="SIZE",
        help=(
            "most memory the run may allocate, e.g. 8G, 512M (K/M/G/T decimal, "
            "Ki/Mi/Gi/Ti binary); default: the machine's physical memory. "
            "Larger buffers are refused before they are allocated"
        ),
    )
    p.add_argument(
        "--debug",
        action="store_true",
        help="debug memory: poison fresh and freed memory with NaN, check every view",
    )
    p.add_argument(
        "--no-fuse",
        action="store_true",
        help=(
            "run the IR as onnx-to-hip leaves it, without the backend's fusion "
            "passes (hip-fuse-scaled-softmax, hip-fuse-elementwise)"
        ),
    )
    p.add_argument(
        "--no-graphs",
        action="store_true",
        help=(
            "on a GPU, replay each call's prepared launches one by one instead "
            "of as a CUDA graph or hipGraph"
        ),
    )
    p.add_argument(
        "--memory-plan",
        choices=("seed", "tight"),
        default="seed",
        help=(
            "seed: the pool onnx-to-hip plans (default); tight: hip-plan-memory "
            "after it, a pool at the peak of live bytes for dims near --plan-hint"
        ),
    )
    p.add_argument(
        "--plan-hint",
        type=int,
        default=128,
        metavar="N",
        help="the size of the dynamic dims the tight plan is best for (default 128)",
    )
    add_quiet_option(p)
    p.set_defaults(func=cmd_run)


def parse_dims(text: str) -> dict[str, int]:
    dims: dict[str, int] = {}
    for entry in filter(None, (e.strip() for e in text.split(","))):
        name, sep, value = (part.strip() for part in entry.partition("="))
        if not sep or not name:
            raise UserError(f"--dims: expected NAME=SIZE, got {entry!r}")
        if not value.isascii() or not value.isdigit():
            raise UserError(
                f"--dims {name}: the size must be a non-negative integer, got {value!r}"
            )
        if name in dims:
            raise UserError(f"--dims: {name!r} is given twice")
        dims[name] = int(value)
    return dims


def parse_max_memory(text: str | None) -> int | None:
    """`--max-memory` in bytes; None: the machine's physical memory."""
    # lazy: numpy (which this module imports) stays out of `xhip --help`
    from xhip.backend.memory import parse_size, physical_memory

    if text is None:
        return physical_memory()
    try:
        return parse_size(text)
    except ValueError as e:
        raise UserError(f"--max-memory: {e}") from None


def check_input_memory(
    signature: Any,
    given: Mapping[str, np.ndarray],
    dims: Mapping[str, int],
    limit: int | None,
) -> None:
    """The random inputs are made on the host before anything else: refuse
    them, with their size, before numpy tries."""
    # lazy: numpy stays out of `xhip --help`
    from xhip.backend.memory import MemoryLimitError

    nbytes = sum(a.nbytes for a in given.values())
    for spec in signature.inputs:
        if spec.name not in given:
            shape = [
                d if isinstance(d, int) else dims.get(d, 1) if d else 1
                for d in spec.shape
            ]
            nbytes += math.prod(shape) * spec.dtype.itemsize
    if limit is not None and nbytes > limit:
        error = MemoryLimitError("the inputs", nbytes, limit, plural=True)
        error.dims, error.source = dims, "--max-memory"
        raise UserError(str(error))


def load_inputs(entries: list[str]) -> dict[str, np.ndarray]:
    import numpy as np  # lazy: numpy stays out of `xhip --help`

    arrays: dict[str, np.ndarray] = {}
    for entry in entries:
        name, sep, path = entry.partition("=")
        if not sep or not name or not path:
            raise UserError(f"--input: expected NAME=FILE.npy, got {entry!r}")
        try:
            arrays[name] = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise UserError(f"--input {name}: {path}: no such file") from None
        except (OSError, ValueError, EOFError) as e:
            # numpy calls anything without the .npy header "pickled data".
            reason = "" if "pickle" in str(e) else f" ({e})"
            raise UserError(
                f"--input {name}: {path}: not a .npy file{reason}"
            ) from None
    return arrays


def check_dim_names(signature: Any, dims: Mapping[str, int]) -> None:
    if error := signature.unknown_dims_error(dims):
        raise UserError(f"--dims: {error}")


def random_inputs(
    signature: Any, given: Mapping[str, np.ndarray], dims: Mapping[str, int], seed: int
) -> dict[str, np.ndarray]:
    """The given inputs plus random ones for the rest, named dims from `dims`."""
    import numpy as np  # lazy: as in `load_inputs`

    check_dim_names(signature, dims)
    rng = np.random.default_rng(seed)
    inputs = dict(given)
    for spec in signature.inputs:
        if spec.name in inputs:
            array = inputs[spec.name]
            if array.dtype.kind == "V" and array.dtype.itemsize == spec.dtype.itemsize:
                # np.load gives int4 and float8 (ml_dtypes) arrays back as raw bytes.
                inputs[spec.name] = array.view(spec.dtype)
            continue
        shape = tuple(
            d if isinstance(d, int) else dims.get(d, 1) if d else 1 for d in spec.shape
        )
        if spec.dtype.kind == "f":
            inputs[spec.name] = rng.standard_normal(shape).astype(spec.dtype)
        elif spec.dtype.kind == "b":
            inputs[spec.name] = rng.integers(0, 2, shape).astype(spec.dtype)
        else:
            inputs[spec.name] = rng.integers(0, 10, shape).astype(spec.dtype)
    return inputs


def _compile(args: argparse.Namespace, max_memory: int | None) -> Any:
    from xhip import api  # lazy: the compiler stays out of the CLI's start-up

    with terminal_progress(args.quiet) as progress:
        return api.compile(
            args.model,
            args.device,
            debug=args.debug,
            max_memory=max_memory,
            progress=progress,
            fuse=not args.no_fuse,
            memory_plan=args.memory_plan,
            plan_hint=args.plan_hint,
            graphs=not args.no_graphs,
        )


def _call(model: Any, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The model's outputs. numpy's own errors of a size or index that only
    the run shows (an elementwise op of operands that no longer broadcast, as
    ONNX Runtime also refuses) are one line, saying what they may be."""
    from xhip.backend.runtime import InputError  # lazy: as in `cmd_run`

    try:
        return model(inputs)
    except InputError:
        raise
    except (ValueError, IndexError) as e:
        raise UserError(
            f"the run failed: {first_line(str(e))} (sizes or indices the inputs "
            "give that do not fit the model; if they do, this is a bug in xhip)"
        ) from None


def cmd_run(args: argparse.Namespace) -> int:
    # lazy: the interpreter, sessions and onnx stay out of the CLI's start-up
    from xdsl.utils.exceptions import DiagnosticException

    # lazy: as above, the runtime's errors come with the runtime
    from xhip.backend.interpreter import UnsupportedOpError
    from xhip.backend.memory import MemoryLimitError
    from xhip.backend.runtime import DeviceUnavailable
    from xhip.backend.session import InputError
    from xhip.frontend import OnnxImportError

    if not os.path.exists(args.model):
        raise UserError(f"{args.model}: no such file")
    if args.output_dir:
        writable_dir(args.output_dir)
    dims = parse_dims(args.dims)
    limit = parse_max_memory(args.max_memory)
    try:
        model = _compile(args, limit)
        given = load_inputs(args.input)
        check_dim_names(model.signature, dims)
        check_input_memory(model.signature, given, dims, limit)
        inputs = random_inputs(model.signature, given, dims, args.seed)
        outputs = _call(model, inputs)
        # The outputs are copies: the model's memory goes before ONNX Runtime
        # loads its own copy of the weights for --check.
        model.close()
        del model
    except MemoryLimitError as e:
        e.source = "--max-memory"
        raise UserError(str(e)) from None
    except (DeviceUnavailable, InputError, OnnxImportError, UnsupportedOpError) as e:
        raise UserError(str(e)) from None
    except DiagnosticException as e:  # a pass refuses the model; it names itself
        raise UserError(whole_message(str(e))) from None
    for name, value in outputs.items():
        stats = ""
        if value.size and value.dtype.kind == "f":
            stats = (
                f" mean {value.mean():.6g} min {value.min():.6g} max {value.max():.6g}"
            )
        print(f"{name}: {value.dtype}{list(value.shape)}{stats}")
    if args.output_dir:
        save_outputs(args.output_dir, outputs)
    if args.check:
        return check_against_onnxruntime(args.model, inputs, outputs)
    return 0


def save_outputs(directory: str, outputs: Mapping[str, np.ndarray]) -> None:
    """Each output to DIR/NAME.npy, all or none: written to temporary files
    first, renamed into place once every one is complete."""
    import numpy as np  # lazy: as in `load_inputs`

    staged: list[tuple[str, str]] = []
    try:
        for name, value in outputs.items():
            path = os.path.join(directory, f"{name}.npy")
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as stream:
                np.save(stream, value)
            os.chmod(tmp, 0o666 & ~umask())
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as e:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise UserError(
            f"--output-dir {directory}: cannot write: {e.strerror}"
        ) from None


LOW_PRECISION_TOL = {"float16": (4e-3, 1e-3), "bfloat16": (3e-2, 1e-2)}
"""(rtol, atol) for outputs of fewer mantissa bits than float32: an ulp of
float16 is 1e-3 of the value, so one rounding apart is already past `RTOL`."""


def _flatten(names: list[str], results: Sequence[Any]) -> dict[str, np.ndarray]:
    """ONNX Runtime's results by our output names: a sequence output `s` is
    a list there and `s[0]`, `s[1]`, ... here."""
    import numpy as np  # lazy: as in `load_inputs`

    flat: dict[str, np.ndarray] = {}
    for name, value in zip(names, results):
        if isinstance(value, list):
            for i, item in enumerate(cast(list[Any], value)):
                flat[f"{name}[{i}]"] = np.asarray(item)
        elif value is not None:
            flat[name] = np.asarray(value)
    return flat


def compare(value: np.ndarray, want: np.ndarray) -> tuple[float, bool]:
    """The max abs error and whether `value` agrees with `want`: floats within
    `RTOL`/`ATOL` (looser for float16 and bfloat16), NaN where `want` is NaN,
    infinities equal; anything else (integers, booleans, strings, ml_dtypes'
    float8 and int4, whose casts are exact) equal."""
    import numpy as np  # lazy: as in `load_inputs`

    if value.size == 0:
        return 0.0, True
    if value.dtype.kind == "V" and want.dtype.itemsize == value.dtype.itemsize:
        want = want.view(value.dtype)  # ONNX Runtime gives float8 as raw uint8
    wide = np.complex128 if "c" in (value.dtype.kind, want.dtype.kind) else np.float64
    try:
        got, ref = value.astype(wide).reshape(-1), want.astype(wide).reshape(-1)
    except (TypeError, ValueError):  # strings
        same = bool(np.array_equal(value, want))
        return (0.0 if same else math.inf), same
    with np.errstate(invalid="ignore"):
        diff = np.abs(got - ref)
    diff[(got == ref) | (np.isnan(got) & np.isnan(ref))] = 0
    diff[np.isnan(diff)] = math.inf
    err = float(np.max(diff))
    if value.dtype.kind not in "fc" or want.dtype.kind not in "fc":
        return err, bool(np.array_equal(value, want, equal_nan=value.dtype.kind == "V"))
    rtol, atol = LOW_PRECISION_TOL.get(value.dtype.name, (RTOL, ATOL))
    return err, bool(np.allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True))


def check_against_onnxruntime(
    path: str, inputs: Mapping[str, np.ndarray], outputs: Mapping[str, np.ndarray]
) -> int:
    try:
        import onnxruntime as ort  # lazy: optional, only --check needs it
    except ImportError:
        raise UserError("--check needs onnxruntime (pip install onnxruntime)") from None

    try:
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        results = session.run(names, dict(inputs))
    except Exception as e:  # onnxruntime's own error types, not importable
        lines = str(e).strip().splitlines()
        reason = lines[0] if lines else type(e).__name__
        raise UserError(
            f"--check: ONNX Runtime cannot run {path} on these inputs: {reason}"
        ) from None
    expected = _flatten(names, results)
    failed = False
    for name, value in outputs.items():
        want = expected.get(name)
        if want is None:
            print(f"check {name}: ONNX Runtime gives no such output")
            failed = True
            continue
        if value.shape != want.shape:
            print(
                f"check {name}: shape {value.shape} but ONNX Runtime gives {want.shape}"
            )
            failed = True
            continue
        err, ok = compare(value, want)
        print(f"check {name}: max abs error {err:.3g} {'ok' if ok else 'MISMATCH'}")
        failed |= not ok
    if failed:
        print("xhip run: results differ from ONNX Runtime", file=sys.stderr)
    return 1 if failed else 0
