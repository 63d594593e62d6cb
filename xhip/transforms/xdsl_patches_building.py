"""xDSL's op building, patched; `xhip.universe` installs it with the other
patches (`xhip.transforms.xdsl_patches`).

`cache_op_building()`: every op's builder asks `isinstance(_, Sequence)` (an
ABC check) and `isinstance` of each definition for every argument group, and
builds a new segment-sizes attribute; the answers are kept per type and per
definition list, and integer arrays are shared per value. The usual op (values
or lists of values as operands, no regions or successors) skips the rest of
`irdl_op_init`'s general handling, and `Operation.__init__` sets a new op's
fields directly instead of through setters that first undo uses it cannot
have: a `memref.dim` costs 8 us to build instead of 13. `IRDLOperation.__post_init__`
fills the defaults found once per definition.

The installer also puts in place `xhip.transforms.xdsl_patches_driver`'s
`isa` constraints kept per hint, `isinstance` of IR classes in C,
`replace_all_uses_with` without an operand view and `SSAValue.erase` without
an `ErasedSSAValue` for a value without uses.

None changes a result. The text for upstream is in `docs/xdsl-upstream.md`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import xdsl.irdl as irdl_package
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    DenseArrayBase,
    IntegerType,
    LocationAttr,
    i32,
)
from xdsl.ir import (
    Attribute,
    Block,
    IRWithName,
    Operation,
    OpResult,
    Region,
    SSAValue,
    SSAValues,
    Use,
)
from xdsl.irdl import IRDLOperation
from xdsl.irdl import operations as irdl_operations
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    AttrSizedSuccessorSegments,
    OpDef,
    OptionalDef,
    SameVariadicSize,
    VariadicDef,
    VarIRConstruct,
)

from xhip.transforms.xdsl_patches_driver import (
    hint_constraint,
    plain_ir_isinstance,
    replace_all_uses_with,
    ssa_value_erase,
    unlink_ops_directly,
)

_IS_SEQUENCE: dict[type[object], bool] = {list: True, tuple: True}
"""`isinstance(x, Sequence)` by `type(x)`: an ABC check costs a microsecond."""


_ARG_KINDS: dict[int, tuple[object, tuple[tuple[bool, bool], ...]]] = {}
"""(variadic, optional) of each definition of an op's operands, results,
regions or successors, by the id of the definitions' list (kept alive with
it, so the id cannot be reused)."""


def _arg_kinds(arg_defs: Sequence[tuple[str, Any]]) -> tuple[tuple[bool, bool], ...]:
    entry = _ARG_KINDS.get(id(arg_defs))
    if entry is None or entry[0] is not arg_defs:
        kinds = tuple(
            (isinstance(d, VariadicDef), isinstance(d, OptionalDef))
            for _, d in arg_defs
        )
        entry = _ARG_KINDS[id(arg_defs)] = (arg_defs, kinds)
    return entry[1]


def _build_arg_list(
    construct: VarIRConstruct,
    args: Sequence[Any],
    arg_defs: Sequence[tuple[str, Any]],
    error_prefix: str = "",
) -> tuple[list[Any], list[int]]:
    """xDSL's `irdl_build_arg_list`, run by every op's builder for each of its
    operands, results, regions and successors, with the ABC checks answered
    per type and per definition; anything unusual (None, a bad arity) goes to
    xDSL's own."""
    if len(args) != len(arg_defs):
        return XDSL_BUILD_ARG_LIST(construct, args, arg_defs, error_prefix)
    res: list[Any] = []
    sizes: list[int] = []
    for (variadic, optional), arg in zip(_arg_kinds(arg_defs), args):
        given: object = arg
        cls = type(given)
        is_sequence = _IS_SEQUENCE.get(cls)
        if is_sequence is None:
            is_sequence = _IS_SEQUENCE[cls] = isinstance(arg, Sequence)
        if not is_sequence:
            if arg is None:
                return XDSL_BUILD_ARG_LIST(construct, args, arg_defs, error_prefix)
            res.append(arg)
            sizes.append(1)
            continue
        n = len(arg)
        if (n != 1 and not variadic) or (n > 1 and optional):
            return XDSL_BUILD_ARG_LIST(construct, args, arg_defs, error_prefix)
        res.extend(arg)
        sizes.append(n)
    return res, sizes


XDSL_BUILD_ARG_LIST: Any = irdl_operations.irdl_build_arg_list
"""xDSL's own builder helper: the tests' reference, and its error messages."""

_SEGMENT_ATTRS: dict[tuple[Attribute, tuple[int, ...]], DenseArrayBase[Any]] = {}
"""Integer `DenseArrayBase`s by element type and values (attributes are
immutable, so ops may share one): every op with variadic groups gets one."""


def _from_list(data_type: Any, data: Sequence[Any]) -> DenseArrayBase[Any]:
    """`DenseArrayBase.from_list`, integer arrays built once per value."""
    if not isinstance(data_type, IntegerType) or not all(type(v) is int for v in data):
        return XDSL_FROM_LIST(data_type, data)
    # no `cast` here: a Python call each
    key: tuple[Attribute, tuple[int, ...]] = (data_type, tuple(data))  # pyright: ignore[reportUnknownVariableType]
    attr = _SEGMENT_ATTRS.get(key)  # pyright: ignore[reportUnknownArgumentType]
    if attr is None:
        attr = _SEGMENT_ATTRS[key] = XDSL_FROM_LIST(data_type, data)
    return attr


XDSL_FROM_LIST: Any = DenseArrayBase.from_list
"""xDSL's own `from_list`: the tests' reference."""


_SEGMENT_OPTIONS: dict[type[object], int] = {
    AttrSizedOperandSegments: 0,
    AttrSizedResultSegments: 1,
    AttrSizedRegionSegments: 2,
    AttrSizedSuccessorSegments: 3,
}
"""Which group's sizes each segment-sizes option records."""

_BUILD_PLANS: dict[int, tuple[OpDef, tuple[tuple[bool, str, int], ...] | None]] = {}
"""Per op definition (by id, kept alive with it): its segment-sizes options
as (as property, attribute name, group), or None where it has an option the
fast builder leaves to xDSL (`SameVariadicSize`, which checks sizes)."""


def _build_plan(op_def: OpDef) -> tuple[tuple[bool, str, int], ...] | None:
    entry = _BUILD_PLANS.get(id(op_def))
    if entry is None or entry[0] is not op_def:
        plan: list[tuple[bool, str, int]] | None = []
        for option in op_def.options:
            group = _SEGMENT_OPTIONS.get(type(option))
            if group is not None:
                assert isinstance(option, AttrSizedSegments)
                plan.append((option.as_property, option.attribute_name, group))
            elif isinstance(option, SameVariadicSize | AttrSizedSegments):
                plan = None
                break
        entry = _BUILD_PLANS[id(op_def)] = (
            op_def,
            None if plan is None else tuple(plan),
        )
    return entry[1]


def _operand_values(operands: Sequence[Any]) -> list[Any] | None:
    """`irdl_build_operations_arg` of each operand group: values stay, an op
    gives its one result, a group becomes a list; None if any is unusual."""
    built: list[Any] = []
    for operand in operands:
        if _is_value(operand):
            built.append(operand)
        elif isinstance(operand, (list, tuple)):
            group: list[Any] | tuple[Any, ...] = operand  # pyright: ignore[reportUnknownVariableType]
            if all(_is_value(v) for v in group):
                built.append(list(group))
            else:
                return None
        else:
            return None
    return built


_VALUE_TYPES: dict[type[object], bool] = {}
"""`isinstance(x, SSAValue)` by `type(x)`: `SSAValue` is an ABC, whose check
runs Python (a builder asks it of every operand)."""


def _is_value(value: object) -> bool:
    cls = type(value)
    known = _VALUE_TYPES.get(cls)
    if known is None:
        known = _VALUE_TYPES[cls] = isinstance(value, SSAValue)
    return known


def _irdl_op_init(
    self: IRDLOperation,
    op_def: OpDef,
    *,
    operands: Sequence[Any],
    result_types: Sequence[Any],
    properties: Mapping[str, Attribute | None],
    attributes: Mapping[str, Attribute | None],
    successors: Sequence[Any],
    regions: Sequence[Any],
) -> None:
    """`irdl_op_init` for the usual op: operands given as values or lists of
    values, no regions or successors. Anything else goes to xDSL's, as does
    every error, so the messages stay xDSL's."""
    plan = _build_plan(op_def)
    values = (
        None if plan is None or regions or successors else _operand_values(operands)
    )
    built: tuple[tuple[list[Any], list[int]], tuple[list[Any], list[int]]] | None
    built = None
    if values is not None:  # else xDSL's, without raising to get there
        try:
            built = (
                _build_arg_list(VarIRConstruct.OPERAND, values, op_def.operands),
                _build_arg_list(VarIRConstruct.RESULT, result_types, op_def.results),
            )
        except ValueError:  # nothing is built yet: xDSL's builder, or its message
            built = None
    if built is None:
        return XDSL_IRDL_OP_INIT(
            self,
            op_def,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            successors=successors,
            regions=regions,
        )
    assert plan is not None
    (built_operands, operand_sizes), (built_results, result_sizes) = built
    built_properties = {k: v for k, v in properties.items() if v is not None}
    built_attributes = {k: v for k, v in attributes.items() if v is not None}
    if plan:
        sizes: tuple[list[int], ...] = (operand_sizes, result_sizes, [], [])
        for as_property, name, group in plan:
            container = built_properties if as_property else built_attributes
            container[name] = DenseArrayBase.from_list(i32, sizes[group])
    Operation.__init__(
        self,
        operands=built_operands,
        result_types=built_results,
        properties=built_properties,
        attributes=built_attributes,
    )


XDSL_IRDL_OP_INIT: Any = irdl_operations.irdl_op_init
"""xDSL's own op builder: the tests' reference, and every unusual case."""


def _operation_init(
    self: Operation,
    *,
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: Mapping[str, Attribute] = {},  # noqa: B006 (read only, as xDSL's)
    attributes: Mapping[str, Attribute] = {},  # noqa: B006
    location: LocationAttr | None = None,
    successors: Sequence[Block] = (),
    regions: Sequence[Region] = (),
) -> None:
    """`Operation.__init__` (every op built, `create` too) setting the fields
    directly: xDSL's goes through the `operands` and `successors` setters,
    which first undo the uses of operands a new op does not have. Each
    operand's use is linked in as `add_use` would, without a call."""
    if "_operands" in self.__dict__:  # built before: xDSL's undoes the old uses
        return XDSL_OPERATION_INIT(
            self,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            location=location,
            successors=successors,
            regions=regions,
        )
    values = SSAValues(operands)
    uses = tuple([Use(self, i) for i in range(len(values))])
    for value, use in zip(values, uses):  # `value.add_use(use)`, inline
        try:
            first = value.first_use
        except AttributeError:  # not a value (`None`): xDSL's error
            value.add_use(use)
            continue
        if first is not None:
            use._next_use = first  # pyright: ignore[reportPrivateUsage]
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
    self._operands = values  # pyright: ignore[reportPrivateUsage]
    self._operand_uses = uses  # pyright: ignore[reportPrivateUsage]
    self.results = SSAValues([OpResult(t, self, i) for i, t in enumerate(result_types)])
    self.properties = dict(properties)
    self.attributes = dict(attributes)
    self.location = UNKNOWN_LOC if location is None else location
    if successors:
        self.successors = list(successors)
    else:
        self._successors = ()  # pyright: ignore[reportPrivateUsage]
        self._successor_uses = ()  # pyright: ignore[reportPrivateUsage]
    self.regions = ()
    for region in regions:
        self.add_region(region)
    self.__post_init__()


XDSL_OPERATION_INIT: Any = Operation.__init__
"""xDSL's own `Operation.__init__`: the tests' reference."""


_DEFAULTS: dict[
    type[IRDLOperation],
    tuple[
        tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...], str | None
    ],
] = {}
"""Per op class: the properties and the attributes with a default value, in
its definition's order, and, where the rest of `__post_init__` is
`Operation`'s, the name its checks passed. (`ImplicitBuilder` replaces
`Operation.__post_init__` while it is open: then it is always called.)"""


def _defaults(
    cls: type[IRDLOperation],
) -> tuple[
    tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...], str | None
]:
    def with_default(defs: Mapping[str, Any]) -> tuple[tuple[str, Attribute], ...]:
        return tuple(
            (name, d.default_value)
            for name, d in defs.items()
            if not isinstance(d, OptionalDef) and d.default_value is not None
        )

    op_def = cls.get_irdl_definition()
    mro = cls.__mro__
    rest = next(
        c for c in mro[mro.index(IRDLOperation) + 1 :] if "__post_init__" in vars(c)
    )
    name: object = getattr(cls, "name", None)
    checked = name if rest is Operation and type(name) is str and name != "" else None
    entry = (with_default(op_def.properties), with_default(op_def.attributes), checked)
    _DEFAULTS[cls] = entry
    return entry


def _irdl_post_init(self: IRDLOperation) -> None:
    """`IRDLOperation.__post_init__` (every op built), the definition's
    properties and attributes with a default found once per class instead of
    scanning them all for every op, and `Operation.__post_init__`'s checks
    of the op's name made once per name."""
    entry = _DEFAULTS.get(type(self))
    if entry is None:
        entry = _defaults(type(self))
    properties, attributes, checked = entry
    for name, default in properties:
        if name not in self.properties:
            self.properties[name] = default
    for name, default in attributes:
        if name not in self.attributes:
            self.attributes[name] = default
    if (
        checked is None
        or self.name is not checked
        or Operation.__post_init__ is not XDSL_OPERATION_POST_INIT  # `ImplicitBuilder`
    ):
        super(IRDLOperation, self).__post_init__()


XDSL_OPERATION_POST_INIT: Any = Operation.__post_init__
XDSL_IRDL_POST_INIT: Any = IRDLOperation.__post_init__
"""xDSL's own: the tests' reference."""


_VALID_NAMES: dict[str, str] = {}
"""Name hints xDSL accepted, to what it keeps of each (the name without a
`_N` suffix): a pure function of the string."""

_VALID_NAMES_CAP = 1 << 16
"""Past this many distinct names, new ones are checked but not kept."""


def _set_name_hint(self: IRWithName, name: str | None) -> None:
    """`IRWithName.name_hint`'s setter, each distinct name's two regular
    expressions run once; a new or invalid name goes to xDSL's setter (so its
    `ValueError` names the class as before)."""
    if name is not None:
        valid = _VALID_NAMES.get(name)
        if valid is not None:
            self._name = valid  # pyright: ignore[reportPrivateUsage]
            return
    XDSL_SET_NAME_HINT(self, name)
    if name is not None and len(_VALID_NAMES) < _VALID_NAMES_CAP:
        _VALID_NAMES[name] = cast(str, self._name)  # pyright: ignore[reportPrivateUsage]


XDSL_NAME_HINT: property = vars(IRWithName)["name_hint"]
XDSL_SET_NAME_HINT: Any = XDSL_NAME_HINT.fset
"""xDSL's own setter: new names, errors, and the tests' reference."""


def _attach_op(self: Block, operation: Operation) -> None:
    """`Block._attach_op` without the walk up from the block to the module
    for an op with no regions and no parent, the usual op (it cannot contain
    the block); any other goes to xDSL's, for its checks and errors."""
    if operation.parent or operation.regions:
        XDSL_ATTACH_OP(self, operation)
        return
    operation.parent = self


XDSL_ATTACH_OP: Any = vars(Block)["_attach_op"]
"""xDSL's own: ops with regions or a parent, and the tests' reference."""


def cache_op_building() -> None:
    """Make every op's builder answer `isinstance(_, Sequence)` per type,
    share each segment-sizes attribute, take a short path for the usual op,
    and set an op's fields directly; `isa` (types' builders ask it) keeps the
    constraint of each generic hint; erasing a value without uses is cheap,
    and so are erasing, detaching and inserting an op.
    Calling it again changes nothing."""
    irdl_package.irdl_to_attr_constraint = hint_constraint
    from_list: Any = staticmethod(_from_list)
    irdl_operations.irdl_build_arg_list = _build_arg_list
    irdl_operations.irdl_op_init = _irdl_op_init
    DenseArrayBase.from_list = from_list
    operation_init: Any = _operation_init
    Operation.__init__ = operation_init
    replace_uses: Any = replace_all_uses_with
    SSAValue.replace_all_uses_with = replace_uses
    erase: Any = ssa_value_erase
    SSAValue.erase = erase
    post_init: Any = _irdl_post_init
    IRDLOperation.__post_init__ = post_init
    IRWithName.name_hint = property(XDSL_NAME_HINT.fget, _set_name_hint)  # pyright: ignore[reportAttributeAccessIssue]
    attach_op: Any = _attach_op
    Block._attach_op = attach_op  # pyright: ignore[reportPrivateUsage]
    plain_ir_isinstance()
    unlink_ops_directly()
