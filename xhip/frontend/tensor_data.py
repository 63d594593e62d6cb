"""ONNX tensors as dense attributes: raw bytes, typed fields, external data.

The weights part of the importer (`onnx_importer._Importer` derives from
`TensorReader`): a tensor's bytes go into a `DenseIntOrFPElementsAttr` as they
are, and external data is mapped, never read through Python, so a model's
weights cost one copy at most.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import cast

import numpy as np
from onnx import NodeProto, TensorProto, numpy_helper
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    TensorType,
)
from xdsl.ir import Attribute

from xhip.frontend.model_file import OnnxImportError
from xhip.frontend.value_info import (
    ELEMENT_TYPES,
    PACKED_TYPES,
    dtype_name,
    proto_bytes,
    unpack_nibbles,
)
from xhip.mapped import MappedFile, map_file

MAP_MIN_BYTES = 1 << 16
"""External tensors of at least this many bytes stay in their mapped file (a
`memoryview` as the dense attribute's bytes); smaller ones are read into bytes."""


class TensorReader:
    """Reads one model's tensors; messages name `source`, external files are
    found under `base_dir`."""

    def __init__(self, source: str, base_dir: str):
        self.source = source
        self.base_dir = base_dir
        self.files: dict[str, MappedFile | None] = {}
        """External data files by location, mapped once (None: an empty file)."""
        self.tensor_types: dict[tuple[int, tuple[int, ...]], TensorType[Attribute]] = {}
        """Each tensor type by (ONNX element type, shape), shared among the
        values and weights of one type: xDSL verifies each new `TensorType`
        as it is made."""

    def shared_tensor_type(self, elem: int, shape: list[int]) -> TensorType[Attribute]:
        """`TensorType(ELEMENT_TYPES[elem], shape)`, one per distinct type."""
        key = (elem, tuple(shape))
        found = self.tensor_types.get(key)
        if found is None:
            found = self.tensor_types[key] = TensorType(ELEMENT_TYPES[elem], shape)
        return found

    def fail(self, message: str) -> OnnxImportError:
        return OnnxImportError(f"{self.source}: {message}")

    @staticmethod
    def label(node: NodeProto) -> str:
        name = node.name or (node.output[0] if node.output else "")
        return f"node '{name}' ({node.op_type})"

    def _check_elem(self, elem: int, what: str) -> None:
        if elem not in ELEMENT_TYPES:
            raise self.fail(f"{what} has unsupported element type {dtype_name(elem)}")

    def dense(self, tensor: TensorProto, what: str) -> DenseIntOrFPElementsAttr:
        """The tensor's bytes as they are: `raw_data` is little-endian, like ours."""
        self._check_elem(tensor.data_type, what)
        elem: Float32Type = ELEMENT_TYPES[tensor.data_type]  # pyright: ignore[reportAssignmentType]
        shape = list(tensor.dims)
        numel = math.prod(shape)
        size = elem.compile_time_size
        raw: bytes | memoryview
        stored = proto_bytes(tensor.data_type, numel, size)
        if tensor.data_location == TensorProto.EXTERNAL:
            raw = self.external(tensor, what, stored)
        elif tensor.HasField("raw_data"):
            raw = tensor.raw_data
        else:
            try:
                array = numpy_helper.to_array(tensor)
            except (ValueError, TypeError) as e:
                raise self.fail(f"{what}: cannot read its data: {e}") from None
            if tensor.data_type in PACKED_TYPES:  # ml_dtypes' int4, one a byte
                signed = tensor.data_type == TensorProto.INT4
                array = array.astype(np.int8 if signed else np.uint8)
            raw = np.ascontiguousarray(
                array, dtype=array.dtype.newbyteorder("<")
            ).tobytes()
            stored = len(raw) if tensor.data_type in PACKED_TYPES else stored
        packed = tensor.data_type in PACKED_TYPES and (
            tensor.data_location == TensorProto.EXTERNAL or tensor.HasField("raw_data")
        )
        if len(raw) != stored:
            raise self.fail(
                f"{what}: has {len(raw)} bytes of data, its type "
                f"{dtype_name(tensor.data_type)}{shape} needs {stored}"
            )
        if packed:
            raw = unpack_nibbles(raw, tensor.data_type, numel)
        # BytesAttr declares `bytes`; a read-only memoryview serves every use
        # (len, slices, hex, struct, numpy, ==, hash) without a copy.
        # (no `typing.cast` here: it is a real call, ~1,200 per chain100 import)
        return DenseIntOrFPElementsAttr(
            self.shared_tensor_type(tensor.data_type, shape),  # pyright: ignore[reportArgumentType]
            BytesAttr(raw),  # pyright: ignore[reportArgumentType]
        )

    def external(
        self, tensor: TensorProto, what: str, nbytes: int
    ) -> bytes | memoryview:
        """An external tensor's bytes: a view of its mapped file, read into
        bytes only when small. `nbytes` is what its type needs."""
        info = {entry.key: entry.value for entry in tensor.external_data}
        location = info.get("location", "")
        try:
            offset = int(info.get("offset", 0))
            length = int(info.get("length", nbytes))
        except ValueError:
            raise self.fail(
                f"{what}: external data offset or length is not a number"
            ) from None
        path = os.path.join(self.base_dir, location)
        mapped = self._mapped(location, path, what)
        available = len(mapped) if mapped is not None else 0
        if offset < 0 or length < 0 or offset + length > available:
            raise self.fail(
                f"cannot read: External data length ({length}) exceeds available "
                f"data ({max(available - offset, 0)} bytes from offset {offset}) "
                f"in {path}, for {what}"
            )
        if mapped is None or not length:
            return b""
        view = memoryview(mapped)[offset : offset + length]
        return view if length >= MAP_MIN_BYTES else view.tobytes()

    def _mapped(self, location: str, path: str, what: str) -> MappedFile | None:
        """The file at `location`, mapped once; it must lie in the model's folder."""
        if location in self.files:
            return self.files[location]
        base = os.path.realpath(self.base_dir or os.curdir)
        if (
            not location
            or os.path.isabs(location)
            or os.path.commonpath([base, os.path.realpath(path)]) != base
        ):
            raise self.fail(
                f"cannot read: {what}: external data location '{location}' is not "
                f"a file inside the model's directory {base}"
            )
        try:
            mapped = map_file(path) if os.path.getsize(path) else None
        except FileNotFoundError:
            raise self.fail(
                f"cannot read: {what}: external data file {path} does not exist"
            ) from None
        except OSError as e:
            raise self.fail(
                f"cannot read: {what}: external data file {path}: {e.strerror}"
            ) from None
        self.files[location] = mapped
        return mapped

    def loaded(self, tensor: TensorProto) -> TensorProto:
        """`tensor` with its data in the proto, for shape inference (small ones)."""
        if tensor.data_location != TensorProto.EXTERNAL:
            return tensor
        what = f"initializer '{tensor.name}'"
        self._check_elem(tensor.data_type, what)
        size = cast(Float32Type, ELEMENT_TYPES[tensor.data_type]).compile_time_size
        numel = int(np.prod(tensor.dims, dtype=np.int64))
        inline = TensorProto(
            name=tensor.name, data_type=tensor.data_type, dims=tensor.dims
        )
        stored = proto_bytes(tensor.data_type, numel, size)
        inline.raw_data = bytes(self.external(tensor, what, stored))
        return inline

    def constant_node_value(self, node: NodeProto) -> DenseIntOrFPElementsAttr:
        """A Constant node's value, whichever of its attributes carries it."""
        what = self.label(node)
        if len(node.attribute) != 1:
            raise self.fail(f"{what}: needs exactly one value attribute")
        attr = node.attribute[0]
        if attr.name == "value":
            return self.dense(attr.t, what)
        values: dict[str, Callable[[], TensorProto]] = {
            "value_float": lambda: numpy_helper.from_array(
                np.array(attr.f, np.float32)
            ),
            "value_floats": lambda: numpy_helper.from_array(
                np.array(attr.floats, np.float32)
            ),
            "value_int": lambda: numpy_helper.from_array(np.array(attr.i, np.int64)),
            "value_ints": lambda: numpy_helper.from_array(
                np.array(attr.ints, np.int64)
            ),
        }
        if attr.name not in values:
            raise self.fail(
                f"{what}: constants of kind '{attr.name}' are not supported"
            )
        return self.dense(values[attr.name](), what)
