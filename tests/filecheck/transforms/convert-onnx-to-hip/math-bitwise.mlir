// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh: one line of
// compute.ELEMENTWISE each, float types only (float16 computes in float).

func.func @trig(%ctx: !hip.context, %x: tensor<?x4xf32>, %h: tensor<3xf16>) -> (tensor<?x4xf32>, tensor<3xf16>) {
  %0 = "onnx.Tan"(%x) {onnx_node_name = "tan"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Asin"(%0) {onnx_node_name = "asin"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.Acos"(%1) {onnx_node_name = "acos"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = "onnx.Atan"(%2) {onnx_node_name = "atan"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = "onnx.Sinh"(%3) {onnx_node_name = "sinh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %5 = "onnx.Cosh"(%4) {onnx_node_name = "cosh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %6 = "onnx.Asinh"(%5) {onnx_node_name = "asinh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %7 = "onnx.Acosh"(%6) {onnx_node_name = "acosh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %8 = "onnx.Atanh"(%h) {onnx_node_name = "atanh"} : (tensor<3xf16>) -> tensor<3xf16>
  func.return %7, %8 : tensor<?x4xf32>, tensor<3xf16>
}
// CHECK-LABEL: func.func @trig
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    %1 = hip.miopen.tan(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x4xf32>
// CHECK-NEXT:    %3 = hip.miopen.asin(%ctx) ins(%1 : tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %3, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x4xf32>
// CHECK-NEXT:    %5 = hip.miopen.acos(%ctx) ins(%3 : tensor<?x4xf32>) outs(%4 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %5, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_3) : tensor<?x4xf32>
// CHECK-NEXT:    %7 = hip.miopen.atan(%ctx) ins(%5 : tensor<?x4xf32>) outs(%6 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_4 = tensor.dim %7, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %8 = tensor.empty(%dim_4) : tensor<?x4xf32>
// CHECK-NEXT:    %9 = hip.miopen.sinh(%ctx) ins(%7 : tensor<?x4xf32>) outs(%8 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_5 = tensor.dim %9, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %10 = tensor.empty(%dim_5) : tensor<?x4xf32>
// CHECK-NEXT:    %11 = hip.miopen.cosh(%ctx) ins(%9 : tensor<?x4xf32>) outs(%10 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_6 = tensor.dim %11, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %12 = tensor.empty(%dim_6) : tensor<?x4xf32>
// CHECK-NEXT:    %13 = hip.miopen.asinh(%ctx) ins(%11 : tensor<?x4xf32>) outs(%12 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_7 = tensor.dim %13, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %14 = tensor.empty(%dim_7) : tensor<?x4xf32>
// CHECK-NEXT:    %15 = hip.miopen.acosh(%ctx) ins(%13 : tensor<?x4xf32>) outs(%14 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %16 = tensor.empty() : tensor<3xf16>
// CHECK-NEXT:    %17 = hip.miopen.atanh(%ctx) ins(%h : tensor<3xf16>) outs(%16 : tensor<3xf16>) -> tensor<3xf16>
// CHECK-NEXT:    func.return %15, %17 : tensor<?x4xf32>, tensor<3xf16>

// Swish's alpha and Shrink's lambd and bias are formula parameters (f64
// properties). Shrink on integers computes in float64, as onnx's reference
// does: a hip.cast on either side, the result truncated back.

func.func @activations(%ctx: !hip.context, %x: tensor<?x4xf32>, %i: tensor<5xi32>) -> (tensor<?x4xf32>, tensor<5xi32>) {
  %0 = "onnx.Swish"(%x) {alpha = 5.000000e-01 : f32, onnx_node_name = "swish"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Shrink"(%0) {bias = 2.500000e-01 : f32, lambd = 1.500000e+00 : f32, onnx_node_name = "shrink"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.Shrink"(%i) {bias = 5.000000e-01 : f32, lambd = 1.000000e+00 : f32, onnx_node_name = "shrink_int"} : (tensor<5xi32>) -> tensor<5xi32>
  func.return %1, %2 : tensor<?x4xf32>, tensor<5xi32>
}
// CHECK-LABEL: func.func @activations
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    %1 = hip.miopen.swish(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) {alpha = 5.000000e-01 : f64} -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x4xf32>
// CHECK-NEXT:    %3 = hip.miopen.shrink(%ctx) ins(%1 : tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) {lambd = 1.500000e+00 : f64, bias = 2.500000e-01 : f64} -> tensor<?x4xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<5xf64>
// CHECK-NEXT:    %5 = hip.cast(%ctx) ins(%i : tensor<5xi32>) outs(%4 : tensor<5xf64>) -> tensor<5xf64>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<5xf64>
// CHECK-NEXT:    %7 = hip.miopen.shrink(%ctx) ins(%5 : tensor<5xf64>) outs(%6 : tensor<5xf64>) {lambd = 1.000000e+00 : f64, bias = 5.000000e-01 : f64} -> tensor<5xf64>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<5xi32>
// CHECK-NEXT:    %9 = hip.cast(%ctx) ins(%7 : tensor<5xf64>) outs(%8 : tensor<5xi32>) -> tensor<5xi32>
// CHECK-NEXT:    func.return %3, %9 : tensor<?x4xf32>, tensor<5xi32>

// BitwiseAnd/Or/Xor broadcast as numpy does; BitShift's direction picks
// hip.miopen.bit_shift_left or bit_shift_right. Integer types only.

func.func @bitwise(%ctx: !hip.context, %a: tensor<?x4xi32>, %b: tensor<4xi32>, %u: tensor<3xui8>, %s: tensor<ui8>) -> (tensor<?x4xi32>, tensor<3xui8>) {
  %0 = "onnx.BitwiseAnd"(%a, %b) {onnx_node_name = "and"} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %1 = "onnx.BitwiseOr"(%0, %b) {onnx_node_name = "or"} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %2 = "onnx.BitwiseXor"(%b, %1) {onnx_node_name = "xor"} : (tensor<4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %3 = "onnx.BitwiseNot"(%2) {onnx_node_name = "not"} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %4 = "onnx.BitShift"(%u, %s) {direction = "LEFT", onnx_node_name = "shl"} : (tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  %5 = "onnx.BitShift"(%4, %s) {direction = "RIGHT", onnx_node_name = "shr"} : (tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  func.return %3, %5 : tensor<?x4xi32>, tensor<3xui8>
}
// CHECK-LABEL: func.func @bitwise
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xi32>
// CHECK-NEXT:    %1 = hip.miopen.bitwise_and(%ctx) ins(%a, %b : tensor<?x4xi32>, tensor<4xi32>) outs(%0 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x4xi32>
// CHECK-NEXT:    %3 = hip.miopen.bitwise_or(%ctx) ins(%1, %b : tensor<?x4xi32>, tensor<4xi32>) outs(%2 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:    %dim_2 = tensor.dim %3, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x4xi32>
// CHECK-NEXT:    %5 = hip.miopen.bitwise_xor(%ctx) ins(%b, %3 : tensor<4xi32>, tensor<?x4xi32>) outs(%4 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:    %dim_3 = tensor.dim %5, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_3) : tensor<?x4xi32>
// CHECK-NEXT:    %7 = hip.miopen.bitwise_not(%ctx) ins(%5 : tensor<?x4xi32>) outs(%6 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<3xui8>
// CHECK-NEXT:    %9 = hip.miopen.bit_shift_left(%ctx) ins(%u, %s : tensor<3xui8>, tensor<ui8>) outs(%8 : tensor<3xui8>) -> tensor<3xui8>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<3xui8>
// CHECK-NEXT:    %11 = hip.miopen.bit_shift_right(%ctx) ins(%9, %s : tensor<3xui8>, tensor<ui8>) outs(%10 : tensor<3xui8>) -> tensor<3xui8>
// CHECK-NEXT:    func.return %7, %11 : tensor<?x4xi32>, tensor<3xui8>
