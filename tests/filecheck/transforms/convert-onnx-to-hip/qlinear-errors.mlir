// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// QLinearConcat without its required axis, QLinearAdd of 16-bit integers
// (ORT's kernels take uint8 and int8), QLinearAveragePool in NHWC and
// FusedMatMul of float16 are refused with the reason.

func.func @f(%ctx: !hip.context, %s: tensor<f32>, %z: tensor<ui8>, %x: tensor<2x3xui8>, %a: tensor<4xi16>, %za: tensor<i16>, %p: tensor<1x4x4x2xui8>, %h: tensor<2x2xf16>) -> (tensor<2x3xui8>, tensor<4xi16>, tensor<1x2x2x2xui8>, tensor<2x2xf16>) {
  %0 = "onnx.QLinearConcat"(%s, %z, %x, %s, %z) <{axis = -1099511627776 : si64}> {onnx_node_name = "noaxis"} : (tensor<f32>, tensor<ui8>, tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %1 = "onnx.QLinearAdd"(%a, %s, %za, %a, %s, %za, %s, %za) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>}> {onnx_node_name = "i16"} : (tensor<4xi16>, tensor<f32>, tensor<i16>, tensor<4xi16>, tensor<f32>, tensor<i16>, tensor<f32>, tensor<i16>) -> tensor<4xi16>
  %2 = "onnx.QLinearAveragePool"(%p, %s, %z, %s, %z) <{auto_pad = "NOTSET", ceil_mode = 0 : si64, channels_last = 1 : si64, count_include_pad = 0 : si64, kernel_shape = [2 : si64, 2 : si64], pads = [-1099511627776 : si64], strides = [2 : si64, 2 : si64], operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> {onnx_node_name = "nhwc"} : (tensor<1x4x4x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  %3 = "onnx.FusedMatMul"(%h, %h) <{alpha = 1.000000e+00 : f32, transA = 0 : si64, transB = 0 : si64, transBatchA = 0 : si64, transBatchB = 0 : si64}> {onnx_node_name = "half"} : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  func.return %0, %1, %2, %3 : tensor<2x3xui8>, tensor<4xi16>, tensor<1x2x2x2xui8>, tensor<2x2xf16>
}
// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.QLinearConcat (node 'noaxis'): the required attribute 'axis' is missing
// CHECK-NEXT:   onnx.QLinearAdd (node 'i16'): A of i16: uint8 or int8 only
// CHECK-NEXT:   onnx.QLinearAveragePool (node 'nhwc'): channels_last is not supported
// CHECK-NEXT:   onnx.FusedMatMul (node 'half'): A of tensor<2x2xf16>: float32 only
