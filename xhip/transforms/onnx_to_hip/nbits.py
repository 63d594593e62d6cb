"""ONNX Runtime's MatMulNBits -> `hip.matmul_nbits`; GatherBlockQuantized ->
`hip.gather_block_quantized`, in tensor mode.

MatMulNBits' `accuracy_level` is ONNX Runtime's choice of kernel on x86:
level 4 computes in int8 (`int8 = 1`) where MLAS has a CompInt8 kernel for
the width and block size (4 and 8 bits: blocks 16 to 256; 2 bits: 32 to
128) and ORT prepacks the weight (a constant `B`, packed u8 zero points);
everything else computes in float32, as ORT does. An absent zero point is a
constant of `2^(bits-1)` packed like `B`, so the hip op takes every operand.
"""

from __future__ import annotations

from xdsl.dialects import arith, bufferization
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    SizeSource,
    Unsupported,
    build_init,
    context_of,
    ranked,
)

U8 = IntegerType(8, Signedness.UNSIGNED)

INT8_BLOCKS: dict[int, tuple[int, ...]] = {
    2: (32, 64, 128),
    4: (16, 32, 64, 128, 256),
    8: (16, 32, 64, 128, 256),
}
"""Block sizes of MLAS's x86 CompInt8 kernels, by width: where ORT's
accuracy level 4 computes in int8 (measured: ORT 1.32, AVX-512 VNNI)."""


def _is_constant(value: SSAValue) -> bool:
    """An initializer: in the IR, or in the constants file (a global)."""
    owner = value.owner
    if isinstance(owner, bufferization.ToTensorOp):
        owner = owner.memref.owner
        return isinstance(owner, xmemref.GetGlobalOp)
    return isinstance(owner, onnx.ConstantOp | arith.ConstantOp)


def _default_zero(bits: int) -> int:
    """The byte of packed zero points `2^(bits-1)` each."""
    byte = 0
    for shift in range(0, 8, bits):
        byte |= (1 << (bits - 1)) << shift
    return byte


class ConvertMatMulNBits(OnnxPattern[onnx.MatMulNBitsOp]):
    """`onnx.MatMulNBits` -> `hip.matmul_nbits`."""

    def convert(self, op: onnx.MatMulNBitsOp, rewriter: PatternRewriter) -> None:
        for name in ("K", "N", "block_size"):
            if op.get_int(name) == onnx.REQUIRED:
                raise Unsupported(f"the required attribute '{name}' is missing")
        k, n = op.get_int("K"), op.get_int("N")
        bits, block = op.get_int("bits"), op.get_int("block_size")
        if bits not in INT8_BLOCKS or block < 16 or block & (block - 1):
            raise Unsupported(
                f"bits {bits} and block_size {block}: bits 2, 4 or 8 and a power "
                "of two >= 16"
            )
        if op.get_int("weight_prepacked"):
            raise Unsupported("a prepacked B (weight_prepacked) is not supported")
        if op.g_idx is not None:
            raise Unsupported("g_idx (deprecated) is not supported")
        a = ranked(op.A, "A")
        f32 = Float32Type()
        if a.get_element_type() != f32:
            raise Unsupported(f"A of {a.get_element_type()}: float32 only")
        for shape in (ranked(op.B, "B").get_shape(),):
            if 0 in shape:
                raise Unsupported("an empty B (an omitted projection) is not supported")
        blocks = -(-k // block)
        zero = op.zero_points
        if zero is None:
            row = -(-blocks * bits // 8)
            attr = DenseIntOrFPElementsAttr.from_list(
                TensorType(U8, (n, row)),
                [_default_zero(bits)] * (n * row),
            )
            zero = self.state.folder.get(rewriter, op, attr)
        packed = ranked(zero, "the zero points").get_element_type() == U8
        int8 = (
            op.get_int("accuracy_level") == 4
            and block in INT8_BLOCKS[bits]
            and packed
            and _is_constant(op.B)
        )
        result = ranked(op.Y, "the result")
        rank = a.get_num_dims()
        sources: list[SizeSource] = [*((op.A, d) for d in range(rank - 1)), None]
        out = build_init(rewriter, self.state, op, result, sources)
        new = hip.MatMulNBitsOp.make(
            context_of(op),
            a=op.A,
            b=op.B,
            scales=op.scales,
            zero_points=zero,
            bias=op.bias,
            out=out,
            k=k,
            n=n,
            bits=bits,
            block_size=block,
            int8=int8,
        )
        rewriter.replace(op, new)


class ConvertGatherBlockQuantized(OnnxPattern[onnx.GatherBlockQuantizedOp]):
    """`onnx.GatherBlockQuantized` -> `hip.gather_block_quantized`."""

    def convert(
        self, op: onnx.GatherBlockQuantizedOp, rewriter: PatternRewriter
    ) -> None:
        data = ranked(op.data, "the data")
        if data.get_element_type() != U8:
            raise Unsupported(
                f"data of {data.get_element_type()}: uint8 only (int4, uint4 and "
                "float8 are not read)"
            )
        rank = data.get_num_dims()
        gather_axis = op.get_int("gather_axis")
        quantize_axis = op.get_int("quantize_axis")
        gather_axis += rank if gather_axis < 0 else 0
        quantize_axis += rank if quantize_axis < 0 else 0
        if gather_axis != 0 or quantize_axis != rank - 1:
            raise Unsupported(
                f"gather_axis {gather_axis} and quantize_axis {quantize_axis}: uint8 "
                "data gathers along 0 and is quantized along its last axis"
            )
        q = ranked(op.indices, "the indices").get_num_dims()
        result = ranked(op.output, "the result")
        sources: list[SizeSource] = [
            *((op.indices, d) for d in range(q)),
            *((op.data, d) for d in range(1, rank - 1)),
            None,
        ]
        out = build_init(rewriter, self.state, op, result, sources)
        new = hip.GatherBlockQuantizedOp.make(
            context_of(op),
            data=op.data,
            indices=op.indices,
            scales=op.scales,
            zero_points=op.zero_points,
            out=out,
            gather_axis=gather_axis,
            quantize_axis=quantize_axis,
            block_size=op.get_int("block_size"),
            bits=op.get_int("bits"),
        )
        rewriter.replace(op, new)
