// RUN: xdsl-opt %s -p one-shot-bufferize | filecheck %s

// Tensor constants become private constant globals named as MLIR names them
// (`__constant_` shape `x` element type), one per value: an equal value reuses
// the global, another value of the same type gets a `_N` suffix. Each global is
// inserted at the module start. External constants (`to_tensor` of a
// `get_global`) are their memref.

memref.global "private" @w : memref<8x8xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 256 : i64}}
func.func @f(%ctx: !hip.context) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<4xi64>, tensor<8x8xf32>) {
  %a = arith.constant dense<1.0> : tensor<2x3xf32>
  %b = arith.constant dense<2.0> : tensor<2x3xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %i = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %g = memref.get_global @w : memref<8x8xf32>
  %w = bufferization.to_tensor %g restrict : memref<8x8xf32> to tensor<8x8xf32>
  func.return %a, %b, %s, %i, %w : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<4xi64>, tensor<8x8xf32>
}
func.func @g(%ctx: !hip.context) -> tensor<2x3xf32> {
  %a = arith.constant dense<1.0> : tensor<2x3xf32>
  func.return %a : tensor<2x3xf32>
}
// CHECK:      memref.global "private" constant @__constant_4xi64 : memref<4xi64> = dense<[1, 2, 3, 4]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_2x3xf32_0 : memref<2x3xf32> = dense<2.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_2x3xf32 : memref<2x3xf32> = dense<1.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" @w
// CHECK-NEXT: func.func @f
// CHECK-NEXT:   %0 = memref.get_global @__constant_2x3xf32 : memref<2x3xf32>
// CHECK-NEXT:   %1 = memref.get_global @__constant_2x3xf32_0 : memref<2x3xf32>
// CHECK-NEXT:   %2 = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT:   %3 = memref.get_global @__constant_4xi64 : memref<4xi64>
// CHECK-NEXT:   %g = memref.get_global @w : memref<8x8xf32>
// CHECK:        func.return %0, %1, %2, %3, %g
// CHECK:      func.func @g
// CHECK-NEXT:   %0 = memref.get_global @__constant_2x3xf32 : memref<2x3xf32>
