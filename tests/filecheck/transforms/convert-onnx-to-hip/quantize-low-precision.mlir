// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// int4 and float8 (one element a byte in the IR): QuantizeLinear to i4
// blocked; to float8 without saturation (`no_saturate`), the absent zero
// point a 0 of f8E4M3FN; DequantizeLinear from ui4 per axis.

func.func @quantize_i4_blocked(%ctx: !hip.context, %x: tensor<4x6xf16>, %s: tensor<4x2xf16>, %z: tensor<4x2xi4>) -> tensor<4x6xi4> {
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : si64, block_size = 3 : si64, output_dtype = 0 : si64, precision = 0 : si64, saturate = 1 : si64, onnx_node_name = "q"} : (tensor<4x6xf16>, tensor<4x2xf16>, tensor<4x2xi4>) -> tensor<4x6xi4>
  func.return %0 : tensor<4x6xi4>
}
// CHECK-LABEL: func.func @quantize_i4_blocked
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4x6xi4>
// CHECK-NEXT:    %1 = hip.quantize_linear(%ctx) ins(%x, %s, %z : tensor<4x6xf16>, tensor<4x2xf16>, tensor<4x2xi4>) outs(%0 : tensor<4x6xi4>) {axis = 1 : i64, block_size = 3 : i64} -> tensor<4x6xi4>
// CHECK-NEXT:    func.return %1 : tensor<4x6xi4>

func.func @quantize_f8_overflow(%ctx: !hip.context, %x: tensor<5xf32>, %s: tensor<f32>) -> tensor<5xf8E4M3FN> {
  %0 = "onnx.QuantizeLinear"(%x, %s) {axis = 1 : si64, block_size = 0 : si64, output_dtype = 17 : si64, precision = 0 : si64, saturate = 0 : si64, onnx_node_name = "q8"} : (tensor<5xf32>, tensor<f32>) -> tensor<5xf8E4M3FN>
  func.return %0 : tensor<5xf8E4M3FN>
}
// CHECK-LABEL: func.func @quantize_f8_overflow
// CHECK-NEXT:    %cst = arith.constant dense<0.000000e+00> : tensor<f8E4M3FN>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<5xf8E4M3FN>
// CHECK-NEXT:    %1 = hip.quantize_linear(%ctx) ins(%x, %s, %cst : tensor<5xf32>, tensor<f32>, tensor<f8E4M3FN>) outs(%0 : tensor<5xf8E4M3FN>) {axis = 0 : i64, block_size = 0 : i64, no_saturate} -> tensor<5xf8E4M3FN>
// CHECK-NEXT:    func.return %1 : tensor<5xf8E4M3FN>

func.func @dequantize_ui4(%ctx: !hip.context, %x: tensor<3x4xui4>, %s: tensor<4xf32>, %z: tensor<4xui4>) -> tensor<3x4xf32> {
  %0 = "onnx.DequantizeLinear"(%x, %s, %z) {axis = 1 : si64, block_size = 0 : si64, output_dtype = 0 : si64, onnx_node_name = "dq"} : (tensor<3x4xui4>, tensor<4xf32>, tensor<4xui4>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @dequantize_ui4
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT:    %1 = hip.dequantize_linear(%ctx) ins(%x, %s, %z : tensor<3x4xui4>, tensor<4xf32>, tensor<4xui4>) outs(%0 : tensor<3x4xf32>) {axis = 1 : i64, block_size = 0 : i64} -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %1 : tensor<3x4xf32>

// Cast of float16 to float8e5m2 (saturating): the QuantizeLinear by 1 it
// equals; of int32 to i4, a hip.cast (it wraps).

func.func @cast_f8(%ctx: !hip.context, %x: tensor<5xf16>) -> tensor<5xf8E5M2> {
  %0 = "onnx.Cast"(%x) {to = f8E5M2, saturate = 1 : si64, round_mode = "up", onnx_node_name = "c"} : (tensor<5xf16>) -> tensor<5xf8E5M2>
  func.return %0 : tensor<5xf8E5M2>
}
// CHECK-LABEL: func.func @cast_f8
// CHECK-NEXT:    %cst = arith.constant dense<0.000000e+00> : tensor<f8E5M2>
// CHECK-NEXT:    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f16>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<5xf8E5M2>
// CHECK-NEXT:    %1 = hip.quantize_linear(%ctx) ins(%x, %cst_1, %cst : tensor<5xf16>, tensor<f16>, tensor<f8E5M2>) outs(%0 : tensor<5xf8E5M2>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<5xf8E5M2>
// CHECK-NEXT:    func.return %1 : tensor<5xf8E5M2>

func.func @cast_i4(%ctx: !hip.context, %x: tensor<5xi32>) -> tensor<5xi4> {
  %0 = "onnx.Cast"(%x) {to = i4, saturate = 1 : si64, round_mode = "up", onnx_node_name = "c4"} : (tensor<5xi32>) -> tensor<5xi4>
  func.return %0 : tensor<5xi4>
}
// CHECK-LABEL: func.func @cast_i4
// CHECK:         hip.cast(%ctx) ins(%x : tensor<5xi32>) outs(%{{.*}} : tensor<5xi4>)
