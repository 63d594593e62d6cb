"""Speed fixes to xDSL 0.75's own passes, applied by `xhip.universe`.

`scope_cse_known_ops()`: xDSL's `cse` copies its whole table of known ops
(`KnownOps(self._known_ops)`, a dict copy) on entering every single-block
region, so a function with one small region per buffer (the `scf.if`s that
`bufferization-lower-deallocations` makes, 8 per attention layer) costs time
quadratic in its length. MLIR uses a scoped hash table instead; so does this
patch: a region's scope shares its parent's dict, logs what it changes, and
undoes that on exit.

`cache_segment_sizes()`: the accessors of an op with `AttrSizedOperandSegments`
(`bufferization.dealloc`'s `memrefs`, a hip op's `inputs`) unpack the
`operandSegmentSizes` bytes with `struct` on every access, and the dead-code
checks of `canonicalize` and `cse` and the deallocation passes read them for
every op they visit. The decoded sizes are kept per distinct bytes, and where
each group lies per accessor and sizes. Every IRDL accessor (`op.source`,
`op.result`) also indexes the op's own `SSAValues` instead of building an
`OpOperands` view and going through `SSAValues.__getitem__` in Python (the
passes read some 120,000 of them at 100 attention layers).
The verifier's count check of each construct finds the definition's variadic
layout once per definition instead of once per op.

`cache_op_traits()`, `cache_dead_code_checks()`, `cache_canonicalization_patterns()`:
an op's traits, whether an unused op of its class can go, and its
canonicalization patterns are fixed by its class, yet xDSL scans the class's
traits (and builds new pattern objects) on every question, and every
`canonicalize` and `cse` asks them of every op, several times. Each answer is
kept per op class (per trait type for the traits; `OpTraits.add_trait`
forgets them all); `has_trait` too, which `canonicalize` asks of every op it
visits. `cache_cse_effects()` does the same for `cse`'s effect queries, where
the class's effect traits alone decide; `effect_kinds` answers the kinds of
an op's effects, all that `cse` and the deallocation passes ask. `region_dce`, which ends every
`canonicalize`, sweeps the whole region until its live set stops growing (two
sweeps at least); the patch finds the same least fixpoint in one walk.

`cache_op_building()` (`xhip.transforms.xdsl_patches_building`) makes
building an op cheaper.

The installers also put in place `xhip.transforms.xdsl_patches_driver`'s: the
pattern walker's worklist keyed by `id`, walks and iterators without a
generator per level or a `StopIteration` per loop; and
`cache_cse_effects()` makes xDSL's traits and `dce` ask `cached_get_effects`
of the ops inside an op with regions. `region_dce`'s sets hold `id`s.

The walker's loop is `xhip.transforms.xdsl_patches_visits`'s, `cse`'s
per-op step `xhip.transforms.xdsl_patches_cse`'s.

None changes a result. The text for upstream is in `docs/xdsl-upstream.md`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, cast

from xdsl import traits as traits_module
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    UnregisteredOp,
    i32,
)
from xdsl.ir import (
    Block,
    BlockArgument,
    Operation,
    OpResult,
    OpTraits,
    Region,
    SSAValue,
    SSAValues,
)
from xdsl.ir.post_order import PostOrderIterator
from xdsl.irdl import operations as irdl_operations
from xdsl.irdl.operations import (
    BaseAccessor,
    BaseAttrAccessor,
    BeforeVariadicSingleAccessor,
    OpDef,
    OptionalAttrAccessor,
    OptionalDef,
    SingleAttrAccessor,
    VariadicAttrAccessor,
    VariadicDef,
    VarIRConstruct,
    get_op_constructs,
)
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.traits import (
    EffectInstance,
    HasCanonicalizationPatternsTrait,
    IsTerminator,
    MemoryAllocEffect,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    OpTrait,
    SymbolOpInterface,
    get_effects,
)
from xdsl.transforms import canonicalize as canonicalize_module
from xdsl.transforms import common_subexpression_elimination as cse_module
from xdsl.transforms import dead_code_elimination
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import (
    CSEDriver,
    KnownOps,
    OperationInfo,
)

from xhip.transforms.xdsl_patches_driver import (
    FOLDS,
    applier_match_and_rewrite,
    block_walk,
    iterate_with_generators,
    op_walk,
    populate_worklist,
    region_walk,
)


class ScopedKnownOps(KnownOps):
    """The known ops of one region: its parent's table plus what the region
    adds, sharing the parent's dict instead of copying it.

    New keys go to the end of the dict (dicts keep insertion order), so
    `close()` drops them with `popitem`, without hashing them again; a key of
    the parent it overwrites is logged and restored.
    """

    def __init__(self, parent: KnownOps) -> None:
        self._known_ops = parent._known_ops  # pyright: ignore[reportPrivateUsage]
        self._size = len(self._known_ops)
        self._overwritten: list[tuple[OperationInfo, Operation]] = []

    def __setitem__(self, k: Operation, v: Operation) -> None:
        info = OperationInfo(k)
        old = self._known_ops.setdefault(info, v)
        if old is not v:
            self._overwritten.append((info, old))
            self._known_ops[info] = v

    def pop(self, k: Operation) -> Operation:
        raise NotImplementedError("a CSE scope only adds known ops")

    def close(self) -> None:
        """Give the parent's table back as it was when the scope opened."""
        known = self._known_ops
        for info, old in reversed(self._overwritten):
            known[info] = old
        for _ in range(len(known) - self._size):
            known.popitem()


XDSL_SIMPLIFY_REGION: Any = CSEDriver._simplify_region  # pyright: ignore[reportPrivateUsage]
"""xDSL's own `_simplify_region`, which copies the table: the tests' reference."""


def _simplify_region(self: CSEDriver, region: Region) -> None:
    """`CSEDriver._simplify_region` with a scope instead of a copy."""
    if len(region.blocks) != 1:
        return
    parent = self._known_ops  # pyright: ignore[reportPrivateUsage]
    scope = ScopedKnownOps(parent)
    self._known_ops = scope  # pyright: ignore[reportPrivateUsage]
    try:
        self._simplify_block(region.block)  # pyright: ignore[reportPrivateUsage]
    finally:
        scope.close()
        self._known_ops = parent  # pyright: ignore[reportPrivateUsage]


def scope_cse_known_ops() -> None:
    """Make xDSL's `CSEDriver` (the `cse` pass and every `cse()` call) use a
    scoped table of known ops. Calling it again changes nothing."""
    method: Any = _simplify_region
    CSEDriver._simplify_region = method  # pyright: ignore[reportPrivateUsage]


_SEGMENT_SIZES: dict[bytes, tuple[int, ...]] = {}
"""Decoded i32 segment sizes by their bytes (a `bytes` caches its own hash)."""


def _segment_sizes(attr: DenseArrayBase[IntegerType]) -> tuple[int, ...]:
    width: object = getattr(attr.elt_type, "width", None)  # absent if not an integer
    if getattr(width, "data", None) != 32:
        return attr.get_values()  # the bytes alone say what they hold for i32 only
    data = attr.data.data
    sizes = _SEGMENT_SIZES.get(data)
    if sizes is None:
        sizes = _SEGMENT_SIZES[data] = attr.get_values()
    return sizes


def _constructs(obj: Operation, construct: VarIRConstruct) -> Sequence[Any]:
    """`get_op_constructs` without building an `OpOperands` view: operands and
    results are the op's own `SSAValues`, which index the same."""
    if construct is _OPERAND:
        return obj._operands  # pyright: ignore[reportPrivateUsage]
    if construct is _RESULT:
        return obj.results
    return get_op_constructs(obj, construct)


_OPERAND = VarIRConstruct.OPERAND
_RESULT = VarIRConstruct.RESULT
_item = cast(Callable[[tuple[Any, ...], Any], Any], tuple.__getitem__)  # pyright: ignore[reportUnknownMemberType]
"""`tuple`'s own indexing: `SSAValues` overrides it in Python, for slices."""

_SEGMENT_PLANS: dict[int, tuple[bool, str, VarIRConstruct, dict[bytes, Any]]] = {}
"""Per segment accessor (by id: accessors live as long as their op class): the
sizes attribute's place (a property or not, its name), the construct, and per
distinct i32 sizes bytes where the group is (an index, a slice, or None for an
absent optional)."""


def _segment_position(
    self: BaseAttrAccessor, sizes: tuple[int, ...]
) -> int | slice | None | bool:
    """Where xDSL's `index(sizes, args)` would look, or False for an accessor
    kind this module does not know."""
    start = sum(sizes[: self.idx])
    kind = type(self)
    if kind is SingleAttrAccessor:
        return start
    if kind is VariadicAttrAccessor:
        return slice(start, start + sizes[self.idx])
    if kind is OptionalAttrAccessor:
        return start if sizes[self.idx] else None
    return False


def _segment_plan(
    self: BaseAttrAccessor,
) -> tuple[bool, str, VarIRConstruct, dict[bytes, Any]]:
    option = self.option
    positions: dict[bytes, Any] = {}
    plan = (option.as_property, option.attribute_name, self.construct, positions)
    _SEGMENT_PLANS[id(self)] = plan
    return plan


def _segment_accessor_get(
    self: BaseAttrAccessor, obj: Operation, objtype: object = None
) -> Any:
    """`BaseAttrAccessor.__get__`, the group's position found once per distinct
    sizes value and the op's own values indexed (a group sliced by `tuple`'s
    own indexing, not `SSAValues.__getitem__` in Python). No `cast` here:
    `typing.cast` is a Python call, and this runs 50,000 times."""
    plan = _SEGMENT_PLANS.get(id(self))
    if plan is None:
        plan = _segment_plan(self)
    as_property, name, construct, positions = plan
    attr: DenseArrayBase[IntegerType] = (  # pyright: ignore[reportAssignmentType]
        obj.properties if as_property else obj.attributes
    )[name]
    elt = attr.elt_type
    if elt is not i32 and (type(elt) is not IntegerType or elt.width.data != 32):
        # the bytes alone say what they hold for i32 only
        return self.index(attr.get_values(), _constructs(obj, construct))
    data = attr.data.data
    position = positions.get(data, False)
    if position is False:
        position = _segment_position(self, _segment_sizes(attr))
        if position is False:
            return self.index(_segment_sizes(attr), _constructs(obj, construct))
        positions[data] = position
    if position is None:
        return None
    if construct is _OPERAND:
        args: tuple[Any, ...] = obj._operands  # pyright: ignore[reportPrivateUsage]
    elif construct is _RESULT:
        args = obj.results
    else:
        others: Sequence[Any] = get_op_constructs(obj, construct)
        return others[position]
    if type(position) is int:
        return _item(args, position)
    return SSAValues(_item(args, position))  # what `SSAValues[slice]` gives


def _ssa_values_getitem(self: SSAValues[Any], idx: Any) -> Any:
    """`SSAValues.__getitem__` (`op.operands[0]`, `op.results[0]`) testing an
    index's exact type first and indexing through `tuple`'s own method, not
    `super()`: the same item, or the same slice as an `SSAValues`."""
    if type(idx) is int or isinstance(idx, int):
        return _item(self, idx)
    return SSAValues(_item(self, idx))


XDSL_SSA_VALUES_GETITEM: Any = vars(SSAValues)["__getitem__"]
"""xDSL's own: the tests' reference."""


def _accessor_get(self: BaseAccessor, obj: Operation, objtype: object = None) -> Any:
    """`BaseAccessor.__get__` on the op's own `SSAValues`."""
    if obj is None:  # pyright: ignore[reportUnnecessaryComparison]
        return XDSL_ACCESSOR_GET(self, obj, objtype)
    return self.index(_constructs(obj, self.construct))


def _single_accessor_get(
    self: BeforeVariadicSingleAccessor, obj: Operation, objtype: object = None
) -> Any:
    """The commonest accessor (a single operand or result before any variadic
    group), one tuple index."""
    if obj is None:  # pyright: ignore[reportUnnecessaryComparison]
        return XDSL_ACCESSOR_GET(self, obj, objtype)
    construct = self.construct
    if construct is _OPERAND:
        operands: tuple[Any, ...] = obj._operands  # pyright: ignore[reportPrivateUsage]
        return _item(operands, self.idx)
    if construct is _RESULT:
        results: tuple[Any, ...] = obj.results
        return _item(results, self.idx)
    return self.index(get_op_constructs(obj, construct))


XDSL_SEGMENT_ACCESSOR_GET: Any = vars(BaseAttrAccessor)["__get__"]
"""xDSL's own accessors, which decode every time and index through an
`OpOperands` view: the tests' reference."""
XDSL_ACCESSOR_GET: Any = vars(BaseAccessor)["__get__"]


_VARIADIC_PLANS: dict[tuple[int, VarIRConstruct], tuple[Any, ...]] = {}
"""Per op definition (by id, kept with the definition it was made for) and
construct: the `AttrSizedSegments` option, or the counts a length must fit."""


def _variadic_plan(op_def: OpDef, construct: VarIRConstruct) -> tuple[Any, ...]:
    option_type = irdl_operations.get_attr_size_option(construct)
    option = next((o for o in op_def.options if isinstance(o, option_type)), None)
    defs = irdl_operations.get_construct_defs(op_def, construct)
    variadic = [d for _, d in defs if isinstance(d, VariadicDef)]
    optional = any(isinstance(d, OptionalDef) for d in variadic)
    plan = (op_def, option, len(defs), len(variadic), optional)
    _VARIADIC_PLANS[id(op_def), construct] = plan
    return plan


def _verify_variadic_size(
    op: Operation, op_def: OpDef, construct: VarIRConstruct
) -> None:
    """`verify_variadic_size`, the definition's option and counts found once:
    the final verify asks it of every op for each construct. A length that
    does not fit goes to xDSL's, for its error."""
    plan = _VARIADIC_PLANS.get((id(op_def), construct))
    if plan is None or plan[0] is not op_def:
        plan = _variadic_plan(op_def, construct)
    _, option, count, variadic, optional = plan
    if option is not None:
        irdl_operations.verify_variadic_attr_size(op, op_def, construct, option)
        return
    length = len(_constructs(op, construct))
    if not variadic:
        fits = length == count
    elif optional:
        fits = length == count or length == count - variadic
    else:
        fits = length >= count - variadic and not (length - count) % variadic
    if not fits:
        XDSL_VERIFY_VARIADIC_SIZE(op, op_def, construct)


XDSL_VERIFY_VARIADIC_SIZE: Any = irdl_operations.verify_variadic_size
"""xDSL's own `verify_variadic_size`: the errors, and the tests' reference."""


def cache_segment_sizes() -> None:
    """Make every IRDL accessor (`op.inputs`, `op.source`, ...) and
    `SSAValues` indexing use `tuple`'s own, and every `AttrSizedSegments`
    accessor decode each distinct sizes attribute once; the verifier checks
    each construct's count against what its op definition says, found once
    per definition. Calling it again changes nothing."""
    irdl_operations.verify_variadic_size = _verify_variadic_size
    segment_get: Any = _segment_accessor_get
    accessor_get: Any = _accessor_get
    single_get: Any = _single_accessor_get
    BaseAttrAccessor.__get__ = segment_get
    BaseAccessor.__get__ = accessor_get
    BeforeVariadicSingleAccessor.__get__ = single_get
    getitem: Any = _ssa_values_getitem
    SSAValues.__getitem__ = getitem


_TRAITS_OF_TYPE: dict[tuple[type[Operation], type[OpTrait]], tuple[OpTrait, ...]] = {}
"""Each op class's traits of each trait type asked for, in `cls.traits` order."""


def _traits_of_type(
    cls: type[Operation], trait_type: type[OpTrait]
) -> tuple[OpTrait, ...]:
    key = (cls, trait_type)
    found = _TRAITS_OF_TYPE.get(key)
    if found is None:
        found = _TRAITS_OF_TYPE[key] = tuple(
            t for t in cls.traits if isinstance(t, trait_type)
        )
    return found


def _get_trait(cls: type[Operation], trait: Any) -> Any:
    """`Operation.get_trait`, a trait type's answer kept per op class."""
    if isinstance(trait, type):
        found = _traits_of_type(cls, trait)
        return found[0] if found else None
    return XDSL_GET_TRAIT(cls, trait)


def _get_traits_of_type(cls: type[Operation], trait_type: Any) -> list[Any]:
    """`Operation.get_traits_of_type`, kept per op class (a fresh list each call)."""
    return list(_traits_of_type(cls, trait_type))


def _add_trait(self: OpTraits, trait: OpTrait) -> None:
    """`OpTraits.add_trait`, forgetting what was kept of every class's traits."""
    XDSL_ADD_TRAIT(self, trait)
    forget_trait_answers()


def forget_trait_answers() -> None:
    """Forget what was kept of every class's traits (a class whose `traits`
    were replaced, as a test may do, is asked afresh)."""
    _TRAITS_OF_TYPE.clear()
    _DEAD_IF_UNUSED.clear()
    _EFFECTS.clear()
    _KINDS.clear()
    FOLDS.clear()


XDSL_GET_TRAIT: Any = vars(Operation)["get_trait"].__func__
"""xDSL's own trait lookups and `add_trait`: the tests' reference."""
XDSL_GET_TRAITS_OF_TYPE: Any = vars(Operation)["get_traits_of_type"].__func__
XDSL_ADD_TRAIT: Any = OpTraits.add_trait
XDSL_HAS_TRAIT: Any = vars(Operation)["has_trait"].__func__


def _has_trait(
    cls: type[Operation], trait: Any, *, value_if_unregistered: bool = True
) -> bool:
    """`Operation.has_trait` (asked of every op by `canonicalize`'s folding
    and `cse`), a trait type's answer kept per op class."""
    if isinstance(trait, type):
        return bool(_traits_of_type(cls, trait))
    return XDSL_GET_TRAIT(cls, trait) is not None


def cache_op_traits() -> None:
    """Make `Operation.get_trait`/`has_trait`/`get_traits_of_type` look a trait
    type up once per op class (`OpTraits.add_trait` forgets what was kept).
    Calling it again changes nothing."""
    get_trait: Any = classmethod(_get_trait)
    has_trait: Any = classmethod(_has_trait)
    traits_of_type: Any = classmethod(_get_traits_of_type)
    add_trait: Any = _add_trait
    Operation.get_trait = get_trait
    Operation.has_trait = has_trait
    Operation.get_traits_of_type = traits_of_type
    OpTraits.add_trait = add_trait


_STATIC_EFFECTS = frozenset(
    vars(t)["get_effects"].__func__
    for t in (
        NoMemoryEffect,
        MemoryReadEffect,
        MemoryWriteEffect,
        MemoryAllocEffect,
        MemoryFreeEffect,
    )
)
"""The `get_effects` of xDSL's effect traits whose answer ignores the op."""

_DEAD_IF_UNUSED: dict[type[Operation], bool | Callable[[Operation], bool]] = {}
"""Per op class, `would_be_trivially_dead`'s answer where the class alone
decides (terminators, symbols, effects from static traits only), else how to
ask it of one op: the op's effect trait's own `result_only_effects`, or xDSL's
function."""


def _dead_if_unused(
    op: Operation,
) -> bool | Callable[[Operation], bool]:
    """What `_DEAD_IF_UNUSED` keeps for `op`'s class."""
    cls = type(op)
    if isinstance(op, UnregisteredOp):
        return XDSL_WOULD_BE_TRIVIALLY_DEAD
    if op.has_trait(IsTerminator) or op.has_trait(SymbolOpInterface):
        return False
    effects = cls.get_traits_of_type(MemoryEffect)
    if all(
        getattr(type(t).get_effects, "__func__", None) in _STATIC_EFFECTS
        for t in effects
    ):
        return bool(XDSL_WOULD_BE_TRIVIALLY_DEAD(op))
    if len(effects) == 1:
        # A trait that knows the answer without building its effects.
        hook = getattr(effects[0], "result_only_effects", None)
        if callable(hook):
            return cast(Callable[[Operation], bool], hook)
    return _result_only_effects


def _result_only_effects(op: Operation) -> bool:
    """xDSL's `result_only_effects`, all `would_be_trivially_dead` asks of a
    registered op that is neither a terminator nor a symbol (an `scf.if`): a
    loop instead of `all` of a generator."""
    effects = dead_code_elimination.get_effects(op)  # pyright: ignore[reportPrivateImportUsage]
    if effects is None:
        return False
    for effect in effects:
        kind = effect.kind
        if kind == MemoryEffectKind.READ:
            continue
        if kind == MemoryEffectKind.ALLOC:
            value = effect.value
            if isinstance(value, SSAValue) and op.is_ancestor(value.owner):
                continue
        return False
    return True


def _would_be_trivially_dead(op: Operation) -> bool:
    """xDSL's `would_be_trivially_dead`, answered once per op class where the
    class alone decides (most ops: `Pure`, terminators, allocations)."""
    known = _DEAD_IF_UNUSED.get(type(op))
    if known is None:
        known = _DEAD_IF_UNUSED[type(op)] = _dead_if_unused(op)
    if known is True or known is False:
        return known
    return known(op)


XDSL_WOULD_BE_TRIVIALLY_DEAD: Any = dead_code_elimination.would_be_trivially_dead
"""xDSL's own dead-code check: the tests' reference."""


def _is_trivially_dead(op: Operation) -> bool:
    """xDSL's `is_trivially_dead` (asked of every op `canonicalize` and `cse`
    visit) as a loop instead of a generator."""
    for result in op.results:
        if result.first_use is not None:
            return False
    return dead_code_elimination.would_be_trivially_dead(op)


XDSL_IS_TRIVIALLY_DEAD: Any = dead_code_elimination.is_trivially_dead


def cache_dead_code_checks() -> None:
    """Make the dead-code checks of `canonicalize`, `cse` and `dce` decide once
    per op class where the class alone decides, `region_dce` find the live ops
    in one pass, and a block's walk (every pass walks the module, some several
    times) skip the generator of each op without regions. Calling it again
    changes nothing."""
    walk: Any = block_walk
    Block.walk = walk
    walk = region_walk
    Region.walk = walk
    walk = op_walk
    Operation.walk = walk
    iterate_with_generators()
    dead_code_elimination.would_be_trivially_dead = _would_be_trivially_dead
    dead_code_elimination.is_trivially_dead = _is_trivially_dead
    cse_module.is_trivially_dead = _is_trivially_dead  # pyright: ignore[reportPrivateImportUsage]
    dead_code_elimination.region_dce = _region_dce
    canonicalize_module.region_dce = _region_dce  # pyright: ignore[reportPrivateImportUsage]


def _reachable_ops(region: Region, found: list[Operation]) -> None:
    """The ops `LiveSet.propagate_region_liveness` visits: those of the blocks
    reachable from the entry block, and of their ops' regions (each block's
    ops read through their links: nothing changes the IR here)."""
    first = region.first_block
    if first is None:
        return
    blocks = (first,) if first.next_block is None else PostOrderIterator(first)
    for block in blocks:
        op = block._first_op  # pyright: ignore[reportPrivateUsage]
        while op is not None:
            found.append(op)
            for nested in op.regions:
                _reachable_ops(nested, found)
            op = op._next_op  # pyright: ignore[reportPrivateUsage]


def _region_dce(
    region: Region, listener: PatternRewriterListener | None = None
) -> bool:
    """xDSL's `region_dce` (every `canonicalize` ends with it), the live set
    found in one pass: the ops with effects, then the producers of what a live
    op uses, transitively. xDSL's sweeps the whole region until nothing changes,
    two sweeps at least; both give the least fixpoint of the same rule (an op
    is live if it has effects or a live op uses a result), so the same ops go.
    The sets hold `id`s (`ops` keeps the ops alive): an op hashes by identity,
    but in Python."""
    ops: list[Operation] = []
    _reachable_ops(region, ops)
    scope = set(map(id, ops))
    worklist = _with_effects(ops)
    live = set(map(id, worklist))
    while worklist:
        for value in worklist.pop()._operands:  # pyright: ignore[reportPrivateUsage]
            if type(value) is OpResult:
                owner = value.op
            elif type(value) is BlockArgument:
                continue  # owned by a block, never in `scope`
            else:
                owner = value.owner
            key = id(owner)
            if key not in live and key in scope:
                assert isinstance(owner, Operation)
                live.add(key)
                worklist.append(owner)
    return _delete_dead(region, live, listener)


def _with_effects(ops: list[Operation]) -> list[Operation]:
    """The ops of `ops` that `would_be_trivially_dead` says are not, asked
    through `_DEAD_IF_UNUSED` here (a call less per op) where it is ours."""
    would_be_dead = dead_code_elimination.would_be_trivially_dead
    if would_be_dead is not _would_be_trivially_dead:
        return [op for op in ops if not would_be_dead(op)]
    known = _DEAD_IF_UNUSED
    found: list[Operation] = []
    for op in ops:
        dead = known.get(type(op))
        if dead is None:
            dead = known[type(op)] = _dead_if_unused(op)
        if dead is False or (dead is not True and not dead(op)):
            found.append(op)
    return found


def _delete_dead(
    region: Region, live: AbstractSet[int], listener: PatternRewriterListener | None
) -> bool:
    """`LiveSet.delete_dead` with the live ops given by `id`; whether it
    erased anything."""
    first = region.first_block
    if first is None:
        return False
    changed = False
    for block in reversed(region.blocks):
        if block is not first and not any(id(op) in live for op in block.ops):
            # A block other than the entry with no live op goes whole.
            changed = True
            region.erase_block(block, safe_erase=False)
            continue
        for operation in reversed(block.ops):
            if id(operation) not in live:
                changed = True
                if listener is not None:
                    listener.handle_operation_removal(operation)
                block.erase_op(operation, safe_erase=False)
            else:
                for nested in operation.regions:
                    changed |= _delete_dead(nested, live, listener)
    return changed


XDSL_REGION_DCE: Any = dead_code_elimination.region_dce
"""xDSL's own `region_dce`: the tests' reference."""


_CANONICALIZERS: dict[type[Operation], RewritePattern | None] = {}
"""Each op class's canonicalization patterns, as one pattern (or None)."""


def canonicalizer(cls: type[Operation]) -> RewritePattern | None:
    """The pattern `canonicalize` applies to an op of class `cls`: its one
    canonicalization pattern, an applier of its several, or None."""
    pattern = _CANONICALIZERS.get(cls, ...)
    if pattern is ...:
        patterns = tuple(
            p
            for trait in cls.get_traits_of_type(HasCanonicalizationPatternsTrait)
            for p in trait.get_patterns(cls)
        )
        pattern = _CANONICALIZERS[cls] = (
            None
            if not patterns
            else patterns[0]
            if len(patterns) == 1
            else GreedyRewritePatternApplier(list(patterns))
        )
    return pattern


def _canonicalize_op(
    self: CanonicalizationRewritePattern, op: Operation, rewriter: PatternRewriter, /
) -> None:
    """`CanonicalizationRewritePattern.match_and_rewrite` with each class's
    patterns (and their applier) built once, not on every visit."""
    pattern = _CANONICALIZERS.get(type(op), ...)
    if pattern is ...:
        pattern = canonicalizer(type(op))
    if pattern is not None:
        pattern.match_and_rewrite(op, rewriter)


XDSL_CANONICALIZE_OP: Any = CanonicalizationRewritePattern.match_and_rewrite
"""xDSL's own per-op canonicalization: the tests' reference."""


def cache_canonicalization_patterns() -> None:
    """Make `canonicalize` build each op class's patterns once, the pattern
    walker fill its worklist in one loop, and the applier decide whether to
    fold per op class. Calling it again changes nothing."""
    method: Any = _canonicalize_op
    CanonicalizationRewritePattern.match_and_rewrite = method
    populate: Any = populate_worklist
    PatternRewriteWalker._populate_worklist = populate  # pyright: ignore[reportPrivateUsage]
    applier: Any = applier_match_and_rewrite
    GreedyRewritePatternApplier.match_and_rewrite = applier


_EFFECTS: dict[type[Operation], AbstractSet[EffectInstance] | None | bool] = {}
"""`get_effects` of op classes whose effects come from static traits only (the
same set, or None, for every op of the class); False for the others."""


def cached_get_effects(op: Operation) -> AbstractSet[EffectInstance] | None:
    """xDSL's `get_effects(op)`, kept per op class where its traits alone decide
    (a frozen set: the callers only read it)."""
    effects = _EFFECTS.get(type(op), True)
    if effects is True:
        traits = type(op).get_traits_of_type(MemoryEffect)
        static = not isinstance(op, UnregisteredOp) and all(
            getattr(type(t).get_effects, "__func__", None) in _STATIC_EFFECTS
            for t in traits
        )
        effects = _EFFECTS[type(op)] = (
            False
            if not static
            else frozenset(get_effects(op) or ())
            if traits
            else None
        )
    if effects is False:
        return get_effects(op)
    return effects


Kinds = tuple[MemoryEffectKind, ...]
"""The distinct kinds of an op's effects, as a tuple: `in` a tuple compares
by identity first, where a set would hash each kind through `Enum.__hash__`,
a Python method."""

_KINDS: dict[type[Operation], Kinds | None | bool | Callable[[Operation], Kinds]] = {}
"""Per op class, its effects' kinds where its traits alone decide (or None:
unknown), its one effect trait's `effect_kinds` hook, or False: the kinds of
`cached_get_effects` of each op."""


def _kinds_of(effects: AbstractSet[EffectInstance]) -> Kinds:
    kinds: list[MemoryEffectKind] = []
    for effect in effects:
        if effect.kind not in kinds:
            kinds.append(effect.kind)
    return tuple(kinds)


def _kinds_plan(op: Operation) -> Kinds | None | bool | Callable[[Operation], Kinds]:
    cls = type(op)
    cached_get_effects(op)  # keeps the class's effects where static
    static = _EFFECTS[cls]
    if static is None or isinstance(static, frozenset):
        return None if static is None else _kinds_of(static)
    traits = cls.get_traits_of_type(MemoryEffect)
    if len(traits) == 1 and not isinstance(op, UnregisteredOp):
        hook = getattr(traits[0], "effect_kinds", None)
        if callable(hook):
            return cast(Callable[[Operation], Kinds], hook)
    return False


def effect_kinds(op: Operation) -> Kinds | None:
    """The kinds of xDSL's `get_effects(op)`, None where it is None: all that
    `cse` and the deallocation passes ask of an op's effects. A compute op's
    trait answers without building its effects (`effect_kinds`): a set of
    frozen dataclasses hashed through `Enum.__hash__`, some 10 us an op."""
    plan: Any = _KINDS.get(type(op), True)  # no `cast`: a Python call each
    if plan is True:
        plan = _KINDS[type(op)] = _kinds_plan(op)
    if plan is None or type(plan) is tuple:
        return plan  # pyright: ignore[reportUnknownVariableType]
    if plan is False:
        effects = cached_get_effects(op)
        return None if effects is None else _kinds_of(effects)
    return plan(op)


def has_effect_kind(op: Operation, kind: MemoryEffectKind) -> bool:
    """xDSL's `has_effects(op, kind)` from `effect_kinds` (the deallocation
    passes ask it of every op)."""
    kinds = effect_kinds(op)
    return kinds is not None and kind in kinds


def _is_side_effect_free(op: Operation) -> bool:
    kinds = effect_kinds(op)
    return kinds is not None and not kinds


def _only_has_effect(op: Operation, effect: MemoryEffectKind) -> bool:
    kinds = effect_kinds(op)
    if kinds is None:
        return False
    for kind in kinds:
        if kind != effect:
            return False
    return True


_CSE_EFFECTS = {
    "get_effects": cached_get_effects,
    "is_side_effect_free": _is_side_effect_free,
    "only_has_effect": _only_has_effect,
}
"""The effect queries xDSL's `cse` imports, and what replaces them."""

XDSL_CSE_EFFECTS: dict[str, Any] = {
    name: vars(cse_module)[name] for name in _CSE_EFFECTS
}
"""xDSL's own: the tests' reference."""


XDSL_TRAITS_GET_EFFECTS: Any = vars(traits_module)["get_effects"]
"""xDSL's `get_effects`, which its traits (`RecursiveMemoryEffect`: an op with
regions has its children's effects) and `dce`'s `result_only_effects` look up
in their modules at each call: the tests' reference."""


def cache_cse_effects() -> None:
    """Make `cse` ask `cached_get_effects`, and xDSL's traits and dead-code
    checks ask it of the ops inside an op with regions (`cse` asked the
    effects of every `scf.if` of `bufferization-lower-deallocations`, and each
    built its children's anew: a third of pass 11). They only read the sets.
    Calling it again changes nothing."""
    for name, function in _CSE_EFFECTS.items():
        setattr(cse_module, name, function)
    traits_module.get_effects = cached_get_effects
    dead_code_elimination.get_effects = cached_get_effects  # pyright: ignore[reportPrivateImportUsage]
