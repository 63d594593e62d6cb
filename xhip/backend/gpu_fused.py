"""The GPU runtimes' `hip.fused_elementwise`: one generated kernel per body.

`GpuFused` is mixed into `gpu.KernelRuntime`. A fused op's steps and its
inputs' element types make one grid-stride kernel (`fused_kernel`), compiled
once per process and loaded once per device next to xhip's kernels (a small
module: the head of `kernels/xhip_kernels.h`, `kernels/elementwise.inc` and
the kernel). Its parameter values are not in the source but in a float64
array, as the unfused kernels read theirs, so bodies that differ only there
share a kernel.

Each step is written as the unfused kernel of its op computes it: its
operands loaded from their storage type as that kernel loads them, its
formula's C expression (`elementwise.c_expression`, the switch's own), its
result stored to its element type (float16 rounded, bool as one byte), the
next step loading that again. Casts are `xhip_cast`'s conversions, broadcasts
the unfused kernels' strides (`strided_meta`). The module is compiled as the
unfused kernels are (contraction on, so a step's own formula contracts as its
op's kernel does), but a float result passes `xhip_step` (`FENCE`) before
the next step reads it: a multiply in one step and an add in the next must
not become one FMA, which separate kernels never do. So fused and unfused
agree bit for bit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from xhip.backend.device import DeviceAPI
from xhip.backend.elementwise import (
    ELEMENT_TYPES,
    ElementType,
    _strided_kernel,  # pyright: ignore[reportPrivateUsage]
    c_expression,
    expected_dtypes,
    kernel_for,
    signature,
    value_type,
)
from xhip.backend.gpu_host import GpuHost, strided_meta
from xhip.backend.runtime import DA, DeviceArray, overlaps
from xhip.dialects.formula import Arg, Call, Expr
from xhip.dialects.hip import FusedAttributes, Step
from xhip.dialects.hip.fused import KINDS

TYPES: dict[str, ElementType] = {
    ("ui" + t.name[1:] if t.kind == "u" else t.name): t for t in ELEMENT_TYPES
}
"""A step's element type, as MLIR prints it (`f32`, `ui8`, `i1`)."""

FENCE = """
// A float step's result as the unfused kernels' store and load leave it: the
// device compiler cannot contract (FMA) an operation of one step with one of
// the next across it. NVIDIA: the value through this thread's slot of
// volatile shared memory, as ptxas, after NVVM, still contracts a plain
// mul and add (and forwards a local store to its load); AMD: an empty asm
// the value passes through (LLVM contracts, nothing after it); the
// emulator's g++ (ISO C++ mode: -ffp-contract=off) contracts nothing.
#if defined(__CUDA_ARCH__)
__device__ inline volatile double* xhip_step_slot() {
  __shared__ double slots[1024];  // a block has at most 1024 threads
  return &slots[threadIdx.x];
}
#endif
template <class T>
__device__ inline T xhip_step(T v) {
#if defined(__CUDA_ARCH__)
  volatile T* slot = (volatile T*)xhip_step_slot();
  *slot = v;
  return *slot;
#else
#if defined(__HIP_DEVICE_COMPILE__)
  asm volatile("" : "+v"(v));
#endif
  return v;
#endif
}
"""

_WIDE = {"f": "double", "i": "long long", "u": "unsigned long long"}
"""`xhip_cast`'s intermediate (`xhip_any`'s field) of each kind; bool is `u`."""


class FusionError(ValueError):
    """A body the kernels cannot run (an element type or op without a kernel)."""


@dataclass(frozen=True, slots=True)
class FusedKernel:
    name: str
    source: str
    """The module: the kernels' head, the elementwise prelude, this kernel."""


def _head() -> str:
    """What every kernel needs: `kernels/xhip_kernels.h` up to its generated
    part (`xhip_index`, `xhip_offset`), and the elementwise prelude."""
    folder = resources.files("xhip.backend").joinpath("kernels")
    text = folder.joinpath("xhip_kernels.h").read_text(encoding="utf-8")
    head = text.partition("// @XHIP_ELEMENTWISE_OPS@")[0]
    prelude = folder.joinpath("elementwise.inc").read_text(encoding="utf-8")
    return head + prelude + FENCE


def _args_used(expr: Expr) -> set[int]:
    if isinstance(expr, Arg):
        return {expr.index}
    if isinstance(expr, Call):
        return set().union(*(_args_used(a) for a in expr.args))
    return set()


def _load(t: ElementType, as_bool: bool, var: str) -> tuple[str, str]:
    """(C type, expression) of a stored value of type `t` as an operand."""
    if as_bool:
        return "bool", f"({var} != 0)"
    return t.compute, t.load.format(var)


def _formula_step(
    step: Step, types: Sequence[ElementType], refs: Sequence[str], offset: int
) -> tuple[ElementType, list[str], str]:
    """A formula step as its op's unfused kernel runs it: (result type, the
    statements of a block, the stored value)."""
    op = KINDS[step.kind]
    dtypes = [t.dtype for t in types]
    t = TYPES[step.type]
    dtype = value_type(op, [*dtypes, t.dtype])
    kernel = kernel_for(step.kind, dtype)
    wanted = expected_dtypes(op, dtype)
    if kernel is None or [*dtypes, t.dtype] != wanted:
        raise FusionError(
            f"{step.kind} on {[str(d) for d in dtypes]} to {t.dtype} (no kernel)"
        )
    compute = kernel.type
    sig = signature(op)
    used = _args_used(op.FORMULA)
    lines: list[str] = []
    if step.params:
        lines.append(f"const double* p = params + {offset};")
    for i, (operand, ref) in enumerate(zip(types, refs)):
        ctype, value = _load(operand, sig.operand_is_bool(i, compute), ref)
        lines.append(f"{ctype} {'xyz'[i]} = {value};")
        if i not in used:
            lines.append(f"(void){'xyz'[i]};")
    result = "bool" if op.FORMULA.is_bool() else compute.compute
    value = f"(({result})({c_expression(op.FORMULA, compute.compute, compute.kind)}))"
    return t, lines, t.store.format(value)  # a bool result: t is i1


def _cast_step(source: ElementType, t: ElementType, ref: str) -> tuple[list[str], str]:
    """`xhip_cast` from `source` to `t`: through double, long long or unsigned
    long long by the source's kind, then C's conversion."""
    wide = _WIDE["u" if source.kind == "b" else source.kind]
    lines = [f"{wide} v = ({wide})({source.load.format(ref)});"]
    if t.kind == "f":
        value = f"({t.compute})v"
    elif t.kind == "b":
        value = "v != 0.0" if source.kind == "f" else "v != 0"
    elif source.kind != "f":
        value = f"({t.compute})v"
    elif t.name == "u64":
        value = (
            "(v >= 9223372036854775808.0 ? (unsigned long long)v "
            ": (unsigned long long)(long long)v)"
        )
    else:
        value = f"({t.compute})(long long)v"
    return lines, t.store.format(f"({value})")


@cache
def fused_kernel(
    shape: tuple[tuple[str, tuple[int, ...], int, str], ...],
    inputs: tuple[str, ...],
) -> FusedKernel:
    """The kernel of a body (each step's kind, operands, number of params and
    type) over inputs of these element types (`TYPES` names). FusionError
    where an op has no kernel for its types."""
    types = [TYPES[name] for name in inputs]
    refs = [f"v{i}" for i in range(len(inputs))]
    body = ["(void)params;"]
    body += [f"{t.storage} v{i} = a{i}[at_a{i}];" for i, t in enumerate(types)]
    offset = 0
    for k, (kind, args, n_params, type_) in enumerate(shape):
        operands = [types[a] for a in args]
        names = [refs[a] for a in args]
        if kind == "copy" or (kind == "cast" and operands[0] == TYPES[type_]):
            if operands[0] != TYPES[type_]:
                raise FusionError(f"copy from {operands[0].dtype} to {type_}")
            t, lines, value = operands[0], [], names[0]
        elif kind == "cast":
            t = TYPES[type_]
            lines, value = _cast_step(operands[0], t, names[0])
        else:
            step = Step(kind, args, (0.0,) * n_params, type_)
            t, lines, value = _formula_step(step, operands, names, offset)
        offset += n_params
        if t.storage in ("float", "double") and k < len(shape) - 1:
            value = f"xhip_step({value})"
        body.append(f"{t.storage} s{k};")
        body += ["{", *(f"  {line}" for line in lines), f"  s{k} = {value};", "}"]
        types.append(t)
        refs.append(f"s{k}")
    body.append(f"out[at] = s{len(shape) - 1};")
    digest = hashlib.sha256(repr((shape, inputs)).encode()).hexdigest()[:16]
    floats = {t.name for t in types if t.kind == "f"}
    # `_f64`: every float is double, which the emulator's -ftz never flushes.
    name = f"xhip_fused_{digest}" + ("_f64" if floats == {"f64"} else "")
    srcs = [(f"a{i}", TYPES[n].storage) for i, n in enumerate(inputs)]
    code = _strided_kernel(
        name, "", types[-1].storage, srcs, body, ", const double* params"
    )
    comment = "// hip.fused_elementwise: " + "; ".join(
        f"{kind}({', '.join(map(str, args))}) : {type_}"
        for kind, args, _, type_ in shape
    )
    return FusedKernel(name, "\n".join([_head(), comment, *code, ""]))


def _type_name(dtype: np.dtype[Any]) -> str | None:
    return next((n for n, t in TYPES.items() if t.dtype == dtype), None)


class GpuFused(GpuHost):
    """Mixed into `KernelRuntime`: `fused_elementwise`, its kernels loaded on
    the device as they are first called."""

    def __init__(
        self,
        debug: bool = False,
        device: DeviceAPI | None = None,
        graphs: bool = True,
    ):
        super().__init__(debug, device, graphs)
        self._fused_loaded: set[str] = set()

    def fused_elementwise(
        self, inputs: Sequence[DA], out: DA, attrs: FusedAttributes
    ) -> None:
        """The body's steps per element of `out`, inputs broadcast to it."""
        names = [_type_name(x.dtype) for x in inputs]
        if None in names:
            self.refuse(f"{[str(x.dtype) for x in inputs]} operands")
        shape = tuple((s.kind, s.args, len(s.params), s.type) for s in attrs.steps)
        if any(s.type not in TYPES for s in attrs.steps):
            self.refuse(f"steps of types {[s.type for s in attrs.steps]}")
        if TYPES[attrs.steps[-1].type].dtype != out.dtype:
            self.refuse(f"a {out.dtype} output for a {attrs.steps[-1].type} body")
        try:
            kernel = fused_kernel(shape, tuple(n for n in names if n is not None))
        except FusionError as e:
            self.refuse(str(e))
        if kernel.name not in self._fused_loaded:
            self.device.load_kernels(kernel.source, [kernel.name])
            self._fused_loaded.add(kernel.name)
        scratch: list[DeviceArray] = []
        srcs = list(inputs)
        for i, x in enumerate(srcs):
            same = x.offset == out.offset and x.strides == out.strides
            if overlaps(x, out) and not (same and x.shape == out.shape):
                srcs[i] = self._dense(x)  # written over before it is all read
                scratch.append(srcs[i])
        values = [p for s in attrs.steps for p in s.params]
        params = self._device_meta(np.asarray(values or [0.0], np.float64))
        self._launch_strided(
            kernel.name, [], out, strided_meta(out, *srcs), srcs, [("ptr", params)]
        )
        for s in scratch:
            self.free(s.buffer)
