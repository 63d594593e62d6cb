// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// GlobalLpPool: p = 2 is ReduceL2 over the spatial dims (kept), p = 1
// ReduceL1; another p is pow(sum(pow(|x|, p)), 1 / p).

func.func @global_lp_pool(%ctx: !hip.context, %x: tensor<1x3x4x5xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) {
  %0 = "onnx.GlobalLpPool"(%x) {p = 2 : si64, onnx_node_name = "l2"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  %1 = "onnx.GlobalLpPool"(%x) {p = 3 : si64, onnx_node_name = "l3"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  func.return %0, %1 : tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>
}

// CHECK-LABEL: func.func @global_lp_pool
// CHECK-NEXT:  %cst = arith.constant dense<0.333333343> : tensor<f32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<3.000000e+00> : tensor<f32>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %1 = hip.miopen.reduce_l2(%ctx) ins(%x : tensor<1x3x4x5xf32>) outs(%0 : tensor<1x3x1x1xf32>) {axes = array<i64: 2, 3>, keepdims} -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<1x3x4x5xf32>
// CHECK-NEXT:  %3 = hip.miopen.abs(%ctx) ins(%x : tensor<1x3x4x5xf32>) outs(%2 : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<1x3x4x5xf32>
// CHECK-NEXT:  %5 = hip.miopen.pow(%ctx) ins(%3, %cst_1 : tensor<1x3x4x5xf32>, tensor<f32>) outs(%4 : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %7 = hip.miopen.reduce_sum(%ctx) ins(%5 : tensor<1x3x4x5xf32>) outs(%6 : tensor<1x3x1x1xf32>) {axes = array<i64: 2, 3>, keepdims} -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:  %9 = hip.miopen.pow(%ctx) ins(%7, %cst : tensor<1x3x1x1xf32>, tensor<f32>) outs(%8 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT:  func.return %1, %9 : tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>
