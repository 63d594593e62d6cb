"""`buffer-deallocation-pipeline`: passes 7-14 of the seed, in its order."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from xhip.transforms.buffer_deallocation_simplification import (
    BufferDeallocationSimplificationPass,
)
from xhip.transforms.bufferization_lower_deallocations import (
    BufferizationLowerDeallocationsPass,
)
from xhip.transforms.composite import CompositePass
from xhip.transforms.ownership_based_buffer_deallocation import (
    OwnershipBasedBufferDeallocationPass,
)


@dataclass(frozen=True)
class BufferDeallocationPipelinePass(CompositePass):
    """Insert, simplify and lower deallocations, then clean up with cse/canonicalize."""

    name = "buffer-deallocation-pipeline"

    def parts(self) -> tuple[ModulePass, ...]:
        return (
            OwnershipBasedBufferDeallocationPass(),
            CanonicalizePass(),
            BufferDeallocationSimplificationPass(),
            BufferizationLowerDeallocationsPass(),
            CommonSubexpressionElimination(),
            CanonicalizePass(),
            CommonSubexpressionElimination(),
            CanonicalizePass(),
        )
