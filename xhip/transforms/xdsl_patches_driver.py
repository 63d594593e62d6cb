"""More speed fixes to xDSL 0.75, installed by `xhip.transforms.xdsl_patches`'s
functions with the others (`docs/xdsl-upstream.md`, 3, 7, 8, 13-17, 25-27
and 29); kept apart only for the size of that module.

`OpWorklist`, `populate_worklist`: the pattern walker's worklist keyed by `id(op)`
(an op's hash is `id` through a Python method) and filled in one loop.
`op_walk`, `region_walk`, `block_walk`, `iterate_with_generators`: a walk
handed each op up through three generators per nesting level, and loops
over a block's ops or a region's blocks ended by raising `StopIteration` in
Python. `IRMeta`, `plain_ir_isinstance`: `isinstance` of an IR class in C
instead of `ABCMeta.__instancecheck__`. `replace_all_uses_with`: without an
operand view. `hint_constraint`: `isa` of a generic hint
(`isa(shape, ArrayAttr[IntAttr])` in every `MemRefType(...)`) built its
constraint anew on each call. `applier_match_and_rewrite`: the applier asked
two trait questions of every op to decide whether to fold it.
`unlink_ops_directly`: erasing, detaching and inserting an op, a builder's
insert, a rewriter's replacing of uses and of ops (`rewriter_replace`,
`block_erase_op`) relink the op and use lists themselves instead of through a
chain of small methods and properties, and
`SSAValue.get` of a value returns it without an import and a `cast`. None
changes a result.
"""

from __future__ import annotations

from abc import ABCMeta
from abc import _get_dump as _abc_get_dump  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue, reportUnknownVariableType]
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast

import xdsl.irdl as irdl_package
from xdsl.builder import (
    Builder,
    InsertOpInvT,
    _current_builder,  # pyright: ignore[reportPrivateUsage]
)
from xdsl.folder import Folder
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, SSAValues, Use
from xdsl.ir import core as ir_core
from xdsl.ir.core import BlockOps, RegionBlocks
from xdsl.irdl import AttrConstraint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, HasFolder
from xdsl.transforms import dead_code_elimination
from xdsl.utils.worklist import _MISSING, Worklist  # pyright: ignore[reportPrivateUsage]


class OpWorklist(Worklist[Operation]):
    """xDSL's `Worklist` of the pattern walker, its map keyed by `id(op)`
    instead of by the op: an op hashes and compares by identity anyway, but
    through `IRDLOperation.__hash__` in Python, on every push, pop and remove
    (some 150,000 of them in `onnx-to-hip` at 100 attention layers). Every key
    is an op the stack holds, so no `id` is reused while it is a key; the
    stack, and so the order ops are visited in, is xDSL's."""

    def push(self, item: Operation) -> None:
        known: dict[int, int] = self._map  # pyright: ignore[reportAssignmentType]
        key = id(item)
        if key not in known:
            known[key] = len(self._stack)
            self._stack.append(item)

    def push_all(self, items: Iterable[Operation]) -> None:
        """`push` of each of `items`, in order, without a call per item."""
        stack = self._stack
        known: dict[int, int] = self._map  # pyright: ignore[reportAssignmentType]
        for item in items:
            key = id(item)
            if key not in known:
                known[key] = len(stack)
                stack.append(item)

    def pop(self) -> Operation:
        known: dict[int, int] = self._map  # pyright: ignore[reportAssignmentType]
        item = next_op(self._stack, known)
        if item is None:
            raise IndexError("pop from empty worklist")
        return item

    def remove(self, item: Operation) -> None:
        known: dict[int, int] = self._map  # pyright: ignore[reportAssignmentType]
        index = known.pop(id(item), None)
        if index is not None:
            self._stack[index] = _MISSING

    @staticmethod
    def of(worklist: Worklist[Operation]) -> OpWorklist:
        """`worklist`'s items, in the same places, keyed by id."""
        ours = OpWorklist()
        ours._stack = list(worklist._stack)  # pyright: ignore[reportPrivateUsage]
        ours._map = cast(  # pyright: ignore[reportAttributeAccessIssue]
            Any,
            {id(item): i for item, i in worklist._map.items()},  # pyright: ignore[reportPrivateUsage]
        )
        return ours


def next_op(stack: list[Any], known: dict[int, int]) -> Operation | None:
    """`Worklist.pop` after its `__bool__`: the last op on the stack that was
    not removed, or None when there is none."""
    while stack:
        item = stack.pop()
        if item is not _MISSING:
            del known[id(item)]
            return item
    return None


def op_worklist(walker: PatternRewriteWalker) -> OpWorklist:
    worklist = walker._worklist  # pyright: ignore[reportPrivateUsage]
    if type(worklist) is not OpWorklist:
        worklist = walker._worklist = OpWorklist.of(worklist)  # pyright: ignore[reportPrivateUsage]
    return worklist


def populate_worklist(
    self: PatternRewriteWalker, op: Operation | Region | Block
) -> None:
    """`PatternRewriteWalker._populate_worklist` into an `OpWorklist`, the
    walk's ops pushed in one loop."""
    op_worklist(self).push_all(
        op.walk(reverse=not self.walk_reverse, region_first=not self.walk_regions_first)
    )


XDSL_POPULATE_WORKLIST: Any = PatternRewriteWalker._populate_worklist  # pyright: ignore[reportPrivateUsage]
"""xDSL's own: the tests' reference."""


FOLDS: dict[type[Operation], bool] = {}
"""Per op class, whether a folding applier tries to fold its ops (a folder and
not a constant); `OpTraits.add_trait` clears it with the other trait caches."""


def folds(op: Operation) -> bool:
    """Whether a folding applier tries to fold `op`, as xDSL's asks per op."""
    cls = type(op)
    answer = FOLDS.get(cls)
    if answer is None:
        answer = FOLDS[cls] = op.has_trait(
            HasFolder, value_if_unregistered=False
        ) and not op.has_trait(ConstantLike, value_if_unregistered=True)
    return answer


def applier_match_and_rewrite(
    self: GreedyRewritePatternApplier, op: Operation, rewriter: PatternRewriter
) -> None:
    """`GreedyRewritePatternApplier.match_and_rewrite`, whether to fold
    decided once per op class instead of two trait questions per op (and
    without importing `is_trivially_dead` on each call)."""
    if self.dce_enabled and dead_code_elimination.is_trivially_dead(op):
        rewriter.erase(op)
        return
    if self.folding_enabled and folds(op):
        if self.ctx is None:
            raise ValueError("Context is required for folding")
        folded = Folder(self.ctx).try_fold(op)
        if folded is not None:
            folded_values, folded_ops = folded
            rewriter.replace(op, new_ops=folded_ops, new_results=folded_values)
            return
    for pattern in self.rewrite_patterns:
        pattern.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            return


XDSL_APPLIER_MATCH_AND_REWRITE: Any = GreedyRewritePatternApplier.match_and_rewrite
"""xDSL's own applier: the tests' reference."""


def _walk_blocks(
    region: Region, reverse: bool, region_first: bool
) -> Iterator[Operation]:
    """`Region.walk`'s loop with `Block.walk`'s inside it, reading the links
    (`_first_op`, `_next_op`, ...) when xDSL's iterators would: a block's
    first op as its walk starts, the next op or block as one is taken."""
    block = region._last_block if reverse else region._first_block  # pyright: ignore[reportPrivateUsage]
    while block is not None:
        after_block = block._prev_block if reverse else block._next_block  # pyright: ignore[reportPrivateUsage]
        op = block._last_op if reverse else block._first_op  # pyright: ignore[reportPrivateUsage]
        while op is not None:
            after = op._prev_op if reverse else op._next_op  # pyright: ignore[reportPrivateUsage]
            if op.regions:
                yield from op_walk(op, reverse=reverse, region_first=region_first)
            else:
                yield op
            op = after
        block = after_block


def _walk_ops(block: Block, reverse: bool, region_first: bool) -> Iterator[Operation]:
    """`Block.walk`: an op without regions yielded here, one with regions
    walked by `op_walk`, whose loops over its regions and blocks are its own."""
    op = block._last_op if reverse else block._first_op  # pyright: ignore[reportPrivateUsage]
    while op is not None:
        after = op._prev_op if reverse else op._next_op  # pyright: ignore[reportPrivateUsage]
        if op.regions:
            yield from op_walk(op, reverse=reverse, region_first=region_first)
        else:
            yield op
        op = after


def op_walk(
    self: Operation, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """`Operation.walk` with `Region.walk` and `Block.walk` inlined: an op
    nested n regions deep passed through 3n generators (a function's ops
    through six in a module walk), now through n; each region, block and op
    is read at the point of the walk where xDSL's reads it, so a walk that
    edits the IR as it goes visits what it visited."""
    if not region_first:
        yield self
    for region in reversed(self.regions) if reverse else self.regions:
        block = region._last_block if reverse else region._first_block  # pyright: ignore[reportPrivateUsage]
        while block is not None:
            after_block = block._prev_block if reverse else block._next_block  # pyright: ignore[reportPrivateUsage]
            op = block._last_op if reverse else block._first_op  # pyright: ignore[reportPrivateUsage]
            while op is not None:
                after = op._prev_op if reverse else op._next_op  # pyright: ignore[reportPrivateUsage]
                if op.regions:
                    yield from op_walk(op, reverse=reverse, region_first=region_first)
                else:
                    yield op
                op = after
            block = after_block
    if region_first:
        yield self


def region_walk(
    self: Region, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """`Region.walk` through `op_walk`'s loops."""
    return _walk_blocks(self, reverse, region_first)


def block_walk(
    self: Block, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """`Block.walk`, yielding an op without regions itself instead of through
    a generator of its own `walk` (which yields just it)."""
    return _walk_ops(self, reverse, region_first)


XDSL_OPERATION_WALK: Any = Operation.walk
"""xDSL's own `Operation.walk` and `Region.walk`: the tests' reference."""
XDSL_REGION_WALK: Any = Region.walk


XDSL_BLOCK_WALK: Any = Block.walk
"""xDSL's own `Block.walk`: the tests' reference."""


_HINT_CONSTRAINTS: dict[object, AttrConstraint[Any]] = {}
"""The constraint of each generic attribute hint `isa` was asked about."""


def hint_constraint(irdl: Any, *args: Any, **kwargs: Any) -> Any:
    """`irdl_to_attr_constraint` as `isa` calls it (a hint, nothing else), kept
    per hint: `isa(shape, ArrayAttr[IntAttr])`, in every `MemRefType(...)`,
    built the same constraint anew each time (40 of a type's 64 us)."""
    if args or kwargs:
        return XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl, *args, **kwargs)
    try:
        found = _HINT_CONSTRAINTS.get(irdl)
    except TypeError:  # an unhashable hint
        return XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl)
    if found is None:
        found = _HINT_CONSTRAINTS[irdl] = XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl)
    return found


XDSL_IRDL_TO_ATTR_CONSTRAINT: Any = irdl_package.irdl_to_attr_constraint
"""xDSL's own, which `isa` imports from `xdsl.irdl` on each call: the tests'
reference (xDSL's modules that import it at load keep it)."""


class IRMeta(ABCMeta):
    """`ABCMeta` whose `isinstance` and `issubclass` are `type`'s own, in C.

    xDSL's IR classes (attributes, ops, values, blocks, regions) are ABCs, so
    every `isinstance(op, SomeOp)` that is not an exact match runs
    `ABCMeta.__instancecheck__`, a Python function, for an answer that only a
    registered virtual subclass or a `__subclasshook__` could make differ from
    `type`'s; xDSL registers none under these classes and defines no hook
    (`ir_classes_without_abc_checks` checks that). Some 300,000 such checks in
    `onnx-to-hip` at 100 attention layers."""

    # Not annotated: annotations here would give the classes of this
    # metaclass an `__annotations__` of their own (IRDL reads theirs).
    __instancecheck__ = type.__instancecheck__  # pyright: ignore[reportAssignmentType]
    __subclasscheck__ = type.__subclasscheck__  # pyright: ignore[reportAssignmentType]


IR_ROOTS: tuple[type[Any], ...] = (
    Attribute,
    ir_core.IRWithUses,
    ir_core.IRWithName,
    ir_core._IRNode,  # pyright: ignore[reportPrivateUsage]
)
"""The ABCs every xDSL attribute, op, value, block and region derives from."""


def _own_checks_plain(cls: type[Any]) -> bool:
    """Whether `cls` itself adds nothing to `type`'s answers: nothing is
    registered with it, and its subclass hook is `object`'s or one of
    `collections.abc`'s, which answer only for their own class (`if cls is
    Iterable: ...`), never for a subclass such as `ArrayAttr`."""
    if getattr(cls, "_abc_impl", None) is not None and _abc_get_dump(cls)[0]:
        return False
    hook = getattr(cls.__subclasshook__, "__func__", None)
    return hook is None or getattr(hook, "__module__", None) == "collections.abc"


def ir_classes_without_abc_checks(
    roots: Iterable[type[Any]] = IR_ROOTS,
) -> list[type[Any]]:
    """Every class under `roots` still of `ABCMeta` itself whose checks
    `IRMeta` answers the same: neither it nor any class below it (whose
    answers `ABCMeta` consults for it) adds to `type`'s."""
    plain: dict[type[Any], bool] = {}

    def visit(cls: type[Any]) -> bool:
        known = plain.get(cls)
        if known is None:
            plain[cls] = True  # a class met again below itself cannot be
            below = [visit(sub) for sub in cls.__subclasses__()]
            known = plain[cls] = _own_checks_plain(cls) and all(below)
        return known

    for root in roots:
        visit(root)
    return [cls for cls, ok in plain.items() if ok and type(cls) is ABCMeta]


def plain_ir_isinstance() -> None:
    """Make xDSL's IR classes answer `isinstance`/`issubclass` in C (`IRMeta`);
    classes defined later under them get `IRMeta` from their bases. A class
    with something registered with it or below it, or a subclass hook, keeps
    `ABCMeta` (registering one later would not be seen: nothing in xDSL or
    xhip registers with these classes). Calling it again changes nothing."""
    for cls in ir_classes_without_abc_checks():
        cls.__class__ = IRMeta


def replace_all_uses_with(self: SSAValue, value: SSAValue) -> None:
    """`SSAValue.replace_all_uses_with`, each use's operand set in place of
    going through an `OpOperands` view, whose `__setitem__` slices the
    operands through `SSAValues.__getitem__` in Python twice: the same uses
    moved in the same order, the same new operand tuples."""
    if value is self:
        return
    uses: list[Use] = []
    use = self.first_use
    while use is not None:
        uses.append(use)
        use = use._next_use  # pyright: ignore[reportPrivateUsage]
    for use in uses:
        op = use.operation
        index = use.index
        operands = op._operands  # pyright: ignore[reportPrivateUsage]
        operand_uses = op._operand_uses  # pyright: ignore[reportPrivateUsage]
        operands[index].remove_use(operand_uses[index])
        value.add_use(operand_uses[index])
        changed = list(operands)
        changed[index] = value
        op._operands = SSAValues(changed)  # pyright: ignore[reportPrivateUsage]
    # carry over name if possible
    if value.name_hint is None:
        value.name_hint = self.name_hint
    assert self.first_use is None, "unexpected error in xdsl"


XDSL_REPLACE_ALL_USES_WITH: Any = SSAValue.replace_all_uses_with
"""xDSL's own: the tests' reference."""


_ERASABLE_NAMES: set[str] = set()
"""Names xDSL's `SSAValue.erase` was seen to accept: it sets each on the
`ErasedSSAValue` it builds, which raises for a name that does not read back
(a value named `_1` keeps the name `""`)."""


def ssa_value_erase(self: SSAValue, safe_erase: bool = True) -> None:
    """`SSAValue.erase` (every result of every op erased): a value without
    uses is left as xDSL's leaves it, without building the `ErasedSSAValue`
    that would take its uses and checking the value's name on it, 4 us a
    result; with a name not seen to pass that check, it goes to xDSL's."""
    if self.first_use is None:
        name = self._name  # pyright: ignore[reportPrivateUsage]
        if name is None or name in _ERASABLE_NAMES:
            return
        XDSL_SSA_VALUE_ERASE(self, safe_erase)
        if len(_ERASABLE_NAMES) < 65536:  # a long-lived process meets many
            _ERASABLE_NAMES.add(name)
        return
    XDSL_SSA_VALUE_ERASE(self, safe_erase)


XDSL_SSA_VALUE_ERASE: Any = SSAValue.erase
"""xDSL's own: the tests' reference, and every value with uses."""


def _ops_from(op: Operation | None) -> Iterator[Operation]:
    """`_BlockOpsIterator` as a generator: each op's next one read as the op
    is taken, the end met without raising `StopIteration` in Python."""
    while op is not None:
        after = op._next_op  # pyright: ignore[reportPrivateUsage]
        yield op
        op = after


def _ops_back_from(op: Operation | None) -> Iterator[Operation]:
    """`_BlockOpsReverseIterator` as a generator."""
    while op is not None:
        after = op._prev_op  # pyright: ignore[reportPrivateUsage]
        yield op
        op = after


def _blocks_from(block: Block | None) -> Iterator[Block]:
    """`_RegionBlocksIterator` as a generator."""
    while block is not None:
        after = block._next_block  # pyright: ignore[reportPrivateUsage]
        yield block
        block = after


def _blocks_back_from(block: Block | None) -> Iterator[Block]:
    """`_RegionBlocksReverseIterator` as a generator."""
    while block is not None:
        after = block._prev_block  # pyright: ignore[reportPrivateUsage]
        yield block
        block = after


def block_ops_iter(self: BlockOps) -> Iterator[Operation]:
    """`iter(block.ops)`: the first op read now, as xDSL's iterator reads it
    when it is made; xDSL's iterator classes run `__next__` in Python and
    end by raising `StopIteration` (some 25,000 times in `onnx-to-hip` at 100
    attention layers)."""
    return _ops_from(self.block._first_op)  # pyright: ignore[reportPrivateUsage]


def block_ops_reversed(self: BlockOps) -> Iterator[Operation]:
    """`reversed(block.ops)`, the last op read now."""
    return _ops_back_from(self.block._last_op)  # pyright: ignore[reportPrivateUsage]


def region_blocks_iter(self: RegionBlocks) -> Iterator[Block]:
    """`iter(region.blocks)`, the first block read now."""
    return _blocks_from(self._region._first_block)  # pyright: ignore[reportPrivateUsage]


def region_blocks_reversed(self: RegionBlocks) -> Iterator[Block]:
    """`reversed(region.blocks)`, the last block read now."""
    return _blocks_back_from(self._region._last_block)  # pyright: ignore[reportPrivateUsage]


XDSL_ITERATORS: dict[tuple[type[Any], str], Any] = {
    (BlockOps, "__iter__"): vars(BlockOps)["__iter__"],
    (BlockOps, "__reversed__"): vars(BlockOps)["__reversed__"],
    (RegionBlocks, "__iter__"): vars(RegionBlocks)["__iter__"],
    (RegionBlocks, "__reversed__"): vars(RegionBlocks)["__reversed__"],
}
"""xDSL's own iterators of a block's ops and a region's blocks: the tests'
reference."""


def iterate_with_generators() -> None:
    """Make `block.ops` and `region.blocks` iterate (either way) through
    generators. Calling it again changes nothing."""
    ours: dict[tuple[type[Any], str], Any] = {
        (BlockOps, "__iter__"): block_ops_iter,
        (BlockOps, "__reversed__"): block_ops_reversed,
        (RegionBlocks, "__iter__"): region_blocks_iter,
        (RegionBlocks, "__reversed__"): region_blocks_reversed,
    }
    for (cls, name), method in ours.items():
        setattr(cls, name, method)


def operation_drop_all_references(self: Operation) -> None:
    """`Operation.drop_all_references` (every erased op, 12,000 of them) with
    each operand's use unlinked in place of a `remove_use` call per operand,
    and the successors' loop only where there are successors: the same use
    lists, the same fields."""
    self.parent = None
    for operand, use in zip(self._operands, self._operand_uses):  # pyright: ignore[reportPrivateUsage]
        prev_use = use._prev_use  # pyright: ignore[reportPrivateUsage]
        next_use = use._next_use  # pyright: ignore[reportPrivateUsage]
        if prev_use is None:
            operand.first_use = next_use
        else:
            prev_use._next_use = next_use  # pyright: ignore[reportPrivateUsage]
        if next_use is not None:
            next_use._prev_use = prev_use  # pyright: ignore[reportPrivateUsage]
    self._operand_uses = ()  # pyright: ignore[reportPrivateUsage]
    if self._successors:  # pyright: ignore[reportPrivateUsage]
        for successor, use in zip(self._successors, self._successor_uses):  # pyright: ignore[reportPrivateUsage]
            successor.remove_use(use)
    self._successor_uses = ()  # pyright: ignore[reportPrivateUsage]
    self._successors = ()  # pyright: ignore[reportPrivateUsage]
    for region in self.regions:
        region.drop_all_references()


def operation_erase(
    self: Operation, safe_erase: bool = True, drop_references: bool = True
) -> None:
    """`Operation.erase`, a result without uses whose name needs no check left
    as `ssa_value_erase` leaves it without a call per result."""
    assert self.parent is None, (
        "Operation with parents should first be detached " + "before erasure."
    )
    if drop_references:
        self.drop_all_references()
    for result in self.results:
        if result.first_use is None:
            name = result._name  # pyright: ignore[reportPrivateUsage]
            if name is None or name in _ERASABLE_NAMES:
                continue
        result.erase(safe_erase=safe_erase)


def block_detach_op(self: Block, op: Operation) -> Operation:
    """`Block.detach_op` (14,000 ops) reading the op's neighbours from its
    fields instead of through the `prev_op`/`next_op` properties."""
    if op.parent is not self:
        raise ValueError("Cannot detach operation from a different block.")
    op.parent = None
    prev_op = op._prev_op  # pyright: ignore[reportPrivateUsage]
    next_op = op._next_op  # pyright: ignore[reportPrivateUsage]
    if prev_op is not None:
        prev_op._next_op = next_op  # pyright: ignore[reportPrivateUsage]
        op._prev_op = None  # pyright: ignore[reportPrivateUsage]
    else:
        assert self._first_op is op  # pyright: ignore[reportPrivateUsage]
        self._first_op = next_op  # pyright: ignore[reportPrivateUsage]
    if next_op is not None:
        next_op._prev_op = prev_op  # pyright: ignore[reportPrivateUsage]
        op._next_op = None  # pyright: ignore[reportPrivateUsage]
    else:
        assert self._last_op is op  # pyright: ignore[reportPrivateUsage]
        self._last_op = prev_op  # pyright: ignore[reportPrivateUsage]
    return op


def block_erase_op(self: Block, op: Operation, safe_erase: bool = True) -> None:
    """`Block.erase_op` (8,500 ops) calling `block_detach_op` directly instead
    of through `Rewriter.erase_op` and the method lookups."""
    block_detach_op(self, op)
    op.erase(safe_erase=safe_erase)


def block_insert_op_before(
    self: Block, new_op: Operation, existing_op: Operation
) -> None:
    """`Block.insert_op_before` (12,500 ops) linking `new_op` in itself
    instead of through `prev_op` and `Operation._insert_prev_op`."""
    if existing_op.parent is not self:
        raise ValueError("Can't insert operation before operation not in current block")
    self._attach_op(new_op)  # pyright: ignore[reportPrivateUsage]
    prev_op = existing_op._prev_op  # pyright: ignore[reportPrivateUsage]
    if prev_op is None:
        self._first_op = new_op  # pyright: ignore[reportPrivateUsage]
    else:
        prev_op._next_op = new_op  # pyright: ignore[reportPrivateUsage]
    new_op._prev_op = prev_op  # pyright: ignore[reportPrivateUsage]
    new_op._next_op = existing_op  # pyright: ignore[reportPrivateUsage]
    existing_op._prev_op = new_op  # pyright: ignore[reportPrivateUsage]


def rewriter_replace_all_uses_with(
    self: PatternRewriter,
    from_value: SSAValue,
    to_value: SSAValue | None,
    safe_erase: bool = True,
) -> None:
    """`PatternRewriter.replace_all_uses_with` collecting the users from the
    use list itself instead of through an `IRUses` generator and the
    `Use.operation` property: the same ops, in the same order, told of."""
    if from_value is to_value:
        return
    modified_ops: list[Operation] = []
    use = from_value.first_use
    while use is not None:
        modified_ops.append(use._operation)  # pyright: ignore[reportPrivateUsage]
        use = use._next_use  # pyright: ignore[reportPrivateUsage]
    if to_value is None:
        self.has_done_action = True
        from_value.erase(safe_erase=safe_erase)
    else:
        from_value.replace_all_uses_with(to_value)
    if modified_ops:
        self.has_done_action = True
        for op in modified_ops:
            self.handle_operation_modification(op)


def builder_insert(
    self: Builder, op: InsertOpInvT, insertion_point: InsertPoint | None = None
) -> InsertOpInvT:
    """`Builder.insert` (11,500 inserts) placing the ops itself instead of
    through `Rewriter.insert_op` and `Block.insert_ops_before`: the same
    order, names, callbacks and error."""
    ops = (op,) if isinstance(op, Operation) else op
    if not ops:
        return ops  # pyright: ignore[reportReturnType]
    implicit_builder = _current_builder.builder
    if implicit_builder is not None and implicit_builder is not self:
        raise ValueError(
            "Cannot insert operation explicitly when an implicit builder exists."
        )
    point = self.insertion_point if insertion_point is None else insertion_point
    block = point.block
    before = point.insert_before
    if before is not None:
        for op_ in ops:
            block.insert_op_before(op_, before)
    else:
        for op_ in ops:
            block.add_op(op_)
    name_hint = self._name_hint  # pyright: ignore[reportPrivateUsage]
    for op_ in ops:
        if name_hint is not None:
            for result in op_.results:
                if result._name is None:  # pyright: ignore[reportPrivateUsage]
                    result._name = name_hint  # pyright: ignore[reportPrivateUsage]
        self.handle_operation_insertion(op_)
    return op


def rewriter_insert(
    self: PatternRewriter,
    op: InsertOpInvT,
    insertion_point: InsertPoint | None = None,
) -> InsertOpInvT:
    """`PatternRewriter.insert` calling `builder_insert` without `super()`."""
    self.has_done_action = True
    return builder_insert(self, op, insertion_point)


PLAIN_REWRITERS: set[type[Any]] = {PatternRewriter}
"""Rewriter classes whose `insert`, `erase`, `replace_all_uses_with` and
listener calls are `PatternRewriter`'s, which `rewriter_replace` does itself
(`WalkRewriter` only builds its insertion point lazily, which `replace`
does not read); any other class's `replace` is xDSL's."""


def rewriter_replace(
    self: PatternRewriter,
    op: Operation,
    new_ops: Operation | Sequence[Operation],
    new_results: Sequence[SSAValue | None] | None = None,
    safe_erase: bool = True,
) -> None:
    """`PatternRewriter.replace` (5,000 calls at 100 layers) doing its
    `insert`, `replace_all_uses_with`, `erase` and listener calls itself: no
    `InsertPoint`, no call into an empty insert, the handler lists read once;
    the same edits, callbacks and errors, in the same order."""
    if type(self) not in PLAIN_REWRITERS:
        XDSL_REPLACE(self, op, new_ops, new_results, safe_erase)
        return
    self.has_done_action = True
    if isinstance(new_ops, Operation):
        new_ops = (new_ops,)
    block = op.parent
    if block is None:
        raise ValueError("Operation insertion point must have a parent block")
    if new_ops:
        implicit_builder = _current_builder.builder
        if implicit_builder is not None and implicit_builder is not self:
            raise ValueError(
                "Cannot insert operation explicitly when an implicit builder exists."
            )
        for new_op in new_ops:
            block.insert_op_before(new_op, op)
        builder_hint = self._name_hint  # pyright: ignore[reportPrivateUsage]
        inserted = self.operation_insertion_handler
        for new_op in new_ops:
            if builder_hint is not None:
                for result in new_op.results:
                    if result._name is None:  # pyright: ignore[reportPrivateUsage]
                        result._name = builder_hint  # pyright: ignore[reportPrivateUsage]
            for handler in inserted:
                handler(new_op)
    if new_results is None:
        new_results = new_ops[-1].results if new_ops else []
    if len(op.results) != len(new_results):
        raise ValueError(
            f"Expected {len(op.results)} new results, but got {len(new_results)}"
        )
    for replaced in self.operation_replacement_handler:
        replaced(op, new_results)
    modified = self.operation_modification_handler
    for old_result, new_result in zip(op.results, new_results):
        if old_result is not new_result:
            users: list[Operation] = []
            use = old_result.first_use
            while use is not None:
                users.append(use._operation)  # pyright: ignore[reportPrivateUsage]
                use = use._next_use  # pyright: ignore[reportPrivateUsage]
            if new_result is None:
                old_result.erase(safe_erase=safe_erase)
            else:
                old_result.replace_all_uses_with(new_result)
            for user in users:
                for handler in modified:
                    handler(user)
        if new_result is not None and not new_result._name:  # pyright: ignore[reportPrivateUsage]
            old_name = old_result._name  # pyright: ignore[reportPrivateUsage]
            if old_name is None:
                new_result._name = None  # pyright: ignore[reportPrivateUsage]
            else:
                new_result.name_hint = old_name
    if (
        len(new_results) == 1
        and (only_result := new_results[0]) is not None
        and (name_hint := only_result._name) is not None  # pyright: ignore[reportPrivateUsage]
    ):
        for new_op in new_ops:
            for res in new_op.results:
                if not res._name:  # pyright: ignore[reportPrivateUsage]
                    res.name_hint = name_hint
    for removed in self.operation_removal_handler:
        removed(op)
    parent = op.parent
    if parent is not None:
        parent.erase_op(op, safe_erase=safe_erase)
    else:
        op.erase(safe_erase=safe_erase)


def ssa_value_get(arg: SSAValue | Operation, *, type: Any = Attribute) -> SSAValue:
    """`SSAValue.get` (each operand of a hand-built op) returning a value
    asked for with no type at once: xDSL's imports `isa` and calls `cast` on
    every call. Anything else goes to xDSL's, errors included."""
    if type is Attribute and isinstance(arg, SSAValue):
        return arg
    return XDSL_SSA_VALUE_GET(arg, type=type)


XDSL_SSA_VALUE_GET: Any = SSAValue.get
"""xDSL's own: operations, typed requests, errors, and the tests' reference."""


def insert_point_in(op: Operation, block: Block) -> InsertPoint:
    """`InsertPoint.before(op)` where `block` is known to be op's: the frozen
    dataclass's fields set directly, without its check that they agree."""
    point = object.__new__(InsertPoint)
    object.__setattr__(point, "block", block)
    object.__setattr__(point, "insert_before", op)
    return point


def insert_point_before(op: Operation) -> InsertPoint:
    """`InsertPoint.before` (7,400 calls, one per `PatternRewriter.replace`)
    without `parent_block()`, the dataclass's `__init__` and its check that
    the op is in the block, which holds by construction."""
    block = op.parent
    if block is None:
        raise ValueError("Operation insertion point must have a parent block")
    return insert_point_in(op, block)


XDSL_REPLACE: Any = PatternRewriter.replace
"""xDSL's own: other rewriter classes, and the tests' reference."""


XDSL_UNLINK_METHODS: dict[tuple[type[Any], str], Any] = {
    (Operation, "drop_all_references"): Operation.drop_all_references,
    (Operation, "erase"): Operation.erase,
    (Block, "detach_op"): Block.detach_op,
    (Block, "insert_op_before"): Block.insert_op_before,
    (Block, "erase_op"): Block.erase_op,
    (PatternRewriter, "replace"): PatternRewriter.replace,
    (PatternRewriter, "replace_all_uses_with"): PatternRewriter.replace_all_uses_with,
    (Builder, "insert"): Builder.insert,
    (PatternRewriter, "insert"): PatternRewriter.insert,
    (SSAValue, "get"): vars(SSAValue)["get"],
    (InsertPoint, "before"): vars(InsertPoint)["before"],
}
"""xDSL's own methods that `unlink_ops_directly` replaces: the tests' reference."""


def unlink_ops_directly() -> None:
    """Put in place the erase, detach, insert and replace paths above.
    Calling it again changes nothing."""
    ours: dict[tuple[type[Any], str], Any] = {
        (Operation, "drop_all_references"): operation_drop_all_references,
        (Operation, "erase"): operation_erase,
        (Block, "detach_op"): block_detach_op,
        (Block, "insert_op_before"): block_insert_op_before,
        (Block, "erase_op"): block_erase_op,
        (PatternRewriter, "replace"): rewriter_replace,
        (PatternRewriter, "replace_all_uses_with"): rewriter_replace_all_uses_with,
        (Builder, "insert"): builder_insert,
        (PatternRewriter, "insert"): rewriter_insert,
        (SSAValue, "get"): staticmethod(ssa_value_get),
        (InsertPoint, "before"): staticmethod(insert_point_before),
    }
    for (cls, name), method in ours.items():
        setattr(cls, name, method)
