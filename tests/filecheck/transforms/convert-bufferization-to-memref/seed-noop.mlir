// The seed has no bufferization op left after pooling: the pass changes nothing.
// RUN: xdsl-opt %seed/after-pass-16-hip-pool-allocs.mlir -p convert-bufferization-to-memref > %t.pass
// RUN: xdsl-opt %seed/after-pass-16-hip-pool-allocs.mlir > %t.same
// RUN: diff %t.pass %t.same
