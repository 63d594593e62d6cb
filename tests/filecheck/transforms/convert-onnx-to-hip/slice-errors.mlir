// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// A step of 0 (run-time starts and repeats are read back)
// and shapes that do not broadcast are refused with the reason. The constants
// are arith.constants: an onnx.Constant read at compile time is left for its
// user, so it would be refused along with it.

func.func @f(%ctx: !hip.context, %x: tensor<3x4xf32>, %starts: tensor<1xi64>, %r: tensor<2xi64>) -> (tensor<?x4xf32>, tensor<3x4xf32>, tensor<?x?xf32>, tensor<3x4xf32>) {
  %ends = arith.constant dense<[2]> : tensor<1xi64>
  %zero = arith.constant dense<[0]> : tensor<1xi64>
  %shape = arith.constant dense<[2, 4]> : tensor<2xi64>
  %0 = "onnx.Slice"(%x, %starts, %ends) {onnx_node_name = "data_starts", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<3x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
  %1 = "onnx.Slice"(%x, %zero, %ends, %zero, %zero) {onnx_node_name = "step_0", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x4xf32>
  %2 = "onnx.Tile"(%x, %r) {onnx_node_name = "tile"} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = "onnx.Expand"(%x, %shape) {onnx_node_name = "expand"} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %0, %1, %2, %3 : tensor<?x4xf32>, tensor<3x4xf32>, tensor<?x?xf32>, tensor<3x4xf32>
}
// CHECK:      convert-onnx-to-hip: 2 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Slice (node 'step_0'): a step of 0
// CHECK-NEXT:   onnx.Expand (node 'expand'): sizes 3 and 2 of dim 0 do not broadcast
