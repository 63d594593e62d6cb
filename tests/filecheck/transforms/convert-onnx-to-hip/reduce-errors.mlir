// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// A reduction's axes input computed at run time, and Dropout in training
// mode, are refused with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<3x4xf32>, %axes: tensor<1xi64>, %t: tensor<i1>) -> (tensor<?x?xf32>, tensor<3x4xf32>) {
  %0 = "onnx.ReduceSum"(%x, %axes) {onnx_node_name = "sum"} : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %1 = "onnx.Dropout"(%x, %t) {onnx_node_name = "drop", operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<3x4xf32>, tensor<i1>) -> tensor<3x4xf32>
  func.return %0, %1 : tensor<?x?xf32>, tensor<3x4xf32>
}
// CHECK:      convert-onnx-to-hip: 2 op(s) cannot be converted:
// CHECK-NEXT:   onnx.ReduceSum (node 'sum'): the axes input must be a constant (an initializer or onnx.Constant): the reduced dims decide the result's shape
// CHECK-NEXT:   onnx.Dropout (node 'drop'): training_mode must be a constant: xhip runs Dropout in inference mode only
