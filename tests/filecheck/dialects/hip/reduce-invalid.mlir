// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifiers of the reduction family name the operand that is wrong.

func.func @unsorted_axes(%ctx: !hip.context, %x: memref<3x4xf32>, %r: memref<f32>) {
  hip.miopen.reduce_max(%ctx) ins(%x : memref<3x4xf32>) outs(%r : memref<f32>) {axes = array<i64: 1, 0>}
  func.return
}
// CHECK: 'hip.miopen.reduce_max' axes [1, 0] must be sorted, unique and in [0, 2)

// -----

func.func @reduced_shape(%ctx: !hip.context, %x: memref<3x4xf32>, %r: memref<4xf32>) {
  hip.miopen.reduce_sum(%ctx) ins(%x : memref<3x4xf32>) outs(%r : memref<4xf32>) {axes = array<i64: 1>}
  func.return
}
// CHECK: 'hip.miopen.reduce_sum' outs operand 0 has shape 4 but reducing 3x4 over [1] gives 3

// -----

func.func @argmax_type(%ctx: !hip.context, %x: memref<3x4xf32>, %r: memref<3xi32>) {
  hip.argmax(%ctx) ins(%x : memref<3x4xf32>) outs(%r : memref<3xi32>) {axis = 1 : i64}
  func.return
}
// CHECK: 'hip.argmax' outs operand 0 must have element type i64, got i32

// -----

func.func @two_outs(%ctx: !hip.context, %x: memref<3x4xf32>, %s: memref<4xf32>, %y: memref<3x4xf32>, %m: memref<3x1xf32>) {
  hip.miopen.layer_norm(%ctx) ins(%x, %s : memref<3x4xf32>, memref<4xf32>) outs(%y, %m : memref<3x4xf32>, memref<3x1xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32}
  func.return
}
// CHECK: 'hip.miopen.layer_norm' takes 1 outs operand or 3 (y, mean, inv_std_dev), got 2

// -----

func.func @stats_shape(%ctx: !hip.context, %x: memref<3x4xf32>, %s: memref<4xf32>, %y: memref<3x4xf32>, %m: memref<3xf32>) {
  hip.miopen.layer_norm(%ctx) ins(%x, %s : memref<3x4xf32>, memref<4xf32>) outs(%y, %m, %m : memref<3x4xf32>, memref<3xf32>, memref<3xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32}
  func.return
}
// CHECK: 'hip.miopen.layer_norm' outs operand 1 has shape 3, expected 3x1

// -----

func.func @scale_shape(%ctx: !hip.context, %x: memref<3x4xf32>, %s: memref<3xf32>, %y: memref<3x4xf32>) {
  hip.rms_norm(%ctx) ins(%x, %s : memref<3x4xf32>, memref<3xf32>) outs(%y : memref<3x4xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32}
  func.return
}
// CHECK: 'hip.rms_norm' ins operand 1 has shape 3, which does not broadcast to the normalized dims 4

// -----

func.func @fill_reads_nothing(%ctx: !hip.context, %x: memref<3xf32>, %y: memref<3xf32>) {
  hip.fill(%ctx) ins(%x : memref<3xf32>) outs(%y : memref<3xf32>) {value = 0 : i64}
  func.return
}
// CHECK: 'hip.fill' expects 0 ins operands, got 1
