// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// QuantizeLinear per axis: the axis in [0, rank), the init of x's dims.
func.func @quantize(%ctx: !hip.context, %x: tensor<?x6xf32>, %s: tensor<6xf32>, %z: tensor<6xi8>) -> tensor<?x6xi8> {
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = -1 : si64, block_size = 0 : si64, output_dtype = 0 : si64, precision = 0 : si64, saturate = 1 : si64, onnx_node_name = "q"} : (tensor<?x6xf32>, tensor<6xf32>, tensor<6xi8>) -> tensor<?x6xi8>
  func.return %0 : tensor<?x6xi8>
}
// CHECK-LABEL: func.func @quantize
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x6xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x6xi8>
// CHECK-NEXT:    %1 = hip.quantize_linear(%ctx) ins(%x, %s, %z : tensor<?x6xf32>, tensor<6xf32>, tensor<6xi8>) outs(%0 : tensor<?x6xi8>) {axis = 1 : i64, block_size = 0 : i64} -> tensor<?x6xi8>
// CHECK-NEXT:    func.return %1 : tensor<?x6xi8>

// Blocked DequantizeLinear without a zero point: a constant 0 of x's type
// and the scale's shape stands in for it.

func.func @dequantize_blocked(%ctx: !hip.context, %x: tensor<2x5xui8>, %s: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = "onnx.DequantizeLinear"(%x, %s) {axis = 1 : si64, block_size = 2 : si64, output_dtype = 0 : si64, onnx_node_name = "dq"} : (tensor<2x5xui8>, tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
// CHECK-LABEL: func.func @dequantize_blocked
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<2x3xui8>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %1 = hip.dequantize_linear(%ctx) ins(%x, %s, %cst : tensor<2x5xui8>, tensor<2x3xf32>, tensor<2x3xui8>) outs(%0 : tensor<2x5xf32>) {axis = 1 : i64, block_size = 2 : i64} -> tensor<2x5xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x5xf32>

// DynamicQuantizeLinear: three inits, the scale and zero point 0-d.

func.func @dynamic(%ctx: !hip.context, %x: tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>) {
  %0, %1, %2 = "onnx.DynamicQuantizeLinear"(%x) {onnx_node_name = "d"} : (tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>)
  func.return %0, %1, %2 : tensor<?x4xui8>, tensor<f32>, tensor<ui8>
}
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xui8>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<ui8>
// CHECK-NEXT:    %3, %4, %5 = hip.dynamic_quantize_linear(%ctx) ins(%x : tensor<?x4xf32>) outs(%0, %1, %2 : tensor<?x4xui8>, tensor<f32>, tensor<ui8>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>)
// CHECK-NEXT:    func.return %3, %4, %5 : tensor<?x4xui8>, tensor<f32>, tensor<ui8>

// MatMulInteger, batched, with b's per-column zero point only: a's is a
// 0-d constant 0 of its type; the output's dynamic dim is a's rows.

func.func @matmul_integer(%ctx: !hip.context, %a: tensor<2x?x8xui8>, %b: tensor<8x3xi8>, %bz: tensor<3xi8>) -> tensor<2x?x3xi32> {
  %0 = "onnx.MatMulInteger"(%a, %b, %bz) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> {onnx_node_name = "mm"} : (tensor<2x?x8xui8>, tensor<8x3xi8>, tensor<3xi8>) -> tensor<2x?x3xi32>
  func.return %0 : tensor<2x?x3xi32>
}
// CHECK-LABEL: func.func @matmul_integer
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<ui8>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c1 : tensor<2x?x8xui8>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<2x?x3xi32>
// CHECK-NEXT:    %1 = hip.matmul_integer(%ctx) ins(%a, %b, %cst, %bz : tensor<2x?x8xui8>, tensor<8x3xi8>, tensor<ui8>, tensor<3xi8>) outs(%0 : tensor<2x?x3xi32>) -> tensor<2x?x3xi32>
// CHECK-NEXT:    func.return %1 : tensor<2x?x3xi32>

// QLinearMatMul: MatMulInteger into an i32 tensor, then hip.requantize with
// a's scale along the rows (dim 0) and b's per-column scale along dim 1.

func.func @qlinear_matmul(%ctx: !hip.context, %a: tensor<?x8xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<8x3xi8>, %bs: tensor<3xf32>, %bz: tensor<3xi8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<?x3xui8> {
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) {onnx_node_name = "qmm"} : (tensor<?x8xui8>, tensor<f32>, tensor<ui8>, tensor<8x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<ui8>) -> tensor<?x3xui8>
  func.return %0 : tensor<?x3xui8>
}
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x8xui8>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3xi32>
// CHECK-NEXT:    %1 = hip.matmul_integer(%ctx) ins(%a, %b, %az, %bz : tensor<?x8xui8>, tensor<8x3xi8>, tensor<ui8>, tensor<3xi8>) outs(%0 : tensor<?x3xi32>) -> tensor<?x3xi32>
// CHECK-NEXT:    %dim_1 = tensor.dim %a, %c0 : tensor<?x8xui8>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x3xui8>
// CHECK-NEXT:    %3 = hip.requantize(%ctx) ins(%1, %as, %bs, %ys, %yz : tensor<?x3xi32>, tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<ui8>) outs(%2 : tensor<?x3xui8>) {a_axis = 0 : i64, b_axis = 1 : i64} -> tensor<?x3xui8>
// CHECK-NEXT:    func.return %3 : tensor<?x3xui8>

// ConvInteger with pads, a dynamic batch and no w zero point: the window as
// Conv's, w's zero point a 0-d constant 0 of its type.

func.func @conv_integer(%ctx: !hip.context, %x: tensor<?x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %xz: tensor<ui8>) -> tensor<?x3x5x5xi32> {
  %0 = "onnx.ConvInteger"(%x, %w, %xz) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> {auto_pad = "NOTSET", group = 1 : si64, pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64], onnx_node_name = "ci"} : (tensor<?x2x5x5xui8>, tensor<3x2x3x3xi8>, tensor<ui8>) -> tensor<?x3x5x5xi32>
  func.return %0 : tensor<?x3x5x5xi32>
}
// CHECK-LABEL: func.func @conv_integer
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<i8>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x2x5x5xui8>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3x5x5xi32>
// CHECK-NEXT:    %1 = hip.conv_integer(%ctx) ins(%x, %w, %xz, %cst : tensor<?x2x5x5xui8>, tensor<3x2x3x3xi8>, tensor<ui8>, tensor<i8>) outs(%0 : tensor<?x3x5x5xi32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, group = 1 : i64} -> tensor<?x3x5x5xi32>
// CHECK-NEXT:    func.return %1 : tensor<?x3x5x5xi32>

// QLinearConv with a bias: hip.conv_integer (the bias its fifth ins) into an
// i32 tensor, then hip.requantize with w's per-channel scale along dim 1.

func.func @qlinear_conv(%ctx: !hip.context, %x: tensor<1x2x5xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %w: tensor<3x2x3xi8>, %ws: tensor<3xf32>, %wz: tensor<3xi8>, %ys: tensor<f32>, %yz: tensor<ui8>, %b: tensor<3xi32>) -> tensor<1x3x3xui8> {
  %0 = "onnx.QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {auto_pad = "NOTSET", group = 1 : si64, onnx_node_name = "qc"} : (tensor<1x2x5xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x3x3xui8>
  func.return %0 : tensor<1x3x3xui8>
}
// CHECK-LABEL: func.func @qlinear_conv
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x3x3xi32>
// CHECK-NEXT:    %1 = hip.conv_integer(%ctx) ins(%x, %w, %xz, %wz, %b : tensor<1x2x5xui8>, tensor<3x2x3xi8>, tensor<ui8>, tensor<3xi8>, tensor<3xi32>) outs(%0 : tensor<1x3x3xi32>) {strides = array<i64: 1>, dilations = array<i64: 1>, pads = array<i64: 0, 0>, group = 1 : i64} -> tensor<1x3x3xi32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<1x3x3xui8>
// CHECK-NEXT:    %3 = hip.requantize(%ctx) ins(%1, %xs, %ws, %ys, %yz : tensor<1x3x3xi32>, tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<ui8>) outs(%2 : tensor<1x3x3xui8>) {a_axis = 1 : i64, b_axis = 1 : i64} -> tensor<1x3x3xui8>
// CHECK-NEXT:    func.return %3 : tensor<1x3x3xui8>
