"""Interleaved timing of xhip against ONNX Runtime: on a shared machine the
load changes between two back-to-back measurements, so each round times one
call of each, and the ratio is taken of statistics over the same rounds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def paired_seconds(
    ours: Callable[[], object], theirs: Callable[[], object], budget: float = 1.5
) -> tuple[tuple[float, float], tuple[float, float]]:
    """((median, best) of `ours`, (median, best) of `theirs`) in seconds,
    over rounds of one call each, alternating which goes first, after a
    warm-up call each; within about `budget` seconds (5 to 2000 rounds)."""
    ours()
    theirs()
    start = time.perf_counter()
    ours()
    theirs()
    once = time.perf_counter() - start
    rounds = max(5, min(2000, int(budget / max(once, 1e-6))))
    a: list[float] = []
    b: list[float] = []
    for i in range(rounds):
        pair = ((ours, a), (theirs, b)) if i % 2 == 0 else ((theirs, b), (ours, a))
        for fn, times in pair:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return (statistics.median(a), min(a)), (statistics.median(b), min(b))
