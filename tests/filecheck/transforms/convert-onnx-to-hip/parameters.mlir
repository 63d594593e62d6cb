// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Formula parameters: an ONNX attribute of the name a formula's `Param` has
// becomes a float property of the hip op (f64), defaults filled in by the
// importer; IsInf's int flags too. Gelu's `approximate` picks the formula:
// hip.miopen.gelu (erf) or hip.miopen.gelu_tanh.

func.func @elu(%ctx: !hip.context, %x: tensor<?x4xf32>) -> tensor<?x4xi1> {
  %0 = "onnx.Elu"(%x) {alpha = 5.000000e-01 : f32, onnx_node_name = "elu"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.HardSigmoid"(%0) {alpha = 2.500000e-01 : f32, beta = 5.000000e-01 : f32, onnx_node_name = "hs"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.IsInf"(%1) {detect_negative = 0 : si64, detect_positive = 1 : si64, onnx_node_name = "isinf"} : (tensor<?x4xf32>) -> tensor<?x4xi1>
  func.return %2 : tensor<?x4xi1>
}
func.func @gelu(%ctx: !hip.context, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = "onnx.Gelu"(%x) {approximate = "none", onnx_node_name = "gelu"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "onnx.Gelu"(%x) {approximate = "tanh", onnx_node_name = "gelu_tanh"} : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @elu
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT: %1 = hip.miopen.elu(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) {alpha = 5.000000e-01 : f64} -> tensor<?x4xf32>
// CHECK-NEXT: %dim_1 = tensor.dim %1, %c0 : tensor<?x4xf32>
// CHECK-NEXT: %2 = tensor.empty(%dim_1) : tensor<?x4xf32>
// CHECK-NEXT: %3 = hip.miopen.hard_sigmoid(%ctx) ins(%1 : tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) {alpha = 2.500000e-01 : f64, beta = 5.000000e-01 : f64} -> tensor<?x4xf32>
// CHECK-NEXT: %dim_2 = tensor.dim %3, %c0 : tensor<?x4xf32>
// CHECK-NEXT: %4 = tensor.empty(%dim_2) : tensor<?x4xi1>
// CHECK-NEXT: %5 = hip.miopen.isinf(%ctx) ins(%3 : tensor<?x4xf32>) outs(%4 : tensor<?x4xi1>) {detect_positive = 1.000000e+00 : f64, detect_negative = 0.000000e+00 : f64} -> tensor<?x4xi1>
// CHECK-NEXT: func.return %5 : tensor<?x4xi1>
// CHECK-LABEL: func.func @gelu
// CHECK-NEXT: %0 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %1 = hip.miopen.gelu(%ctx) ins(%x : tensor<8xf32>) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %3 = hip.miopen.gelu_tanh(%ctx) ins(%x : tensor<8xf32>) outs(%2 : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: func.return %1, %3 : tensor<8xf32>, tensor<8xf32>
