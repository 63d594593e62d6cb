// RUN: xdsl-opt -p hip-plan-memory %s | filecheck %s --check-prefix=NOPOOL
// RUN: not xdsl-opt -p 'hip-plan-memory{alignment=48}' %s 2>&1 | filecheck %s --check-prefix=BADALIGN
// RUN: not xdsl-opt -p 'hip-plan-memory{hint=0}' %s 2>&1 | filecheck %s --check-prefix=BADHINT

// A function without a pool is left as it is, and gets no attribute.

func.func @nothing(%ctx: !hip.context, %x: memref<10xf32>, %out: memref<10xf32>) {
  hip.miopen.relu(%ctx) ins(%x : memref<10xf32>) outs(%out : memref<10xf32>)
  func.return
}

// NOPOOL:       func.func @nothing(%ctx: !hip.context, %x: memref<10xf32>, %out: memref<10xf32>) {
// NOPOOL-NEXT:    hip.miopen.relu
// NOPOOL-NEXT:    func.return

// BADALIGN: hip-plan-memory: alignment 48 is not a power of 2
// BADHINT: hip-plan-memory: hint 0 is not positive
