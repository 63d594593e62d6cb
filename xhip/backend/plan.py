"""The compiled fast path: a straight-line `func.func` run as a list of steps.

`Plan` compiles the function once into a flat list of steps over a register
file, folding constants. Per call it costs a few hundred nanoseconds per op
instead of the xDSL interpreter's scoped-dict walk (`interpreter.py`); both run
the functions the builders make (`build_env.py`), so they share one semantics.

`Plan.bind` goes further for one set of argument shapes: it runs the steps
once, keeping every allocation, and returns a `BoundPlan`, the flat list of
the runtime calls with every size, view and parameter resolved. Replaying it
does no size or view work at all; the session keeps one per input shapes.
Consecutive calls that carry the same `merge` become what it makes of them
(`cpu_kernels_gemm.merge`: q, k and v's projections one launch).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import SymbolTable

from xhip.backend.build_env import BuildEnv, OpFn, RuntimeStep, UnsupportedOpError
from xhip.backend.build_hip import build
from xhip.backend.inplace import InPlace
from xhip.backend.runtime import Buffer, DeviceArray, MemoryPlanError, overlaps
from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.transforms.index_arith import INDEX_BINARY

_ALIAS_OPS = (
    xmemref.CastOp,
    memref.CastOp,
    memref.SubviewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.ReinterpretCastOp,
)
"""Ops whose result is another name for (part of) their source's memory."""


def _written_operands(op: Operation) -> tuple[int, ...]:
    """Which operands an op writes: every `outs` of a hip op (a conv's
    workspace, a layer norm's mean), a copy's target; none for other ops."""
    if isinstance(op, hip.HipDPSOp):
        n = len(op.operands)
        return tuple(range(n - len(op.outputs), n))
    if isinstance(op, memref.CopyOp):
        return (1,)
    return ()


def printed_names(function: func.FuncOp) -> dict[SSAValue, str]:
    """Each value's name as the printed IR shows it (`%12`, `%arg3`): the
    names a debug-mode error gives are the ones the user can find."""
    printer = Printer(stream=io.StringIO())
    printer.print_op(function)
    names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
    return {value: f"%{name}" for value, name in names.items()}


class ClobberCheck:
    """Debug mode: no op may write bytes that a live, different value still holds.

    Each value written by an op stays live until the last step reading it or
    any alias of it (`memref.cast`, `subview`, ...). Writing overlapping bytes
    of another live value is the mark of a wrong memory plan, so it raises
    `MemoryPlanError` naming both values, instead of silently giving a wrong
    answer. Rewriting the same value (or an alias) is fine: that is DPS reuse.
    """

    def __init__(
        self,
        ops: Sequence[Operation],
        slots: dict[SSAValue, int],
        names: dict[SSAValue, str] | None = None,
    ):
        root: dict[int, int] = {}
        self.names: dict[int, str] = {}
        """How the message calls each value: its name in the printed IR."""
        for value, slot in slots.items():
            root[slot] = slot
            self.names[slot] = (names or {}).get(value) or f"%{value.name_hint or slot}"
        self.ops = list(ops)
        for op in ops:
            if isinstance(op, _ALIAS_OPS):
                root[slots[op.results[0]]] = root[slots[op.operands[0]]]
        self.last_use: dict[int, int] = {}
        for step, op in enumerate(ops):
            for v in op.operands:
                r = root[slots[v]]
                self.last_use[r] = max(self.last_use.get(r, -1), step)
        self.root = root
        self.live: list[tuple[DeviceArray, int, int, str]] = []
        """(value, its root, the last step using it, the op that wrote it) for
        values written so far."""

    def wrap(
        self, fn: OpFn, step: int, op: Operation, slots: dict[SSAValue, int]
    ) -> OpFn:
        positions = _written_operands(op)
        if not positions:
            return fn
        roots = [self.root[slots[op.operands[p]]] for p in positions]
        untils = [self.last_use.get(root, step) for root in roots]

        def checked(*args: Any) -> Any:
            for position, root in zip(positions, roots):
                written: DeviceArray = args[position]
                for value, other, last, writer in self.live:
                    if other != root and last > step and overlaps(value, written):
                        lo, hi = written.byte_extent()
                        other_lo, other_hi = value.byte_extent()
                        raise MemoryPlanError(
                            f"'{op.name}' writes {self.names[root]} over bytes of "
                            f"{self.names[other]}, which is read again later: "
                            f"{self.names[root]} is bytes [{lo}, {hi}) and "
                            f"{self.names[other]} (written by '{writer}', read by "
                            f"'{self.ops[last].name}') bytes [{other_lo}, "
                            f"{other_hi}) of one {written.buffer.nbytes}-byte buffer"
                        )
            result = fn(*args)
            for position, root, until in zip(positions, roots, untils):
                self.live.append((args[position], root, until, op.name))
            return result

        return checked


def _item(k: int) -> OpFn:
    return lambda values: values[k]


_PURE_OPS = (
    *INDEX_BINARY,
    arith.CmpiOp,
    arith.SelectOp,
    arith.ConstantOp,
    arith.IndexCastOp,
    xmemref.DimOp,
    memref.DimOp,
    memref.ViewOp,
    memref.GetGlobalOp,
    *_ALIAS_OPS,
)
"""Ops whose value a bound plan computes once: sizes, views, constants."""
_ALLOC_OPS = (hip.AllocOp, memref.AllocOp, memref.AllocaOp)
_FREE_OPS = (hip.FreeOp, memref.DeallocOp)

_PURE, _ALLOC, _FREE, _CALL = range(4)
"""What a step is to `Plan.bind`: computed once, an allocation the bound
plan keeps, a free it skips, or a runtime call it replays."""


def _kind(op: Operation, fn: OpFn) -> int | None:
    """The step's kind for `Plan.bind`; None: a bound plan cannot hold it (a
    `hip.readback`, whose sizes depend on data, or an op not known here)."""
    if isinstance(fn, RuntimeStep):
        return _CALL
    if isinstance(op, _ALLOC_OPS):
        return _ALLOC
    if isinstance(op, _FREE_OPS):
        return _FREE
    if isinstance(op, _PURE_OPS):
        return _PURE
    return None


@dataclass
class BoundPlan:
    """A `Plan` for one set of argument shapes: its runtime calls, each with
    every operand resolved, over memory it owns (`buffers`) until the session
    drops it. `results` are the function's results, in that memory; the
    session sets `inputs` (what each call writes first) and, for outputs passed
    as arguments, `results`."""

    calls: tuple[Callable[[], object], ...]
    results: tuple[Any, ...]
    buffers: list[Buffer]
    inputs: tuple[DeviceArray, ...] = ()
    inplace: InPlace | None = None
    """The calls over the caller's inputs and fresh outputs, where the
    session found they give the same bits (inplace.py)."""

    def __call__(self) -> None:
        for call in self.calls:
            call()


class Plan:
    """A straight-line `func.func` compiled once into steps over registers.

    Steps whose operands are all known at build time (constants, index
    arithmetic on them, globals) are folded into the initial registers. In
    debug mode, writes are checked by a `ClobberCheck`.
    """

    _FOLDABLE = (*INDEX_BINARY, arith.ConstantOp, arith.IndexCastOp, memref.GetGlobalOp)

    def __init__(self, function: func.FuncOp, env: BuildEnv):
        if len(function.body.blocks) != 1:
            raise UnsupportedOpError(
                f"the fast path runs single-block functions; @{function.sym_name.data} "
                f"has {len(function.body.blocks)} blocks"
            )
        block = function.body.block
        slots: dict[SSAValue, int] = {arg: i for i, arg in enumerate(block.args)}
        hidden = 0
        known: dict[int, Any] = {}
        steps: list[tuple[OpFn, tuple[int, ...], int]] = []
        step_ops: list[Operation] = []
        kinds: list[int | None] = []
        self.results: tuple[int, ...] = ()
        for op in block.ops:
            if isinstance(op, func.ReturnOp):
                self.results = tuple(slots[v] for v in op.operands)
                step_ops.append(op)
                break
            if op.regions:
                raise UnsupportedOpError(f"the fast path cannot run '{op.name}'")
            fn = build(op, env)
            ins = tuple(slots[v] for v in op.operands)
            out = -1
            if op.results:
                out = len(slots) + hidden
                if len(op.results) == 1:
                    slots[op.results[0]] = out
                else:
                    hidden += 1  # the tuple; one step per result unpacks it
            if isinstance(op, self._FOLDABLE) and all(i in known for i in ins):
                known[out] = fn(*(known[i] for i in ins))
            else:
                steps.append((fn, ins, out))
                step_ops.append(op)
                kinds.append(_kind(op, fn))
            if len(op.results) > 1:
                for k, result in enumerate(op.results):
                    slot = slots[result] = len(slots) + hidden
                    steps.append((_item(k), (out,), slot))
                    step_ops.append(op)
                    kinds.append(_PURE)
        self.clobber: ClobberCheck | None = None
        if env.runtime.debug:
            self.clobber = check = ClobberCheck(
                step_ops, slots, printed_names(function)
            )
            steps = [
                (check.wrap(fn, i, op, slots), ins, out)
                for i, ((fn, ins, out), op) in enumerate(zip(steps, step_ops))
            ]
        self.num_args = len(block.args)
        self.registers: list[Any] = [None] * (len(slots) + hidden)
        for slot, value in known.items():
            self.registers[slot] = value
        self.steps = steps
        self.kinds: tuple[int, ...] | None = None
        """Each step's kind for `bind`; None where the plan cannot be bound
        (debug mode checks every call; a step `_kind` does not know)."""
        if self.clobber is None and None not in kinds:
            self.kinds = tuple(k for k in kinds if k is not None)

    def bind(self, *args: Any) -> BoundPlan:
        """Runs the plan once on `args`, recording it as a `BoundPlan`.

        The allocations it makes stay allocated (the frees are skipped): they
        are the bound plan's, and its calls keep writing them. Replaying the
        plan on the same argument values, with new contents, is this call again.
        """
        assert self.kinds is not None, "Plan.bind: this plan cannot be bound"
        regs = self.registers.copy()
        regs[: self.num_args] = args
        calls: list[Callable[[], object]] = []
        buffers: list[Buffer] = []
        for (fn, ins, out), kind in zip(self.steps, self.kinds):
            operands = [regs[i] for i in ins]
            if kind == _CALL:
                assert isinstance(fn, RuntimeStep)
                call = fn.bind(operands)
                fn.naming(call)
                calls.append(call)
            elif kind != _FREE:
                value = fn(*operands)
                if kind == _ALLOC:
                    buffers.append(value.buffer)
                if out >= 0:
                    regs[out] = value
        results = tuple(regs[i] for i in self.results)
        return BoundPlan(tuple(_merged(calls)), results, buffers)

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        if self.clobber is not None:
            self.clobber.live.clear()
        regs = self.registers.copy()
        regs[: self.num_args] = args
        for fn, ins, out in self.steps:
            value = fn(*[regs[i] for i in ins])
            if out >= 0:
                regs[out] = value
        return tuple(regs[i] for i in self.results)


def _merged(calls: list[Callable[[], object]]) -> list[Callable[[], object]]:
    """`calls` with each run of consecutive calls that carry the same
    `merge` (a backend's: `cpu_kernels_gemm.merge`) replaced by what it
    makes of them: fewer launches of the same work."""
    out: list[Callable[[], object]] = []
    run: list[Callable[[], object]] = []
    merge: Any = None
    for call in [*calls, None]:
        this = getattr(call, "merge", None)
        if run and this is not merge:
            out += merge(run) if len(run) > 1 else run
            run = []
        merge = this
        if call is not None:
            (out if this is None else run).append(call)
    return out


def find_function(module: ModuleOp, name: str) -> func.FuncOp:
    function = SymbolTable.lookup_symbol(module, name)
    if not isinstance(function, func.FuncOp):
        raise UnsupportedOpError(f"the module has no func.func @{name}")
    return function
