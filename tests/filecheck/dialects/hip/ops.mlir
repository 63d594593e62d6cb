// RUN: xdsl-opt %s | xdsl-opt | filecheck %s

// Tensor mode returns one tensor per init; memref mode returns nothing.
func.func @modes(%ctx: !hip.context, %a: tensor<?x?x64xf32>, %b: tensor<64x64xf32>, %c: tensor<?x?x64xf32>, %m: memref<?x64xf32>, %w: memref<64x64xf32>, %o: memref<?x64xf32>) -> tensor<?x?x64xf32> {
  %0 = hip.hipblaslt.matmul(%ctx) ins(%a, %b : tensor<?x?x64xf32>, tensor<64x64xf32>) outs(%c : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  hip.hipblaslt.matmul(%ctx) ins(%m, %w : memref<?x64xf32>, memref<64x64xf32>) outs(%o : memref<?x64xf32>)
  func.return %0 : tensor<?x?x64xf32>
}
// CHECK:      %0 = hip.hipblaslt.matmul(%ctx) ins(%a, %b : tensor<?x?x64xf32>, tensor<64x64xf32>) outs(%c : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul(%ctx) ins(%m, %w : memref<?x64xf32>, memref<64x64xf32>) outs(%o : memref<?x64xf32>)

func.func @others(%ctx: !hip.context, %x: memref<?x?x?xf32>, %s: memref<f32>, %y: memref<?x?x?xf32>, %t: memref<?x?x?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  hip.miopen.mul(%ctx) ins(%x, %s : memref<?x?x?xf32>, memref<f32>) outs(%y : memref<?x?x?xf32>)
  hip.miopen.add(%ctx) ins(%x, %s : memref<?x?x?xf32>, memref<f32>) outs(%y : memref<?x?x?xf32>)
  hip.miopen.softmax(%ctx) ins(%y : memref<?x?x?xf32>) outs(%x : memref<?x?x?xf32>)
  hip.miopen.softmax(%ctx) ins(%y : memref<?x?x?xf32>) outs(%x : memref<?x?x?xf32>) {axis = 1 : i64}
  hip.transpose(%ctx, %c1, %c2) ins(%x : memref<?x?x?xf32>) outs(%t : memref<?x?x?xf32>)
  hip.permute(%ctx) ins(%x : memref<?x?x?xf32>) outs(%t : memref<?x?x?xf32>) {perm = array<i64: 2, 0, 1>}
  %p = hip.alloc(%ctx, %n) : memref<?xi8>
  hip.free(%ctx, %p) : memref<?xi8>
  func.return
}
// CHECK-LABEL: func.func @others
// CHECK:      hip.miopen.mul(%ctx) ins(%x, %s : memref<?x?x?xf32>, memref<f32>) outs(%y : memref<?x?x?xf32>)
// CHECK-NEXT: hip.miopen.add(%ctx) ins(%x, %s : memref<?x?x?xf32>, memref<f32>) outs(%y : memref<?x?x?xf32>)
// CHECK-NEXT: hip.miopen.softmax(%ctx) ins(%y : memref<?x?x?xf32>) outs(%x : memref<?x?x?xf32>)
// CHECK-NEXT: hip.miopen.softmax(%ctx) ins(%y : memref<?x?x?xf32>) outs(%x : memref<?x?x?xf32>) {axis = 1 : i64}
// CHECK-NEXT: hip.transpose(%ctx, %c1, %c2) ins(%x : memref<?x?x?xf32>) outs(%t : memref<?x?x?xf32>)
// CHECK-NEXT: hip.permute(%ctx) ins(%x : memref<?x?x?xf32>) outs(%t : memref<?x?x?xf32>) {perm = array<i64: 2, 0, 1>}
// CHECK-NEXT: %p = hip.alloc(%ctx, %n) : memref<?xi8>
// CHECK-NEXT: hip.free(%ctx, %p) : memref<?xi8>

// The elementwise functions: pow broadcasts like the binary ops, the unary ones
// keep the shape.
func.func @elementwise(%ctx: !hip.context, %x: memref<?x4xf32>, %e: memref<f32>, %y: memref<?x4xf32>) {
  hip.miopen.pow(%ctx) ins(%x, %e : memref<?x4xf32>, memref<f32>) outs(%y : memref<?x4xf32>)
  hip.miopen.exp(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)
  hip.miopen.neg(%ctx) ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
  hip.miopen.sigmoid(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)
  hip.miopen.sqrt(%ctx) ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
  hip.miopen.tanh(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)
  func.return
}
// CHECK-LABEL: func.func @elementwise
// CHECK:      hip.miopen.pow(%ctx) ins(%x, %e : memref<?x4xf32>, memref<f32>) outs(%y : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.exp(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.neg(%ctx) ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.sigmoid(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.sqrt(%ctx) ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
// CHECK-NEXT: hip.miopen.tanh(%ctx) ins(%y : memref<?x4xf32>) outs(%x : memref<?x4xf32>)

// hip.cast is the one op whose ins and outs element types differ.
func.func @cast(%ctx: !hip.context, %x: tensor<2x?xf32>, %i: tensor<2x?xi64>, %m: memref<4xi32>, %h: memref<4xf16>) -> tensor<2x?xi64> {
  %0 = hip.cast(%ctx) ins(%x : tensor<2x?xf32>) outs(%i : tensor<2x?xi64>) -> tensor<2x?xi64>
  hip.cast(%ctx) ins(%m : memref<4xi32>) outs(%h : memref<4xf16>)
  func.return %0 : tensor<2x?xi64>
}
// CHECK-LABEL: func.func @cast
// CHECK:      %0 = hip.cast(%ctx) ins(%x : tensor<2x?xf32>) outs(%i : tensor<2x?xi64>) -> tensor<2x?xi64>
// CHECK-NEXT: hip.cast(%ctx) ins(%m : memref<4xi32>) outs(%h : memref<4xf16>)

// hip.concat takes any number of ins, one after the other along `axis`.
func.func @concat(%ctx: !hip.context, %a: memref<2x?xf32>, %b: memref<2x3xf32>, %o: memref<2x?xf32>, %t: tensor<4xi64>, %u: tensor<8xi64>) -> tensor<8xi64> {
  hip.concat(%ctx) ins(%a, %b, %a : memref<2x?xf32>, memref<2x3xf32>, memref<2x?xf32>) outs(%o : memref<2x?xf32>) {axis = 1 : i64}
  %0 = hip.concat(%ctx) ins(%t, %t : tensor<4xi64>, tensor<4xi64>) outs(%u : tensor<8xi64>) {axis = 0 : i64} -> tensor<8xi64>
  func.return %0 : tensor<8xi64>
}
// CHECK-LABEL: func.func @concat
// CHECK:      hip.concat(%ctx) ins(%a, %b, %a : memref<2x?xf32>, memref<2x3xf32>, memref<2x?xf32>) outs(%o : memref<2x?xf32>) {axis = 1 : i64}
// CHECK-NEXT: %0 = hip.concat(%ctx) ins(%t, %t : tensor<4xi64>, tensor<4xi64>) outs(%u : tensor<8xi64>) {axis = 0 : i64} -> tensor<8xi64>
