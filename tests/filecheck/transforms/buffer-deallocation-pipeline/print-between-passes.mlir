// RUN: xdsl-opt %seed/after-pass-06-canonicalize.mlir -p buffer-deallocation-pipeline --print-between-passes | filecheck %s

// The pipeline is a composite pass: xdsl-opt prints the IR after each of its
// eight passes (the last one is the output), in the seed's order.

// CHECK:      IR after ownership-based-buffer-deallocation:
// CHECK:      bufferization.dealloc
// CHECK:      IR after canonicalize:
// CHECK:      IR after buffer-deallocation-simplification:
// CHECK:      IR after bufferization-lower-deallocations:
// CHECK:      IR after cse:
// CHECK:      IR after canonicalize:
// CHECK:      IR after cse:
// CHECK-NOT:  IR after
// CHECK:      memref.dealloc
