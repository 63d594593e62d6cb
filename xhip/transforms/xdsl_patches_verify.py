"""xDSL's `OpDef.verify`, cheaper on the success path; `xhip.universe` installs
it with the other patches (`docs/xdsl-upstream.md`, 23).

For each operand and result definition xDSL's `irdl_op_verify_arg_list` reads
the op's generated accessor (which finds the definition's segment afresh),
wraps the types in a tuple and checks the counts through
`verify_variadic_size`, for every op. Here the segments come straight from the
op's own operands (results): one by one when no definition is variadic, or
by the sizes in the segment-size attribute once `verify_variadic_size` has
checked it (variadics sized alike still go to xDSL's code). The constraints
are xDSL's, run in xDSL's order with one `VerificationContext`, so type
variables bind as they do there; regions and successors are checked the same
way, skipped when the op neither defines nor has any. On any exception it
runs xDSL's own `verify` afresh and lets that decide, so every error, and its
message, is xDSL's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import operations as irdl_operations
from xdsl.irdl.constraints import RangeConstraint, VerificationContext
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    OpDef,
    OptAttributeDef,
    OptPropertyDef,
    SameVariadicOperandSize,
    SameVariadicResultSize,
    VariadicDef,
    VarIRConstruct,
)

XDSL_OP_DEF_VERIFY: Callable[[OpDef, Operation], None] = OpDef.verify

_ArgPlan = tuple[tuple[RangeConstraint, ...], AttrSizedSegments | int] | None
_Plan = tuple[_ArgPlan, _ArgPlan]
# id(op_def) -> (op_def, plan); the op_def is kept so that its id stays its own
_PLANS: dict[int, tuple[OpDef, _Plan]] = {}


def _singles(op_def: OpDef, construct: VarIRConstruct) -> _ArgPlan:
    """The constraints of the operand (result) definitions, and how the
    segments are sized: by the option's attribute, or, with one variadic
    definition and no option, its position (-1 with none). `None`
    (several variadics sized alike) sends them to xDSL's code."""
    if construct == VarIRConstruct.OPERAND:
        defs = op_def.operands
        option_type = AttrSizedOperandSegments
        same_type = SameVariadicOperandSize
    else:
        defs = op_def.results
        option_type = AttrSizedResultSegments
        same_type = SameVariadicResultSize
    constrs = tuple(d.constr for _, d in defs)
    if any(isinstance(o, same_type) for o in op_def.options):
        return None
    for o in op_def.options:
        if isinstance(o, option_type):
            return constrs, o
    variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, VariadicDef)]
    if len(variadic) > 1:
        return None
    return constrs, variadic[0] if variadic else -1


def _verify_values(
    op: Operation,
    op_def: OpDef,
    construct: VarIRConstruct,
    values: Sequence[SSAValue],
    plan: _ArgPlan,
    ctx: VerificationContext,
) -> None:
    """`irdl_op_verify_arg_list` with the segments read straight from the op."""
    if plan is None:
        irdl_operations.irdl_op_verify_arg_list(op, op_def, construct, ctx)  # pyright: ignore[reportArgumentType]
        return
    constrs, sizing = plan
    if sizing == -1:
        if len(values) != len(constrs):
            raise _Fallback
        for constr, value in zip(constrs, values):
            constr.verify((value.type,), ctx)
        return
    # the counts (and the attribute, its element type and sizes) checked here
    irdl_operations.verify_variadic_size(op, op_def, construct)
    if isinstance(sizing, int):
        sizes = [1] * len(constrs)
        sizes[sizing] = len(values) - len(constrs) + 1
    else:
        sizes: Sequence[int] = sizing.container(op)[sizing.attribute_name].get_values()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType, reportRedeclaration]
    # the values in turn: `SSAValues` indexing is slower than its iterator
    rest = iter(values)
    for constr, size in zip(constrs, sizes):  # pyright: ignore[reportUnknownArgumentType]
        if size == 1:
            constr.verify((next(rest).type,), ctx)
        else:
            constr.verify(tuple([next(rest).type for _ in range(size)]), ctx)


def _plan(op_def: OpDef) -> _Plan:
    entry = _PLANS.get(id(op_def))
    if entry is None or entry[0] is not op_def:
        entry = (
            op_def,
            (
                _singles(op_def, VarIRConstruct.OPERAND),
                _singles(op_def, VarIRConstruct.RESULT),
            ),
        )
        _PLANS[id(op_def)] = entry
    return entry[1]


def _verify(op_def: OpDef, op: Operation) -> None:
    """xDSL's `OpDef.verify`, in its order, the segments read straight from
    the op; raises on any failure, worded or not."""
    operand_plan, result_plan = _plan(op_def)
    ctx = VerificationContext()
    operands = op._operands  # pyright: ignore[reportPrivateUsage]
    _verify_values(op, op_def, VarIRConstruct.OPERAND, operands, operand_plan, ctx)
    _verify_values(op, op_def, VarIRConstruct.RESULT, op.results, result_plan, ctx)
    if op_def.regions or op.regions:
        irdl_operations.irdl_op_verify_regions(op, op_def, ctx)
    if op_def.successors or op._successors:  # pyright: ignore[reportPrivateUsage]
        irdl_operations.verify_variadic_size(op, op_def, VarIRConstruct.SUCCESSOR)

    properties = op.properties
    for prop_name, attr_def in op_def.properties.items():
        if prop_name not in properties:
            if isinstance(attr_def, OptPropertyDef):
                continue
            raise _Fallback
        attr_def.constr.verify(properties[prop_name], ctx)
    for prop_name in properties:
        if prop_name not in op_def.properties:
            raise _Fallback

    attributes = op.attributes
    for attr_name, attr_def in op_def.attributes.items():
        if attr_name not in attributes:
            if isinstance(attr_def, OptAttributeDef):
                continue
            raise _Fallback
        attr_def.constr.verify(attributes[attr_name], ctx)

    for trait in op_def.traits:
        trait.verify(op)


class _Fallback(Exception):
    """The fast path saw a failure: xDSL's own `verify` words it."""


def verify(self: OpDef, op: Operation) -> None:
    """`OpDef.verify`: the fast path, or xDSL's own on any exception."""
    try:
        _verify(self, op)
    except Exception:
        XDSL_OP_DEF_VERIFY(self, op)


def fast_op_verify() -> None:
    """Install `verify` as `OpDef.verify` (idempotent)."""
    OpDef.verify = verify
