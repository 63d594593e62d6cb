// RUN: xdsl-opt %s -p one-shot-bufferize | filecheck %s

// Tensor arguments become memrefs with a fully dynamic layout; results take the
// identity-layout type of the buffer returned, and the cast to the boundary
// layout that upstream materializes stays behind, dead. A returned argument
// (or a view of one) is first copied into a new allocation: hip.copy with a
// context, memref.copy without.

func.func @args_and_results(%ctx: !hip.context, %x: tensor<?x4xf32> {onnx.name = "X"}, %s: tensor<f32>, %n: index) -> (tensor<?x4xf32> {onnx.name = "Y"}, tensor<?x4xf32>, index) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %r = hip.miopen.mul(%ctx) ins(%x, %s : tensor<?x4xf32>, tensor<f32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r, %x, %n : tensor<?x4xf32>, tensor<?x4xf32>, index
}
// CHECK:      func.func @args_and_results(%ctx: !hip.context, %x: memref<?x4xf32, strided<[?, ?], offset: ?>> {onnx.name = "X"}, %s: memref<f32, strided<[], offset: ?>>, %n: index) -> (memref<?x4xf32> {onnx.name = "Y"}, memref<?x4xf32>, index) {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = memref.dim %x, %c0 : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   %alloc = memref.alloc(%dim) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT:   hip.miopen.mul(%ctx) ins(%x, %s : memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<f32, strided<[], offset: ?>>) outs(%alloc : memref<?x4xf32>)
// CHECK-NEXT:   %cast = memref.cast %alloc : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   %c0_1 = arith.constant 0 : index
// CHECK-NEXT:   %dim_1 = memref.dim %x, %c0_1 : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   %alloc_1 = memref.alloc(%dim_1) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT:   hip.copy(%ctx) ins(%x : memref<?x4xf32, strided<[?, ?], offset: ?>>) outs(%alloc_1 : memref<?x4xf32>)
// CHECK-NEXT:   %cast_1 = memref.cast %alloc_1 : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   func.return %alloc, %alloc_1, %n : memref<?x4xf32>, memref<?x4xf32>, index

func.func @no_context(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
// CHECK:      func.func @no_context(%x: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> {
// CHECK-NEXT:   %alloc = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:   "memref.copy"(%x, %alloc) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> ()
