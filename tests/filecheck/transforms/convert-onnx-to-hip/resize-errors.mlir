// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// Scales as run-time data, a fractional scale of a dynamic dim, an unknown
// mode and linear on integers are refused with the reason (the scales
// constant, left for its users, is refused with them).

func.func @f(%ctx: !hip.context, %x: tensor<1x3x?x4xf32>, %scales: tensor<4xf32>) -> (tensor<1x3x?x8xf32>, tensor<1x3x?x6xf32>, tensor<1x3x?x4xf32>, tensor<1x3x?x4xi32>) {
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 1.5, 1.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "linear", onnx_node_name = "runtime"} : (tensor<1x3x?x4xf32>, tensor<4xf32>) -> tensor<1x3x?x8xf32>
  %1 = "onnx.Resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "linear", onnx_node_name = "fraction"} : (tensor<1x3x?x4xf32>, tensor<4xf32>) -> tensor<1x3x?x6xf32>
  %2 = "onnx.Resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "area", onnx_node_name = "mode"} : (tensor<1x3x?x4xf32>, tensor<4xf32>) -> tensor<1x3x?x4xf32>
  %y = "onnx.Cast"(%x) {to = i32, onnx_node_name = "cast"} : (tensor<1x3x?x4xf32>) -> tensor<1x3x?x4xi32>
  %3 = "onnx.Resize"(%y, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "linear", onnx_node_name = "integer"} : (tensor<1x3x?x4xi32>, tensor<4xf32>) -> tensor<1x3x?x4xi32>
  func.return %0, %1, %2, %3 : tensor<1x3x?x8xf32>, tensor<1x3x?x6xf32>, tensor<1x3x?x4xf32>, tensor<1x3x?x4xi32>
}
// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Resize (node 'runtime'): scales must be known at compile time (a constant); it is run-time data here
// CHECK-NEXT:   onnx.Resize (node 'fraction'): scale 1.5 of the dynamic dim 2: only integer scales of a dynamic size are supported
// CHECK-NEXT:   onnx.Resize (node 'mode'): mode 'area' is not one of ['nearest', 'linear', 'cubic']
// CHECK-NEXT:   onnx.Resize (node 'integer'): input type tensor<1x3x?x4xi32>: linear needs a float element type
