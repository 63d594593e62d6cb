// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// MeanVarianceNormalization: d = x - mean(x), then d / (sqrt(mean(d * d)) +
// 1e-9), the means over the axes (default 0, 2, 3) with the dims kept.

func.func @mvn(%ctx: !hip.context, %x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %0 = "onnx.MeanVarianceNormalization"(%x) {axes = [0, 2, 3], onnx_node_name = "mvn"} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  func.return %0 : tensor<2x3x4x5xf32>
}

// CHECK-LABEL: func.func @mvn
// CHECK-NEXT:  %cst = arith.constant dense<1.000000e-09> : tensor<f32>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %1 = hip.miopen.reduce_mean(%ctx) ins(%x : tensor<2x3x4x5xf32>) outs(%0 : tensor<1x3x1x1xf32>) {axes = array<i64: 0, 2, 3>, keepdims} -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x3x4x5xf32>
// CHECK-NEXT:  %3 = hip.miopen.sub(%ctx) ins(%x, %1 : tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) outs(%2 : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<2x3x4x5xf32>
// CHECK-NEXT:  %5 = hip.miopen.mul(%ctx) ins(%3, %3 : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) outs(%4 : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %7 = hip.miopen.reduce_mean(%ctx) ins(%5 : tensor<2x3x4x5xf32>) outs(%6 : tensor<1x3x1x1xf32>) {axes = array<i64: 0, 2, 3>, keepdims} -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %9 = hip.miopen.sqrt(%ctx) ins(%7 : tensor<1x3x1x1xf32>) outs(%8 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %11 = hip.miopen.add(%ctx) ins(%9, %cst : tensor<1x3x1x1xf32>, tensor<f32>) outs(%10 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %12 = tensor.empty() : tensor<2x3x4x5xf32>
// CHECK-NEXT:  %13 = hip.miopen.div(%ctx) ins(%3, %11 : tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) outs(%12 : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:  func.return %13 : tensor<2x3x4x5xf32>
