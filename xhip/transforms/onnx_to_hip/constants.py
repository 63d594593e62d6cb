"""`onnx.Constant`: small ones inline, large ones to `model.constants.bin`.

The file layout is documented in `docs/constants-file.md`: no header, each
constant's raw little-endian bytes in program order, each starting at a
multiple of `ALIGNMENT` bytes, zero padding in between.
"""

from __future__ import annotations

import math
import os
import tempfile
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import bufferization, builtin
from xdsl.dialects import memref as xmemref
from xdsl.dialects.bufferization import TensorFromMemRefConstraint
from xdsl.dialects.builtin import (
    AnyDenseElement,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolOpInterface

from xhip.dialects import onnx
from xhip.dialects.constraints import AnyDenseElementsAttrConstr, AnyTensorTypeConstr
from xhip.dialects.hip import CONSTANTS_FILE, EXTERNAL_DATA_ATTR
from xhip.dialects.memref import GlobalOp
from xhip.mapped import write_at
from xhip.transforms.onnx_to_hip.support import (
    ConversionState,
    OnnxPattern,
    Unsupported,
)

ALIGNMENT = 64
"""Byte alignment of each constant in the file and of its `memref.global`."""
GLOBAL_PREFIX = "hip_ext_constant_"

_PRIVATE = StringAttr("private")
_ALIGNMENT_ATTR = IntegerAttr(ALIGNMENT, i64)
_UNIT = UnitAttr()
"""The attributes every external constant's ops share."""
_NO_NESTED = ArrayAttr[StringAttr](())
"""A `SymbolRefAttr`'s nested references (none): built once, as the name's
`StringAttr` is shared with the global's `sym_name`."""


class ElidedConstantWarning(UserWarning):
    """A constant's data was elided from the IR (`dense_resource<__elided__>`)."""


def element_size(tensor_type: TensorType[Attribute]) -> int:
    size = getattr(tensor_type.get_element_type(), "compile_time_size", None)
    if not isinstance(size, int):
        raise Unsupported(
            f"element type {tensor_type.get_element_type()} has no fixed byte size"
        )
    return size


@dataclass
class ElidedConstants:
    """Counts constants whose bytes are missing, to warn once per run."""

    count: int = 0

    def warn(self) -> None:
        if self.count:
            warnings.warn(
                f"convert-onnx-to-hip: {self.count} constant(s) have elided data "
                "(dense_resource without a blob); they were replaced by zeros",
                ElidedConstantWarning,
                stacklevel=2,
            )


def constant_bytes(
    value: Attribute, tensor_type: TensorType[Attribute], elided: ElidedConstants
) -> bytes:
    """The raw little-endian bytes of a constant's value, zeros if elided.

    Not a copy: a dense value's own data, which for a large imported weight is
    a view of the model's mapped external data (`xhip.mapped`)."""
    size = math.prod(tensor_type.get_shape()) * element_size(tensor_type)
    if isinstance(value, DenseIntOrFPElementsAttr):
        data = value.data.data
    elif isinstance(value, DenseResourceAttr):
        interface = builtin.Builtin.get_interface(OpAsmDialectInterface)
        blob = interface.lookup(value.resource_handle.data) if interface else None
        if not blob:
            elided.count += 1
            return bytes(size)
        # MLIR's blob: "0x", a 4-byte little-endian alignment, then the data.
        data = bytes.fromhex(blob[2:])[4:]
    else:
        raise Unsupported(f"cannot read constant value {value}")
    if len(data) != size:
        raise Unsupported(
            f"constant of type {tensor_type} holds {len(data)} bytes, expected {size}"
        )
    return data


@dataclass
class ConstantsFile:
    """Appends constants to a temporary file; `commit` renames it into place.

    The pass decides each constant's offset at once; one background thread
    writes the bytes while the conversion goes on. A constant still in the
    model's mapped external data is copied by the kernel (`xhip.mapped`),
    never read into this process. Nothing is left behind unless the whole
    pass succeeds: `discard` removes the temporary file.
    """

    directory: str
    offset: int = 0
    _fd: int | None = field(default=None, init=False)
    _path: str = field(default="", init=False)
    _writer: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, "xhip-constants"), init=False
    )
    _writes: list[Future[None]] = field(default_factory=lambda: [], init=False)

    def append(self, data: bytes | memoryview) -> int:
        """Queue `data` at the next aligned offset and return that offset."""
        if self._fd is None:
            os.makedirs(self.directory, exist_ok=True)
            self._fd, self._path = tempfile.mkstemp(
                dir=self.directory, prefix=".model.constants."
            )
        start = -(-self.offset // ALIGNMENT) * ALIGNMENT
        self._writes.append(
            self._writer.submit(self._write, self._fd, self.offset, start, data)
        )
        self.offset = start + len(data)
        return start

    @staticmethod
    def _write(fd: int, end: int, start: int, data: bytes | memoryview) -> None:
        write_at(fd, end, bytes(start - end))  # the padding since the last one
        write_at(fd, start, data)

    def _wait(self) -> None:
        """Every queued write done; the first failure raised."""
        self._writer.shutdown(wait=True)
        writes, self._writes = self._writes, []
        for write in writes:
            write.result()

    def commit(self) -> str | None:
        self._wait()
        if self._fd is None:
            return None
        os.close(self._fd)
        self._fd = None
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self._path, 0o666 & ~umask)
        path = os.path.join(self.directory, CONSTANTS_FILE)
        os.replace(self._path, path)
        return path

    def discard(self) -> None:
        self._writer.shutdown(wait=True, cancel_futures=True)
        self._writes = []
        if self._fd is None:
            return
        os.close(self._fd)
        self._fd = None
        os.unlink(self._path)


@dataclass
class ConstantPolicy:
    """Which constants go to the file, and where it is."""

    min_num_elements: int | None
    output: ConstantsFile | None
    elided: ElidedConstants = field(default_factory=ElidedConstants)
    next_index: int = 0
    taken_names: set[str] | None = None
    """The module's symbol names, collected once: looking each new name up in
    the module would make the pass quadratic in the number of constants."""

    def externalizes(self, tensor_type: TensorType[Attribute]) -> bool:
        return (
            self.min_num_elements is not None
            and self.output is not None
            and math.prod(tensor_type.get_shape()) >= self.min_num_elements
        )

    def fresh_global_name(self, module: builtin.ModuleOp) -> str:
        """`hip_ext_constant_N` for the next N no symbol of `module` has, taken."""
        if self.taken_names is None:
            self.taken_names = symbol_names(module)
        while True:
            name = f"{GLOBAL_PREFIX}{self.next_index}"
            self.next_index += 1
            if name not in self.taken_names:
                self.taken_names.add(name)
                return name


def symbol_names(table: Operation) -> set[str]:
    """The names of the symbols defined directly in a symbol table op."""
    names: set[str] = set()
    for op in table.regions[0].block.ops:
        symbol = op.get_trait(SymbolOpInterface)
        if symbol is not None and (name := symbol.get_sym_attr_name(op)) is not None:
            names.add(name.data)
    return names


_READ_AS_OPERAND_1 = ("ReshapeOp", "SqueezeOp", "UnsqueezeOp", "ReduceBase")
"""The ops that read their operand 1 while compiling (a shape, some axes)."""

_READ_FROM_OPERAND_1 = (
    *("DropoutOp", "ResizeOp", "TopKOp"),
    *("SliceOp", "SplitOp", "TileOp", "ExpandOp"),
)
"""The ops that read every operand after the first while compiling."""


def _read_at_compile_time(op: onnx.ConstantOp) -> bool:
    """Whether every use reads the value while compiling (a shape, some axes).
    Only the families loaded are asked for (`onnx.loaded`): a user of a family
    that is not loaded cannot exist."""
    uses = op.output.uses
    if not uses:
        return True
    first = onnx.loaded(*_READ_AS_OPERAND_1)
    after = onnx.loaded(*_READ_FROM_OPERAND_1)
    return all(
        isinstance(use.operation, first)
        and use.index == 1
        or isinstance(use.operation, after)
        and use.index >= 1
        for use in uses
    )


class ConvertConstant(OnnxPattern[onnx.ConstantOp]):
    """`onnx.Constant` -> inline `arith.constant`, or an external `memref.global`.

    Shape and axes constants are left for their users, which read them, and
    erased with them; the pattern applier erases unused ones before they get here.
    """

    def __init__(self, state: ConversionState, policy: ConstantPolicy) -> None:
        super().__init__(state)
        self.policy = policy
        self.types: dict[Attribute, tuple[MemRefType[Attribute], Attribute]] = {}
        """Each external constant's tensor type -> its global's memref type and
        the type `bufferization.to_tensor` gives that, made once (xDSL
        verifies each new type; a model's weights share a few)."""
        self.sizes: dict[int, IntegerAttr] = {}
        """The `size` attributes made so far, by value."""

    def convert(self, op: onnx.ConstantOp, rewriter: PatternRewriter) -> None:
        if _read_at_compile_time(op):
            return
        tensor_type = op.output.type
        # `output` is declared a tensor, which only verification enforces.
        if not AnyTensorTypeConstr.verifies(tensor_type) or op.value is None:
            raise Unsupported("expected a `value` of ranked tensor type")
        data = constant_bytes(op.value, tensor_type, self.policy.elided)
        if self.policy.externalizes(tensor_type):
            rewriter.replace(op, self._external(op, tensor_type, data, rewriter))
            return
        value = op.value
        if not AnyDenseElementsAttrConstr.verifies(value):
            value = DenseIntOrFPElementsAttr(
                cast(TensorType[AnyDenseElement], tensor_type), BytesAttr(data)
            )
        cst = self.state.folder.get(rewriter, op, value)
        rewriter.replace(op, [], [cst])

    def _external(
        self,
        op: onnx.ConstantOp,
        tensor_type: TensorType[Attribute],
        data: bytes,
        rewriter: PatternRewriter,
    ) -> list[Operation]:
        assert self.policy.output is not None
        module = op.get_toplevel_object()
        assert isinstance(module, builtin.ModuleOp)
        name = self.policy.fresh_global_name(module)
        offset = self.policy.output.append(data)
        types = self.types.get(tensor_type)
        if types is None:
            memref_type = MemRefType(
                tensor_type.get_element_type(), tensor_type.get_shape()
            )
            as_tensor = TensorFromMemRefConstraint.memref_to_tensor(memref_type)
            types = self.types[tensor_type] = (memref_type, as_tensor)
        memref_type, as_tensor = types
        size = self.sizes.get(len(data))
        if size is None:
            size = self.sizes[len(data)] = IntegerAttr(len(data), i64)
        # `create` with what `GlobalOp(name, memref_type, alignment=ALIGNMENT,
        # attributes=...)`, `GetGlobalOp(name, memref_type)` and
        # `ToTensorOp(get_global, restrict=True)` build, the attributes they
        # would make anew for each constant shared (`test_constants_ops`).
        sym_name = StringAttr(name)
        global_op = GlobalOp.create(
            properties={
                "sym_name": sym_name,
                "sym_visibility": _PRIVATE,
                "type": memref_type,
                "alignment": _ALIGNMENT_ATTR,
            },
            attributes={
                EXTERNAL_DATA_ATTR: DictionaryAttr(
                    {"offset": IntegerAttr(offset, i64), "size": size}
                )
            },
        )
        # Like MLIR's SymbolTable insertion followed by a move to the front.
        rewriter.insert(global_op, InsertPoint.at_start(module.body.block))
        get_global = xmemref.GetGlobalOp.create(
            result_types=[memref_type],
            properties={"name": SymbolRefAttr(sym_name, _NO_NESTED)},
        )
        to_tensor = bufferization.ToTensorOp.create(
            operands=get_global.results,
            result_types=[as_tensor],
            properties={"restrict": _UNIT},
        )
        return [get_global, to_tensor]
