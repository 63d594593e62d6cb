// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ONNX Runtime's com.microsoft fused ops, made of the hip ops of their parts
// (xhip/transforms/onnx_to_hip/contrib.py).

// QuickGelu is x * sigmoid(alpha * x): the swish op, alpha its parameter.

func.func @quick_gelu(%ctx: !hip.context, %x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %0 = "onnx.QuickGelu"(%x) <{alpha = 6.000000e-01 : f32}> {onnx_node_name = "q"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %0 : tensor<2x16xf32>
}
// CHECK-LABEL: func.func @quick_gelu
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %1 = hip.miopen.swish(%ctx) ins(%x : tensor<2x16xf32>) outs(%0 : tensor<2x16xf32>) {alpha = 0.60000002384185791 : f64} -> tensor<2x16xf32>
// CHECK-NEXT:  func.return %1 : tensor<2x16xf32>

// FastGelu with a bias: the bias added first, then Gelu's tanh form.

func.func @fast_gelu_bias(%ctx: !hip.context, %x: tensor<2x16xf32>, %b: tensor<16xf32>) -> tensor<2x16xf32> {
  %0 = "onnx.FastGelu"(%x, %b) {onnx_node_name = "f"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  func.return %0 : tensor<2x16xf32>
}
// CHECK-LABEL: func.func @fast_gelu_bias
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %1 = hip.miopen.add(%ctx) ins(%x, %b : tensor<2x16xf32>, tensor<16xf32>) outs(%0 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %3 = hip.miopen.gelu_tanh(%ctx) ins(%1 : tensor<2x16xf32>) outs(%2 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  func.return %3 : tensor<2x16xf32>

// SkipLayerNormalization: input + skip (+ bias), then LayerNormalization over
// the last axis with gamma (and beta), at the op's epsilon.

func.func @skip_layer_norm(%ctx: !hip.context, %x: tensor<2x16xf32>, %s: tensor<2x16xf32>, %g: tensor<16xf32>) -> tensor<2x16xf32> {
  %0 = "onnx.SkipLayerNormalization"(%x, %s, %g) <{epsilon = 1.000000e-03 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>}> {onnx_node_name = "sln"} : (tensor<2x16xf32>, tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  func.return %0 : tensor<2x16xf32>
}
// CHECK-LABEL: func.func @skip_layer_norm
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %1 = hip.miopen.add(%ctx) ins(%x, %s : tensor<2x16xf32>, tensor<2x16xf32>) outs(%0 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %3 = hip.miopen.layer_norm(%ctx) ins(%1, %g : tensor<2x16xf32>, tensor<16xf32>) outs(%2 : tensor<2x16xf32>) {axis = 1 : i64, epsilon = 1.000000e-03 : f32} -> tensor<2x16xf32>
// CHECK-NEXT:  func.return %3 : tensor<2x16xf32>
