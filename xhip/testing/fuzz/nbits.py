"""Generators of ONNX Runtime's block-quantized weight ops
(`onnx_to_hip/nbits.py`): MatMulNBits of a value by random packed 4- or
8-bit constant weights, GatherBlockQuantized rows of a quantized table at
ids made from a matrix's entries."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto

from xhip.testing.fuzz.gqa import hidden
from xhip.testing.fuzz.graph import MS, Generator, Graph, Value, contrib, to_integers

VOCAB = 64
"""The table's rows: ids are in [0, 63] (`to_integers` unsigned)."""


def _matmul_nbits(g: Graph) -> Value | None:
    """4 or 8 bits, blocks of 16 or 32 (K, at most 8, pads one block), packed
    uint8 zero points or none, a bias or none, accuracy level 0, 1 or 4
    (4: ORT quantizes A to int8 per block and computes in integers)."""
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    rng = g.rng
    k, n = x.shape[-1], int(rng.integers(1, 9))
    bits = int(rng.choice([4, 8]))
    block = int(rng.choice([16, 32]))
    blocks = -(-k // block)
    blob = block * bits // 8
    weights = rng.integers(0, 256, (n, blocks, blob)).astype(np.uint8)
    scales = rng.uniform(0.01, 0.1, n * blocks).astype(np.float32)
    names = [x.name, g.constant(weights, "w"), g.constant(scales, "scales")]
    if rng.random() < 0.5:
        count = n * (-(-blocks * bits // 8))
        names.append(g.constant(rng.integers(0, 256, count).astype(np.uint8), "zp"))
    else:
        names.append("")
    if rng.random() < 0.5:
        names += ["", g.constant(rng.uniform(-1, 1, n).astype(np.float32), "bias")]
    while names[-1] == "":
        names.pop()
    return contrib(
        g,
        "MatMulNBits",
        names,
        (*x.shape[:-1], n),
        K=k,
        N=n,
        bits=bits,
        block_size=block,
        accuracy_level=int(rng.choice([0, 1, 4])),
    )


def _gather_block_quantized(g: Graph) -> Value | None:
    """Rows of a (64, H) table quantized along H in blocks of 16 or 32, 4
    bits packed in uint8 or 8, zero points or none; int32 or int64 ids."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    rng = g.rng
    bits = int(rng.choice([4, 8]))
    block = int(rng.choice([16, 32]))
    width = block * int(rng.integers(1, 3))
    blocks = width // block
    data = rng.integers(0, 256, (VOCAB, width * bits // 8)).astype(np.uint8)
    scales = rng.uniform(0.01, 0.1, (VOCAB, blocks)).astype(np.float32)
    to = TensorProto.INT32 if rng.random() < 0.5 else TensorProto.INT64
    ids = hidden(g, "Cast", [to_integers(g, x, unsigned=True).name], x.shape, to=to)
    names = [g.constant(data, "table"), ids, g.constant(scales, "scales")]
    if rng.random() < 0.5:
        packed = -(-blocks * bits // 8)
        zero = rng.integers(0, 256, (VOCAB, packed)).astype(np.uint8)
        names.append(g.constant(zero, "zp"))
    return contrib(
        g,
        "GatherBlockQuantized",
        names,
        (*x.shape, width),
        bits=bits,
        block_size=block,
        gather_axis=0,
        quantize_axis=1,
    )


GENERATORS: dict[str, Generator] = {
    f"{MS}.MatMulNBits": _matmul_nbits,
    f"{MS}.GatherBlockQuantized": _gather_block_quantized,
}
