"""A GPU runtime's bound calls: each runtime call reduced to its device calls.

A bound plan (plan.py) asks the runtime for each call once (`bind_call`). On
a GPU runtime the first run of that call goes through a `Recorder` standing
in for the device: every launch, GEMM and memset it makes is prepared by the
device (`prepare_launch`, `prepare_gemm`: kernel looked up, arguments packed
once) and kept, so a replay is those prepared calls alone, with no size,
dtype, grid or view work in Python. Scratch the call frees is kept for the
replays and freed with the bound call.

Consecutive bound calls made only of launches, GEMMs and memsets form a
`Segment`; with graphs on, the segment's first call captures all of them once
into a device graph (a CUDA graph, a hipGraph, the emulator's model of one)
and each replay launches that graph, the others doing nothing.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from xhip.backend.device import DeviceAPI, KernelArg, StridedGemm

if TYPE_CHECKING:
    from xhip.backend.gpu_host import GpuHost

Step = Callable[[], object]


class Recorder:
    """The device while a bound call first runs: every call goes through to
    `base` and the replayable ones are kept as prepared steps. Calls from
    other threads (an unbound call running meanwhile) only go through."""

    def __init__(self, base: DeviceAPI):
        self.base = base
        self.name = base.name
        self.thread = threading.get_ident()
        self.steps: list[Step] = []
        self.kept: list[int] = []
        """Addresses the call freed: its replays still write them."""
        self.replayable = True
        """False once the call reads device memory back (its host decisions
        may depend on data): it then runs whole at each replay."""
        self.graphable = True
        """False once the call copies from the host (kept out of graphs)."""

    def malloc(self, nbytes: int) -> int:
        return self.base.malloc(nbytes)

    def _mine(self) -> bool:
        return threading.get_ident() == self.thread

    def free(self, address: int) -> None:
        if not self._mine():
            self.base.free(address)
            return
        self.kept.append(address)

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        self.base.copy_to_device(address, host)
        if not self._mine():
            return
        self.steps.append(partial(self.base.copy_to_device, address, host.copy()))
        self.graphable = False

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        self.replayable = self.replayable and not self._mine()
        self.base.copy_to_host(host, address)

    def memset(self, address: int, value: int, nbytes: int) -> None:
        step = partial(self.base.memset, address, value, nbytes)
        step()
        if self._mine():
            self.steps.append(step)

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        self.base.load_kernels(source, names)

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        step = prepare_launch(self.base, kernel, grid, block, shared, args)
        step()
        if self._mine():
            self.steps.append(step)

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        step = prepare_gemm(self.base, call)
        step()
        if self._mine():
            self.steps.append(step)

    def synchronize(self) -> None:
        self.base.synchronize()

    def close(self) -> None:
        self.base.close()


def prepare_launch(
    device: DeviceAPI,
    kernel: str,
    grid: int,
    block: int,
    shared: int,
    args: Sequence[KernelArg],
) -> Step:
    """The launch as a call without arguments, prepared by the device where it
    can (`prepare_launch`: arguments packed once)."""
    prepare = getattr(device, "prepare_launch", None)
    if prepare is not None:
        return prepare(kernel, grid, block, shared, tuple(args))
    return partial(device.launch, kernel, grid, block, shared, tuple(args))


def prepare_gemm(device: DeviceAPI, call: StridedGemm) -> Step:
    """The GEMM as a call without arguments (`prepare_gemm` where the device has it)."""
    prepare = getattr(device, "prepare_gemm", None)
    if prepare is not None:
        return prepare(call)
    return partial(device.gemm_strided_batched, call)


def _release(device: DeviceAPI, kept: list[int], graphs: list[Any]) -> None:
    """What a bound call held: its scratch, and the graph it captured."""
    destroy = getattr(device, "destroy_graph", None)
    for graph in graphs:
        if destroy is not None:
            destroy(graph)
    for address in kept:
        device.free(address)


class Segment:
    """Bound calls replayed back to back, all launches, GEMMs and memsets: one
    device graph once captured. It holds their steps, not the calls (no
    cycle: a dropped plan frees its scratch at once)."""

    __slots__ = ("steps", "graph", "__weakref__")

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.graph: Any = None


class BoundCall:
    """One runtime call of a bound plan: run and recorded on its first call,
    then replayed from its prepared steps (or as a graph, with its segment)."""

    __slots__ = (
        "host",
        "method",
        "keywords",
        "steps",
        "segment",
        "head",
        "__weakref__",
    )

    def __init__(self, host: GpuHost, method: str, keywords: Mapping[str, Any]):
        self.host = host
        self.method = method
        self.keywords = dict(keywords)
        self.steps: tuple[Step, ...] | None = None
        """None until the first call; the prepared device calls after it."""
        self.segment: Segment | None = None
        self.head = False
        """Whether this call launches its segment's graph (the first of it)."""

    def __call__(self) -> None:
        steps = self.steps
        if steps is None:
            self._record()
            return
        segment = self.segment
        if segment is not None and self.host.graphs:
            if self.head:
                self._launch_graph(segment)
            return
        for step in steps:
            step()

    def _launch_graph(self, segment: Segment) -> None:
        device: Any = self.host.device
        if segment.graph is None:
            device.begin_capture()
            try:
                for step in segment.steps:
                    step()
            except BaseException:  # no half graph: the capture is dropped
                _release(device, [], [device.end_capture()])
                raise
            segment.graph = device.end_capture()
            weakref.finalize(segment, _release, device, [], [segment.graph])
        device.launch_graph(segment.graph)

    def _record(self) -> None:
        host = self.host
        recorder = Recorder(host.device)
        host.device = recorder
        try:
            getattr(host, self.method)(**self.keywords)
        except BaseException:
            _release(recorder.base, recorder.kept, [])
            raise
        finally:
            host.device = recorder.base
        if not recorder.replayable:  # reads data back: run whole every time
            for address in recorder.kept:
                recorder.base.free(address)
            self.steps = (partial(getattr(host, self.method), **self.keywords),)
            host.replay_stamp += 1
            return
        self.steps = tuple(recorder.steps)
        self.keywords = {}  # the views are resolved into the steps
        if recorder.kept:
            weakref.finalize(self, _release, recorder.base, recorder.kept, [])
        if not recorder.graphable or not host.can_graph:
            host.replay_stamp += 1
            return
        last = host.last_bound
        segment = None
        if last is not None and last[1] == host.replay_stamp:
            segment = last[0]()
        if segment is None:
            segment = Segment()
            self.head = True
        segment.steps += self.steps
        self.segment = segment
        host.last_bound = (weakref.ref(segment), host.replay_stamp)
