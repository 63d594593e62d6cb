// RUN: xdsl-opt %s | xdsl-opt | filecheck %s

// The reduction family round-trips in both modes: the reductions with their
// axes (and keepdims), argmax/argmin into i64, layer_norm with one or three
// outs, rms_norm, log_softmax, hardmax, and fill, which reads nothing.

func.func @memref_mode(%ctx: !hip.context, %x: memref<?x5x7xf32>, %r: memref<?x7xf32>, %k: memref<1x5x1xf32>, %i: memref<?x5xi64>, %s: memref<7xf32>, %y: memref<?x5x7xf32>, %m: memref<?x5x1xf32>, %v: memref<?x5x1xf32>, %b: memref<?x5x7xi1>) {
  hip.miopen.reduce_sum(%ctx) ins(%x : memref<?x5x7xf32>) outs(%r : memref<?x7xf32>) {axes = array<i64: 1>}
  hip.reduce_log_sum_exp(%ctx) ins(%x : memref<?x5x7xf32>) outs(%k : memref<1x5x1xf32>) {axes = array<i64: 0, 2>, keepdims}
  hip.argmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%i : memref<?x5xi64>) {axis = 2 : i64, select_last_index}
  hip.miopen.layer_norm(%ctx) ins(%x, %s, %s : memref<?x5x7xf32>, memref<7xf32>, memref<7xf32>) outs(%y, %m, %v : memref<?x5x7xf32>, memref<?x5x1xf32>, memref<?x5x1xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
  hip.rms_norm(%ctx) ins(%x, %s : memref<?x5x7xf32>, memref<7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
  hip.miopen.log_softmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 0 : i64}
  hip.hardmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 1 : i64}
  hip.fill(%ctx) ins() outs(%b : memref<?x5x7xi1>) {value = 1 : i64}
  func.return
}
// CHECK-LABEL: func.func @memref_mode
// CHECK-NEXT:    hip.miopen.reduce_sum(%ctx) ins(%x : memref<?x5x7xf32>) outs(%r : memref<?x7xf32>) {axes = array<i64: 1>}
// CHECK-NEXT:    hip.reduce_log_sum_exp(%ctx) ins(%x : memref<?x5x7xf32>) outs(%k : memref<1x5x1xf32>) {axes = array<i64: 0, 2>, keepdims}
// CHECK-NEXT:    hip.argmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%i : memref<?x5xi64>) {axis = 2 : i64, select_last_index}
// CHECK-NEXT:    hip.miopen.layer_norm(%ctx) ins(%x, %s, %s : memref<?x5x7xf32>, memref<7xf32>, memref<7xf32>) outs(%y, %m, %v : memref<?x5x7xf32>, memref<?x5x1xf32>, memref<?x5x1xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
// CHECK-NEXT:    hip.rms_norm(%ctx) ins(%x, %s : memref<?x5x7xf32>, memref<7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
// CHECK-NEXT:    hip.miopen.log_softmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 0 : i64}
// CHECK-NEXT:    hip.hardmax(%ctx) ins(%x : memref<?x5x7xf32>) outs(%y : memref<?x5x7xf32>) {axis = 1 : i64}
// CHECK-NEXT:    hip.fill(%ctx) ins() outs(%b : memref<?x5x7xi1>) {value = 1 : i64}

func.func @tensor_mode(%ctx: !hip.context, %x: tensor<4x8xf32>, %s: tensor<8xf32>, %y: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %0, %1, %2 = hip.miopen.layer_norm(%ctx) ins(%x, %s : tensor<4x8xf32>, tensor<8xf32>) outs(%y, %m, %m : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32} -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  func.return %0, %1, %2 : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}
// CHECK-LABEL: func.func @tensor_mode
// CHECK-NEXT:    %0, %1, %2 = hip.miopen.layer_norm(%ctx) ins(%x, %s : tensor<4x8xf32>, tensor<8xf32>) outs(%y, %m, %m : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32} -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
