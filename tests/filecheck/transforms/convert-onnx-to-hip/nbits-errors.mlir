// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// MatMulNBits with g_idx (deprecated) or without its required K, and
// GatherBlockQuantized of uint8 data quantized along another axis than the
// last, are refused with the reason.

func.func @f(%ctx: !hip.context, %a: tensor<2x32xf32>, %b: tensor<1x1x16xui8>, %s: tensor<1x1xf32>, %g: tensor<32xi32>, %data: tensor<4x32xui8>, %idx: tensor<2xi64>, %gs: tensor<1x32xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x64xf32>) {
  %0 = "onnx.MatMulNBits"(%a, %b, %s, %g) <{K = 32 : si64, N = 1 : si64, bits = 4 : si64, block_size = 32 : si64, accuracy_level = 0 : si64, weight_prepacked = 0 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>}> {onnx_node_name = "gidx"} : (tensor<2x32xf32>, tensor<1x1x16xui8>, tensor<1x1xf32>, tensor<32xi32>) -> tensor<2x1xf32>
  %1 = "onnx.MatMulNBits"(%a, %b, %s) <{K = -1 : si64, N = 1 : si64, bits = 4 : si64, block_size = 32 : si64, accuracy_level = 0 : si64, weight_prepacked = 0 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}> {onnx_node_name = "nok"} : (tensor<2x32xf32>, tensor<1x1x16xui8>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %2 = "onnx.GatherBlockQuantized"(%data, %idx, %gs) <{bits = 4 : si64, block_size = 16 : si64, gather_axis = 0 : si64, quantize_axis = 0 : si64}> {onnx_node_name = "qaxis"} : (tensor<4x32xui8>, tensor<2xi64>, tensor<1x32xf32>) -> tensor<2x64xf32>
  func.return %0, %1, %2 : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x64xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.MatMulNBits (node 'gidx'): g_idx (deprecated) is not supported
// CHECK-NEXT:   onnx.MatMulNBits (node 'nok'): the required attribute 'K' is missing
// CHECK-NEXT:   onnx.GatherBlockQuantized (node 'qaxis'): gather_axis 0 and quantize_axis 0: uint8 data gathers along 0 and is quantized along its last axis
