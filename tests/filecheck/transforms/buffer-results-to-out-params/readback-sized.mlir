// RUN: xdsl-opt %s -p buffer-results-to-out-params | filecheck %s

// A result sized by a value read back (NonZero's count) stays a result: the
// caller cannot allocate it before the call. `bufferize.returned` lists the
// results that stay (their numbers among all the results); the others become
// out-params as usual.

func.func @main_graph(%ctx: !hip.context, %x: memref<3x4xf32>) -> (memref<2x?xi64>, memref<3x4xf32>) {
  %count = memref.alloc() : memref<i64>
  hip.count_nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%count : memref<i64>)
  %n = hip.readback(%ctx) %count : memref<i64> -> index
  %y = memref.alloc(%n) : memref<2x?xi64>
  hip.nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%y : memref<2x?xi64>)
  %z = memref.alloc() : memref<3x4xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<3x4xf32>) outs(%z : memref<3x4xf32>)
  func.return %y, %z : memref<2x?xi64>, memref<3x4xf32>
}

// CHECK:      func.func @main_graph(%ctx: !hip.context, %x: memref<3x4xf32>, %arg2: memref<3x4xf32> {bufferize.result}) -> memref<2x?xi64> attributes {bufferize.returned = array<i64: 0>} {
// CHECK-NEXT:   %count = memref.alloc() : memref<i64>
// CHECK-NEXT:   hip.count_nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%count : memref<i64>)
// CHECK-NEXT:   %n = hip.readback(%ctx) %count : memref<i64> -> index
// CHECK-NEXT:   %y = memref.alloc(%n) : memref<2x?xi64>
// CHECK-NEXT:   hip.nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%y : memref<2x?xi64>)
// CHECK-NEXT:   hip.miopen.relu(%ctx) ins(%x : memref<3x4xf32>) outs(%arg2 : memref<3x4xf32>)
// CHECK-NEXT:   func.return %y : memref<2x?xi64>
// CHECK-NEXT: }
