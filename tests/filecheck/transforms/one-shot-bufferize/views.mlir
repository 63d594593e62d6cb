// RUN: xdsl-opt %s -p one-shot-bufferize | filecheck %s

// Reshape views become memref views: on an identity layout they keep it; on a
// strided argument the collapsed dim keeps the innermost stride of its group and
// expanded dims multiply out (dynamic here). tensor.cast becomes memref.cast.

func.func @views(%ctx: !hip.context, %x: tensor<?x4x8xf32>, %n: index) -> (tensor<?x32xf32>, tensor<?x2x2x8xf32>, tensor<4x32xf32>) {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<?x4x8xf32> into tensor<?x32xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %r = hip.miopen.relu(%ctx) ins(%c : tensor<?x32xf32>) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %x2 = tensor.expand_shape %r [[0], [1, 2, 3]] output_shape [%n, 2, 2, 8] : tensor<?x32xf32> into tensor<?x2x2x8xf32>
  %s = tensor.cast %r : tensor<?x32xf32> to tensor<4x32xf32>
  %v = tensor.expand_shape %x [[0], [1, 2], [3]] output_shape [%n, 2, 2, 8] : tensor<?x4x8xf32> into tensor<?x2x2x8xf32>
  %e2 = tensor.empty(%n) : tensor<?x2x2x8xf32>
  %r2 = hip.miopen.relu(%ctx) ins(%v : tensor<?x2x2x8xf32>) outs(%e2 : tensor<?x2x2x8xf32>) -> tensor<?x2x2x8xf32>
  func.return %c, %x2, %s : tensor<?x32xf32>, tensor<?x2x2x8xf32>, tensor<4x32xf32>
}
// CHECK:      %collapse_shape = memref.collapse_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64]] : memref<?x4x8xf32, strided<[?, ?, ?], offset: ?>> into memref<?x32xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?x32xf32>
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%collapse_shape : memref<?x32xf32, strided<[?, ?], offset: ?>>) outs(%alloc : memref<?x32xf32>)
// CHECK-NEXT: %expand_shape = memref.expand_shape %alloc {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [%n, 2, 2, 8] : memref<?x32xf32> into memref<?x2x2x8xf32>
// CHECK-NEXT: %cast = memref.cast %alloc : memref<?x32xf32> to memref<4x32xf32>
// CHECK-NEXT: %expand_shape_1 = memref.expand_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [%n, 2, 2, 8] : memref<?x4x8xf32, strided<[?, ?, ?], offset: ?>> into memref<?x2x2x8xf32, strided<[?, ?, ?, ?], offset: ?>>
// The collapsed argument view is returned: copied into an identity-layout buffer.
// CHECK:      hip.copy(%ctx) ins(%collapse_shape : memref<?x32xf32, strided<[?, ?], offset: ?>>) outs(%[[COPY:.*]] : memref<?x32xf32>)
// CHECK:      func.return %[[COPY]], %expand_shape, %cast : memref<?x32xf32>, memref<?x2x2x8xf32>, memref<4x32xf32>
