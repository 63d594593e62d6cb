// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ONNX Runtime's block-quantized weight ops (xhip/transforms/onnx_to_hip/nbits.py).

// MatMulNBits at accuracy level 4 with a constant B: ORT's int8 arithmetic
// (int8 = 1); no zero point: a constant of 8s packed two per byte (0x88).
// The result takes A's leading dims and N.

func.func @matmul_nbits_int8(%ctx: !hip.context, %a: tensor<?x?x40xf32>, %s: tensor<3x2xf32>) -> tensor<?x?x3xf32> {
  %b = "onnx.Constant"() {value = dense<17> : tensor<3x2x16xui8>} : () -> tensor<3x2x16xui8>
  %0 = "onnx.MatMulNBits"(%a, %b, %s) <{K = 40 : si64, N = 3 : si64, bits = 4 : si64, block_size = 32 : si64, accuracy_level = 4 : si64, weight_prepacked = 0 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}> {onnx_node_name = "mm"} : (tensor<?x?x40xf32>, tensor<3x2x16xui8>, tensor<3x2xf32>) -> tensor<?x?x3xf32>
  func.return %0 : tensor<?x?x3xf32>
}
// CHECK-LABEL: func.func @matmul_nbits_int8
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<136> : tensor<3x1xui8>
// CHECK-NEXT:    %cst_1 = arith.constant dense<17> : tensor<3x2x16xui8>
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x?x40xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %a, %c1 : tensor<?x?x40xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x3xf32>
// CHECK-NEXT:    %1 = hip.matmul_nbits(%ctx) ins(%a, %cst_1, %s, %cst : tensor<?x?x40xf32>, tensor<3x2x16xui8>, tensor<3x2xf32>, tensor<3x1xui8>) outs(%0 : tensor<?x?x3xf32>) {k = 40 : i64, n = 3 : i64, bits = 4 : i64, block_size = 32 : i64, int8 = 1 : i64} -> tensor<?x?x3xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x?x3xf32>

// B an argument: ORT prepacks constants only, so level 4 computes in float
// (int8 = 0); the zero points and the bias are passed through.

func.func @matmul_nbits_float(%ctx: !hip.context, %a: tensor<2x64xf32>, %b: tensor<5x1x64xui8>, %s: tensor<5x1xf32>, %z: tensor<5x1xui8>, %bias: tensor<5xf32>) -> tensor<2x5xf32> {
  %0 = "onnx.MatMulNBits"(%a, %b, %s, %z, %bias) <{K = 64 : si64, N = 5 : si64, bits = 8 : si64, block_size = 64 : si64, accuracy_level = 4 : si64, weight_prepacked = 0 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>}> {onnx_node_name = "mm"} : (tensor<2x64xf32>, tensor<5x1x64xui8>, tensor<5x1xf32>, tensor<5x1xui8>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
// CHECK-LABEL: func.func @matmul_nbits_float
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT:    %1 = hip.matmul_nbits(%ctx) ins(%a, %b, %s, %z, %bias : tensor<2x64xf32>, tensor<5x1x64xui8>, tensor<5x1xf32>, tensor<5x1xui8>, tensor<5xf32>) outs(%0 : tensor<2x5xf32>) {k = 64 : i64, n = 5 : i64, bits = 8 : i64, block_size = 64 : i64, int8 = 0 : i64} -> tensor<2x5xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x5xf32>

// GatherBlockQuantized of 4-bit uint8 data: the indices' dims, then the rows
// of twice the packed width; negative axes put in [0, rank).

func.func @gather_block_quantized(%ctx: !hip.context, %data: tensor<10x32xui8>, %idx: tensor<?x3xi64>, %s: tensor<10x2xf32>) -> tensor<?x3x64xf32> {
  %0 = "onnx.GatherBlockQuantized"(%data, %idx, %s) <{bits = 4 : si64, block_size = 32 : si64, gather_axis = -2 : si64, quantize_axis = -1 : si64}> {onnx_node_name = "g"} : (tensor<10x32xui8>, tensor<?x3xi64>, tensor<10x2xf32>) -> tensor<?x3x64xf32>
  func.return %0 : tensor<?x3x64xf32>
}
// CHECK-LABEL: func.func @gather_block_quantized
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %idx, %c0 : tensor<?x3xi64>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3x64xf32>
// CHECK-NEXT:    %1 = hip.gather_block_quantized(%ctx) ins(%data, %idx, %s : tensor<10x32xui8>, tensor<?x3xi64>, tensor<10x2xf32>) outs(%0 : tensor<?x3x64xf32>) {gather_axis = 0 : i64, quantize_axis = 1 : i64, block_size = 32 : i64, bits = 4 : i64} -> tensor<?x3x64xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x3x64xf32>
