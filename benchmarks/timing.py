"""The benchmarks' one timer (they run as scripts: `from timing import ...`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], budget: float = 1.5) -> float:
    """Median of repeated calls after two warm-up calls, within about `budget`
    seconds (at least 5 calls, at most 2000)."""
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    repeats = max(5, min(2000, int(budget / max(once, 1e-6))))
    times: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
