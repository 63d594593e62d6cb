// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// An unknown reduction, integer scores and float targets are refused with the
// reason, before any part is made.

func.func @f(%ctx: !hip.context, %x: tensor<2x3xf32>, %t: tensor<2xi64>, %y: tensor<2x3xi32>, %u: tensor<2xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t) {reduction = "max", onnx_node_name = "reduction"} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<f32>
  %1 = "onnx.NegativeLogLikelihoodLoss"(%y, %t) {onnx_node_name = "integer"} : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<f32>
  %2 = "onnx.NegativeLogLikelihoodLoss"(%x, %u) {onnx_node_name = "target"} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.NegativeLogLikelihoodLoss (node 'reduction'): reduction 'max' is not one of ['none', 'sum', 'mean']
// CHECK-NEXT:   onnx.NegativeLogLikelihoodLoss (node 'integer'): input type tensor<2x3xi32>: a float element type is needed
// CHECK-NEXT:   onnx.NegativeLogLikelihoodLoss (node 'target'): target type tensor<2xf32>: int32 or int64 is needed
