// RUN: xdsl-opt %s -p one-shot-bufferize | filecheck %s

// A hip op writes its init's allocation in place when nobody else uses that
// init; otherwise (an init still used by a later op, an argument as init) it
// gets a new allocation of the same sizes. hip ops never read their outs, so no
// copy is needed. A result chained as the next op's only use is reused.

func.func @f(%ctx: !hip.context, %x: tensor<?x4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %0 = hip.miopen.relu(%ctx) ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = hip.miopen.relu(%ctx) ins(%0 : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = hip.miopen.relu(%ctx) ins(%1 : tensor<?x4xf32>) outs(%x : tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = hip.miopen.relu(%ctx) ins(%1 : tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0, %1, %3 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}
// CHECK:      %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = memref.dim %alloc, %c0 : memref<?x4xf32>
// CHECK-NEXT: %alloc_1 = memref.alloc(%dim) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%x : memref<?x4xf32, strided<[?, ?], offset: ?>>) outs(%alloc_1 : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%alloc_1 : memref<?x4xf32>) outs(%alloc : memref<?x4xf32>)
// CHECK-NEXT: %c0_1 = arith.constant 0 : index
// CHECK-NEXT: %dim_1 = memref.dim %x, %c0_1 : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: %alloc_2 = memref.alloc(%dim_1) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%alloc : memref<?x4xf32>) outs(%alloc_2 : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%alloc : memref<?x4xf32>) outs(%alloc_2 : memref<?x4xf32>)
// CHECK:      func.return %alloc_1, %alloc, %alloc_2
