"""`hip-resolve-extern-constants`: externalized weights become views of one blob.

`convert-onnx-to-hip` wrote the large constants to a file and left a
`memref.global` with `hip.external_data = {offset, size}` for each. The runtime
loads that file into one device buffer, so each function takes it as a trailing
`memref<?xi8>` argument and reads each constant as a `memref.view` at its offset.
The final ABI is `(%ctx, %inputs..., %outputs..., %constants)`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    i8,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects.hip import CONSTANTS_FILE_ATTR, EXTERNAL_DATA_ATTR
from xhip.transforms.typed_patterns import TypedPatternApplier

BLOB_TYPE = MemRefType(i8, [DYNAMIC_INDEX])


@dataclass(frozen=True)
class ExternalConstant:
    """Where a global's data lives in the constants blob."""

    offset: int
    type: MemRefType


def _fail(message: str) -> PassFailedException:
    return PassFailedException(f"hip-resolve-extern-constants: {message}")


def _external_constant(op: memref.GlobalOp) -> ExternalConstant:
    name = op.sym_name.data
    data = op.attributes[EXTERNAL_DATA_ATTR]
    fields: Mapping[str, Attribute] = (
        data.data if isinstance(data, DictionaryAttr) else {}
    )
    offset, size = fields.get("offset"), fields.get("size")
    if not isinstance(offset, IntegerAttr) or not isinstance(size, IntegerAttr):
        raise _fail(f"@{name}: {EXTERNAL_DATA_ATTR} must be {{offset = N, size = N}}")
    mtype = op.type
    if not mtype.has_static_shape():
        raise _fail(
            f"@{name} has dynamic type {mtype}; a view of the blob needs a static shape"
        )
    if not isinstance(mtype.layout, NoneAttr):
        raise _fail(
            f"@{name} has non-identity layout {mtype}; memref.view gives "
            "identity layouts only"
        )
    element = mtype.element_type
    if not isinstance(element, FixedBitwidthType):
        raise _fail(f"@{name}: element type {element} has no fixed byte size")
    nbytes = math.prod(mtype.get_shape()) * element.size
    if size.value.data != nbytes:
        raise _fail(
            f"@{name}: {EXTERNAL_DATA_ATTR} size {size.value.data} is not the "
            f"{nbytes} bytes of {mtype}"
        )
    if offset.value.data < 0:
        raise _fail(f"@{name}: negative offset {offset.value.data}")
    return ExternalConstant(offset.value.data, mtype)


def _enclosing_function(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _blob_of(function: func.FuncOp) -> BlockArgument:
    return function.args[-1]


_INDEX = IndexType()


@dataclass
class GetGlobalToBlobView(RewritePattern):
    """`memref.get_global @w` -> `memref.view %blob[%c<offset>][]`."""

    constants: dict[str, ExternalConstant]

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.GetGlobalOp, rewriter: PatternRewriter
    ) -> None:
        constant = self.constants.get(op.name_.root_reference.data)
        if constant is None:
            return
        function = _enclosing_function(op)
        if function is None:
            raise _fail(f"{op.name_} is read outside a function")
        offset, view = blob_view(_blob_of(function), constant)
        rewriter.replace(op, [offset, view])


def blob_view(
    blob: SSAValue, constant: ExternalConstant
) -> tuple[arith.ConstantOp, memref.ViewOp]:
    """The offset and the view of `constant` in `blob`: what
    `arith.ConstantOp(IntegerAttr(offset, IndexType()))` and
    `memref.ViewOp(blob, offset, [], type)` build, without the builders'
    generic argument handling (two ops per constant)."""
    value = IntegerAttr(constant.offset, _INDEX)
    offset = arith.ConstantOp.create(result_types=[_INDEX], properties={"value": value})
    offset.result.name_hint = f"c{constant.offset}"
    view = memref.ViewOp.create(
        operands=[blob, offset.result], result_types=[constant.type]
    )
    view.result.name_hint = "view"
    return offset, view


@dataclass
class PassBlobToCallee(RewritePattern):
    """A call to a function that now takes the blob passes the caller's blob on."""

    callees: set[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        if op.callee.root_reference.data not in self.callees:
            return
        caller = _enclosing_function(op)
        assert caller is not None
        rewriter.replace(
            op,
            func.CallOp(op.callee, [*op.arguments, _blob_of(caller)], op.res.types),
        )


def _append_blob_argument(function: func.FuncOp) -> None:
    """Adds the blob; like the seed, the rebuilt signature keeps no arg/result attrs."""
    index = len(function.args)
    blob = function.body.blocks[0].insert_arg(BLOB_TYPE, index)
    blob.name_hint = f"arg{index}"
    function.update_function_type()
    function.properties.pop("arg_attrs", None)
    function.properties.pop("res_attrs", None)


@dataclass(frozen=True)
class HipResolveExternConstantsPass(ModulePass):
    """Turns externalized globals into views of a trailing constants-blob argument."""

    name = "hip-resolve-extern-constants"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        globals_ = [
            g
            for g in op.ops
            if isinstance(g, memref.GlobalOp) and EXTERNAL_DATA_ATTR in g.attributes
        ]
        constants = {g.sym_name.data: _external_constant(g) for g in globals_}
        functions = [
            f for f in op.ops if isinstance(f, func.FuncOp) and not f.is_declaration
        ]
        for function in functions:
            _append_blob_argument(function)
        PatternRewriteWalker(
            # Each op tries only the pattern of its class (the output is xDSL's
            # applier's): the others are every other op of the module.
            TypedPatternApplier(
                [
                    GetGlobalToBlobView(constants),
                    PassBlobToCallee({f.sym_name.data for f in functions}),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        for g in globals_:
            op.body.block.erase_op(g)
        op.attributes.pop(CONSTANTS_FILE_ATTR, None)
