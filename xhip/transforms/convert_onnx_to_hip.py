"""`convert-onnx-to-hip`: ONNX ops -> hip DPS ops in tensor mode.

Shape computations are folded first (`onnx-fold-shapes`). One pattern per ONNX op (`xhip/transforms/onnx_to_hip/`), applied in program
order. Constants with at least `externalize-min-num-elements` elements are
written to `<externalize-output-dir>/model.constants.bin` (see
`docs/constants-file.md`) and become `memref.global`s with
`hip.external_data`; without that option every constant stays inline.
`onnx.EntryPoint` is dropped. Every op that cannot be converted is reported,
with its node name, in one error; the constants file is then not written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects import onnx
from xhip.dialects.hip import CONSTANTS_FILE, CONSTANTS_FILE_ATTR
from xhip.transforms.onnx_fold_shapes import OnnxFoldShapesPass
from xhip.transforms.onnx_to_hip import Converters
from xhip.transforms.onnx_to_hip.constants import (
    ConstantPolicy,
    ConstantsFile,
    ConvertConstant,
)
from xhip.transforms.onnx_to_hip.shapes import materialize_shape_values, within
from xhip.transforms.onnx_to_hip.support import ConversionState, op_name
from xhip.transforms.typed_patterns import TypedPatternApplier


class EraseEntryPoint(RewritePattern):
    """`onnx.EntryPoint` only names the function the runtime calls; it goes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: onnx.EntryPointOp, rewriter: PatternRewriter
    ) -> None:
        rewriter.erase(op)


def _erase_dead_constants(ops: list[Operation]) -> list[Operation]:
    """Shape and axes constants die with the ops that read them (`ops`: the
    module's, in walk order); the others are returned, in order."""
    dead: set[int] = set()
    for op in reversed(ops):
        if isinstance(op, onnx.ConstantOp) and not op.output.uses:
            op.detach()
            op.erase()
            dead.add(id(op))
    return [op for op in ops if id(op) not in dead] if dead else ops


def _sort_attributes(module: builtin.ModuleOp) -> None:
    """MLIR keeps attribute dictionaries sorted by name; so do we."""
    module.attributes = dict(sorted(module.attributes.items()))


class ConverterApplier(TypedPatternApplier):
    """`TypedPatternApplier` over `first`, the op patterns and `last`, where
    the op patterns' modules load as the walk meets the ops they convert
    (`Converters`): an op is given the same patterns as with every module."""

    def __init__(
        self,
        first: Sequence[RewritePattern],
        converters: Converters,
        last: Sequence[RewritePattern],
    ) -> None:
        self.first, self.converters, self.last = list(first), converters, list(last)
        super().__init__(self._all())

    def _all(self) -> list[RewritePattern]:
        return [*self.first, *self.converters.patterns(), *self.last]

    def patterns_for(self, cls: type[Operation]) -> tuple[RewritePattern, ...]:
        if not self.has_met(cls) and self.converters.load_for(cls.name):
            self.extend(self._all())
        return super().patterns_for(cls)


class NeedsStaticShapes(PassFailedException):
    """Every op left was refused only for a dim known at run time
    (`DimsMustBeStatic`): the model compiles once its input shapes are fixed."""


def _failures(leftovers: list[Operation]) -> list[Operation]:
    """The ops to name: not a constant left only because the ops that use it
    were (a Resize's scales), nor an op inside a region of one left (a Loop's
    `onnx.Yield`), which would read as failures of their own."""
    left = {id(op) for op in leftovers}

    def inside_left(op: Operation) -> bool:
        parent = op.parent_op()
        while parent is not None:
            if id(parent) in left:
                return True
            parent = parent.parent_op()
        return False

    def only_for_left(op: Operation) -> bool:
        return op_name(op) == "onnx.Constant" and all(
            id(use.operation) in left for r in op.results for use in r.uses
        )

    return [
        op for op in leftovers if not inside_left(op) and not only_for_left(op)
    ] or leftovers


@dataclass(frozen=True)
class ConvertOnnxToHipPass(ModulePass):
    name = "convert-onnx-to-hip"

    externalize_min_num_elements: int | None = None
    """Constants with at least this many elements go to the constants file."""

    externalize_output_dir: str = "."
    """Where `model.constants.bin` is written."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # Scan and Loop unrolled first: the walker below converts only the ops
        # there when it starts, and folding then sees the iteration numbers.
        if onnx.family_loaded("control_flow") or onnx.family_loaded("sequence"):
            # An op or type of a family not loaded cannot be in the model.
            # lazy: the control flow patterns, only for a model that has some
            from xhip.transforms.onnx_to_hip.control_flow import unroll_control_flow

            unroll_control_flow(op)
        OnnxFoldShapesPass().apply(ctx, op)
        state = ConversionState()
        output = (
            ConstantsFile(self.externalize_output_dir)
            if self.externalize_min_num_elements is not None
            else None
        )
        policy = ConstantPolicy(self.externalize_min_num_elements, output)
        try:
            self._convert(op, state, policy)
            path = output.commit() if output is not None else None
        finally:
            if output is not None:
                output.discard()
        if path is not None:
            op.attributes[CONSTANTS_FILE_ATTR] = StringAttr(CONSTANTS_FILE)
            _sort_attributes(op)
        policy.elided.warn()

    def _convert(
        self, module: builtin.ModuleOp, state: ConversionState, policy: ConstantPolicy
    ) -> None:
        PatternRewriteWalker(
            ConverterApplier(
                [ConvertConstant(state, policy)], Converters(state), [EraseEntryPoint()]
            ),
            apply_recursively=False,
        ).rewrite_module(module)
        # One walk for the steps below: they erase ops and add none that
        # the next one looks for (`materialize_shape_values`).
        ops = _erase_dead_constants(list(module.walk()))
        materialize_shape_values(module, state, ops)
        leftovers = [
            op for op in ops if op_name(op).startswith("onnx.") and within(op, module)
        ]
        if leftovers:
            leftovers = _failures(leftovers)
            error = (
                NeedsStaticShapes
                if all(id(op) in state.static_dims for op in leftovers)
                else PassFailedException
            )
            raise error(
                f"convert-onnx-to-hip: {len(leftovers)} op(s) cannot be converted:\n"
                + "\n".join(
                    f"  {state.message(op, 'no conversion to hip for this op')}"
                    for op in leftovers
                )
            )
