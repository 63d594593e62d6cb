"""Packing strategies on synthetic buffers: sound, and the reuse one is smaller."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from xhip.analysis.memory_plan import (
    STRATEGIES,
    BumpStrategy,
    MemoryPlan,
    PoolBuffer,
    ReuseStrategy,
    plan_memory,
)
from xhip.analysis.size_expr import AtomTable, Poly


def static_buffers(seed: int, count: int) -> list[PoolBuffer]:
    rng = random.Random(seed)
    block = Block(arg_types=[IndexType()] * count)
    buffers: list[PoolBuffer] = []
    for arg in block.args:
        start = rng.randrange(40)
        size = rng.choice([1, 15, 256, 300, 4096, 65536]) * rng.randint(1, 4)
        buffers.append(
            PoolBuffer(arg, Poly.const(size), (start, start + rng.randrange(10)))
        )
    return buffers


def assert_sound(plan: MemoryPlan, alignment: int) -> None:
    size = plan.size.constant
    assert size is not None
    spans = []
    for buffer, offset in zip(plan.buffers, plan.offsets):
        start, length = offset.constant, buffer.size.constant
        assert start is not None and length is not None
        assert start % alignment == 0 and 0 <= start and start + length <= size
        spans.append((start, start + length))
    for i, a in enumerate(plan.buffers):
        for j in range(i + 1, len(plan.buffers)):
            b = plan.buffers[j]
            if a.overlaps_in_time(b):
                (s0, e0), (s1, e1) = spans[i], spans[j]
                assert e0 <= s1 or e1 <= s0, (i, j)


@pytest.mark.parametrize("seed", range(25))
def test_random_static_plans_are_sound(seed: int):
    buffers = static_buffers(seed, 12)
    bump = plan_memory(buffers, AtomTable(), BumpStrategy(), 256)
    reuse = plan_memory(buffers, AtomTable(), ReuseStrategy(), 256)
    assert_sound(bump, 256)
    assert_sound(reuse, 256)
    assert reuse.size.constant <= bump.size.constant  # pyright: ignore


def test_bump_is_program_order_prefix_sums():
    block = Block(arg_types=[IndexType()] * 3)
    table = AtomTable()
    n = table.value(block.args[0])
    buffers = [
        PoolBuffer(block.args[1], n * 512, (0, 1)),
        PoolBuffer(block.args[2], n * 6, (1, 2)),
    ]
    plan = plan_memory(buffers, table, STRATEGIES["bump"], 256)
    assert plan.offsets[0] == Poly.const(0) and plan.offsets[1] == n * 512
    assert plan.static_offsets() == [0, -1]
    atom = n.as_atom
    assert atom is not None
    for value in (1, 42, 43, 1000):
        assert (
            plan.size.evaluate({atom: value})
            == 512 * value + -(-6 * value // 256) * 256
        )


def test_reuse_shares_disjoint_equal_symbolic_sizes_only():
    block = Block(arg_types=[IndexType()] * 5)
    table = AtomTable()
    b, s = (table.value(a) for a in block.args[:2])
    a_size, q_size = b * s * 256, b * s * s * 4
    buffers = [
        PoolBuffer(block.args[2], a_size, (0, 1)),
        PoolBuffer(block.args[3], q_size, (2, 3)),
        PoolBuffer(block.args[4], a_size, (4, 5)),
    ]
    plan = plan_memory(buffers, table, STRATEGIES["reuse"], 256)
    assert plan.offsets[0] == plan.offsets[2] == Poly.const(0)
    assert plan.offsets[1] == a_size
