// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ONNX Runtime's quantized contrib ops (xhip/transforms/onnx_to_hip/qlinear.py):
// each becomes the ai.onnx ops that compute ORT's CPU answer, converted to
// hip ops by their own patterns.

// QLinearSigmoid: ORT's lookup table is DequantizeLinear, Sigmoid,
// QuantizeLinear, element by element.

func.func @qlinear_sigmoid(%ctx: !hip.context, %x: tensor<4x8xui8>, %sx: tensor<f32>, %zx: tensor<ui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<4x8xui8> {
  %0 = "onnx.QLinearSigmoid"(%x, %sx, %zx, %sy, %zy) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> {onnx_node_name = "s"} : (tensor<4x8xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
  func.return %0 : tensor<4x8xui8>
}
// CHECK-LABEL: func.func @qlinear_sigmoid
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %1 = hip.dequantize_linear(%ctx) ins(%x, %sx, %zx : tensor<4x8xui8>, tensor<f32>, tensor<ui8>) outs(%0 : tensor<4x8xf32>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<4x8xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %3 = hip.miopen.sigmoid(%ctx) ins(%1 : tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<4x8xui8>
// CHECK-NEXT:    %5 = hip.quantize_linear(%ctx) ins(%3, %sy, %zy : tensor<4x8xf32>, tensor<f32>, tensor<ui8>) outs(%4 : tensor<4x8xui8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<4x8xui8>
// CHECK-NEXT:    func.return %5 : tensor<4x8xui8>

// QLinearMul (MLAS's SSE2 kernel): the product of the differences in int32,
// times sA * sB / sC in float32, plus zC; a QuantizeLinear of scale 1 and
// zero point 0 rounds to even and saturates. B broadcasts as numpy's.

func.func @qlinear_mul(%ctx: !hip.context, %a: tensor<2x3xi8>, %sa: tensor<f32>, %za: tensor<i8>, %b: tensor<3xi8>, %sb: tensor<f32>, %zb: tensor<i8>, %sc: tensor<f32>, %zc: tensor<i8>) -> tensor<2x3xi8> {
  %0 = "onnx.QLinearMul"(%a, %sa, %za, %b, %sb, %zb, %sc, %zc) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>}> {onnx_node_name = "m"} : (tensor<2x3xi8>, tensor<f32>, tensor<i8>, tensor<3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  func.return %0 : tensor<2x3xi8>
}
// CHECK-LABEL: func.func @qlinear_mul
// CHECK-NEXT:    %cst = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %cst_1 = arith.constant dense<0> : tensor<i8>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %1 = hip.cast(%ctx) ins(%a : tensor<2x3xi8>) outs(%0 : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<i32>
// CHECK-NEXT:    %3 = hip.cast(%ctx) ins(%za : tensor<i8>) outs(%2 : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %5 = hip.miopen.sub(%ctx) ins(%1, %3 : tensor<2x3xi32>, tensor<i32>) outs(%4 : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<3xi32>
// CHECK-NEXT:    %7 = hip.cast(%ctx) ins(%b : tensor<3xi8>) outs(%6 : tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<i32>
// CHECK-NEXT:    %9 = hip.cast(%ctx) ins(%zb : tensor<i8>) outs(%8 : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<3xi32>
// CHECK-NEXT:    %11 = hip.miopen.sub(%ctx) ins(%7, %9 : tensor<3xi32>, tensor<i32>) outs(%10 : tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:    %12 = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %13 = hip.miopen.mul(%ctx) ins(%5, %11 : tensor<2x3xi32>, tensor<3xi32>) outs(%12 : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %14 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %15 = hip.cast(%ctx) ins(%13 : tensor<2x3xi32>) outs(%14 : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %16 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %17 = hip.miopen.mul(%ctx) ins(%sa, %sb : tensor<f32>, tensor<f32>) outs(%16 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %18 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %19 = hip.miopen.div(%ctx) ins(%17, %sc : tensor<f32>, tensor<f32>) outs(%18 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %20 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %21 = hip.miopen.mul(%ctx) ins(%15, %19 : tensor<2x3xf32>, tensor<f32>) outs(%20 : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %22 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %23 = hip.cast(%ctx) ins(%zc : tensor<i8>) outs(%22 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %24 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %25 = hip.miopen.add(%ctx) ins(%21, %23 : tensor<2x3xf32>, tensor<f32>) outs(%24 : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %26 = tensor.empty() : tensor<2x3xi8>
// CHECK-NEXT:    %27 = hip.quantize_linear(%ctx) ins(%25, %cst, %cst_1 : tensor<2x3xf32>, tensor<f32>, tensor<i8>) outs(%26 : tensor<2x3xi8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x3xi8>
// CHECK-NEXT:    func.return %27 : tensor<2x3xi8>

// QLinearConcat: an input with Y's own scale and zero point is taken as it
// is; another is dequantized and quantized to Y's (ORT's lookup table).
// The axis is put in [0, rank).

func.func @qlinear_concat(%ctx: !hip.context, %sy: tensor<f32>, %zy: tensor<ui8>, %x0: tensor<2x3xui8>, %s0: tensor<f32>, %z0: tensor<ui8>, %x1: tensor<2x5xui8>) -> tensor<2x8xui8> {
  %0 = "onnx.QLinearConcat"(%sy, %zy, %x0, %s0, %z0, %x1, %sy, %zy) <{axis = -1 : si64}> {onnx_node_name = "c"} : (tensor<f32>, tensor<ui8>, tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x8xui8>
  func.return %0 : tensor<2x8xui8>
}
// CHECK-LABEL: func.func @qlinear_concat
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %1 = hip.dequantize_linear(%ctx) ins(%x0, %s0, %z0 : tensor<2x3xui8>, tensor<f32>, tensor<ui8>) outs(%0 : tensor<2x3xf32>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x3xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<2x3xui8>
// CHECK-NEXT:    %3 = hip.quantize_linear(%ctx) ins(%1, %sy, %zy : tensor<2x3xf32>, tensor<f32>, tensor<ui8>) outs(%2 : tensor<2x3xui8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x3xui8>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2x8xui8>
// CHECK-NEXT:    %5 = hip.concat(%ctx) ins(%3, %x1 : tensor<2x3xui8>, tensor<2x5xui8>) outs(%4 : tensor<2x8xui8>) {axis = 1 : i64} -> tensor<2x8xui8>
// CHECK-NEXT:    func.return %5 : tensor<2x8xui8>

// FusedMatMul: transA and transB transpose the operands, alpha scales the
// product.

func.func @fused_matmul(%ctx: !hip.context, %a: tensor<4x3xf32>, %b: tensor<5x4xf32>) -> tensor<3x5xf32> {
  %0 = "onnx.FusedMatMul"(%a, %b) <{alpha = 5.000000e-01 : f32, transA = 1 : si64, transB = 1 : si64, transBatchA = 0 : si64, transBatchB = 0 : si64}> {onnx_node_name = "f"} : (tensor<4x3xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}
// CHECK-LABEL: func.func @fused_matmul
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c0, %c1) ins(%a : tensor<4x3xf32>) outs(%0 : tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<4x5xf32>
// CHECK-NEXT:    %3 = hip.transpose(%ctx, %c0, %c1) ins(%b : tensor<5x4xf32>) outs(%2 : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT:    %5 = hip.hipblaslt.matmul(%ctx) ins(%1, %3 : tensor<3x4xf32>, tensor<4x5xf32>) outs(%4 : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT:    %7 = hip.miopen.mul(%ctx) ins(%5, %cst : tensor<3x5xf32>, tensor<f32>) outs(%6 : tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    func.return %7 : tensor<3x5xf32>

// DynamicQuantizeMatMul: DynamicQuantizeLinear of A, MatMulInteger with B
// (no zero point: a constant 0 of B's type), times a_scale * b_scale (per
// column), plus the bias.

func.func @dynamic_quantize_matmul(%ctx: !hip.context, %a: tensor<2x16xf32>, %b: tensor<16x6xi8>, %sb: tensor<6xf32>, %bias: tensor<6xf32>) -> tensor<2x6xf32> {
  %0 = "onnx.DynamicQuantizeMatMul"(%a, %b, %sb, %bias) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> {onnx_node_name = "d"} : (tensor<2x16xf32>, tensor<16x6xi8>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}
// CHECK-LABEL: func.func @dynamic_quantize_matmul
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<i8>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x16xui8>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<ui8>
// CHECK-NEXT:    %3, %4, %5 = hip.dynamic_quantize_linear(%ctx) ins(%a : tensor<2x16xf32>) outs(%0, %1, %2 : tensor<2x16xui8>, tensor<f32>, tensor<ui8>) -> (tensor<2x16xui8>, tensor<f32>, tensor<ui8>)
// CHECK-NEXT:    %6 = tensor.empty() : tensor<2x6xi32>
// CHECK-NEXT:    %7 = hip.matmul_integer(%ctx) ins(%3, %b, %5, %cst : tensor<2x16xui8>, tensor<16x6xi8>, tensor<ui8>, tensor<i8>) outs(%6 : tensor<2x6xi32>) -> tensor<2x6xi32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<6xf32>
// CHECK-NEXT:    %9 = hip.miopen.mul(%ctx) ins(%4, %sb : tensor<f32>, tensor<6xf32>) outs(%8 : tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<2x6xf32>
// CHECK-NEXT:    %11 = hip.cast(%ctx) ins(%7 : tensor<2x6xi32>) outs(%10 : tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %12 = tensor.empty() : tensor<2x6xf32>
// CHECK-NEXT:    %13 = hip.miopen.mul(%ctx) ins(%11, %9 : tensor<2x6xf32>, tensor<6xf32>) outs(%12 : tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %14 = tensor.empty() : tensor<2x6xf32>
// CHECK-NEXT:    %15 = hip.miopen.add(%ctx) ins(%13, %bias : tensor<2x6xf32>, tensor<6xf32>) outs(%14 : tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    func.return %15 : tensor<2x6xf32>

// QLinearSoftmax: exp((x - max + t) * sX) in float64 with ORT's shift t =
// (logf(FLT_MAX / 5) - 5) / sX (82.11... / sX), rounded to float32;
// the sum in order (CumSum, its last element); rint(e * floor(1 / sY) /
// sum) + zY, saturated. X's zero point is not an operand ORT reads.

func.func @qlinear_softmax(%ctx: !hip.context, %x: tensor<2x5xui8>, %sx: tensor<f32>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x5xui8> {
  %0 = "onnx.QLinearSoftmax"(%x, %sx, %sy, %zy) <{axis = -1 : si64, opset = 13 : si64, operandSegmentSizes = array<i32: 1, 1, 0, 1, 1>}> {onnx_node_name = "sm"} : (tensor<2x5xui8>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  func.return %0 : tensor<2x5xui8>
}
// CHECK-LABEL: func.func @qlinear_softmax
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<ui8>
// CHECK-NEXT:    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %cst_2 = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %cst_3 = arith.constant dense<9223372036854775807> : tensor<1xi64>
// CHECK-NEXT:    %cst_4 = arith.constant dense<-1> : tensor<1xi64>
// CHECK-NEXT:    %cst_5 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %cst_6 = arith.constant dense<82.1134033203125> : tensor<f64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x5xi32>
// CHECK-NEXT:    %1 = hip.cast(%ctx) ins(%x : tensor<2x5xui8>) outs(%0 : tensor<2x5xi32>) -> tensor<2x5xi32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<2x1xi32>
// CHECK-NEXT:    %3 = hip.miopen.reduce_max(%ctx) ins(%1 : tensor<2x5xi32>) outs(%2 : tensor<2x1xi32>) {axes = array<i64: 1>, keepdims} -> tensor<2x1xi32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<f64>
// CHECK-NEXT:    %5 = hip.cast(%ctx) ins(%sx : tensor<f32>) outs(%4 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<f64>
// CHECK-NEXT:    %7 = hip.miopen.div(%ctx) ins(%cst_6, %5 : tensor<f64>, tensor<f64>) outs(%6 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<2x5xi32>
// CHECK-NEXT:    %9 = hip.miopen.sub(%ctx) ins(%1, %3 : tensor<2x5xi32>, tensor<2x1xi32>) outs(%8 : tensor<2x5xi32>) -> tensor<2x5xi32>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<2x5xf64>
// CHECK-NEXT:    %11 = hip.cast(%ctx) ins(%9 : tensor<2x5xi32>) outs(%10 : tensor<2x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT:    %12 = tensor.empty() : tensor<2x5xf64>
// CHECK-NEXT:    %13 = hip.miopen.add(%ctx) ins(%11, %7 : tensor<2x5xf64>, tensor<f64>) outs(%12 : tensor<2x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT:    %14 = tensor.empty() : tensor<2x5xf64>
// CHECK-NEXT:    %15 = hip.miopen.mul(%ctx) ins(%13, %5 : tensor<2x5xf64>, tensor<f64>) outs(%14 : tensor<2x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT:    %16 = tensor.empty() : tensor<2x5xf64>
// CHECK-NEXT:    %17 = hip.miopen.exp(%ctx) ins(%15 : tensor<2x5xf64>) outs(%16 : tensor<2x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT:    %18 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %19 = hip.cast(%ctx) ins(%17 : tensor<2x5xf64>) outs(%18 : tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %20 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %21 = hip.cumsum(%ctx) ins(%19 : tensor<2x5xf32>) outs(%20 : tensor<2x5xf32>) {axis = 1 : i64} -> tensor<2x5xf32>
// CHECK-NEXT:    %22 = tensor.empty() : tensor<2x1xf32>
// CHECK-NEXT:    %23 = hip.slice(%ctx, %c0, %c4) ins(%21 : tensor<2x5xf32>) outs(%22 : tensor<2x1xf32>) {steps = array<i64: 1, 1>} -> tensor<2x1xf32>
// CHECK-NEXT:    %24 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %25 = hip.miopen.div(%ctx) ins(%cst_1, %sy : tensor<f32>, tensor<f32>) outs(%24 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %26 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %27 = hip.miopen.floor(%ctx) ins(%25 : tensor<f32>) outs(%26 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %28 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %29 = hip.miopen.mul(%ctx) ins(%19, %27 : tensor<2x5xf32>, tensor<f32>) outs(%28 : tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %30 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %31 = hip.miopen.div(%ctx) ins(%29, %23 : tensor<2x5xf32>, tensor<2x1xf32>) outs(%30 : tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %32 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %33 = hip.miopen.round(%ctx) ins(%31 : tensor<2x5xf32>) outs(%32 : tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %34 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %35 = hip.cast(%ctx) ins(%zy : tensor<ui8>) outs(%34 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %36 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %37 = hip.miopen.add(%ctx) ins(%33, %35 : tensor<2x5xf32>, tensor<f32>) outs(%36 : tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %38 = tensor.empty() : tensor<2x5xui8>
// CHECK-NEXT:    %39 = hip.quantize_linear(%ctx) ins(%37, %cst_1, %cst : tensor<2x5xf32>, tensor<f32>, tensor<ui8>) outs(%38 : tensor<2x5xui8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x5xui8>
// CHECK-NEXT:    func.return %39 : tensor<2x5xui8>
