// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Det is `hip.det` into an init of the batch dims.

func.func @det(%ctx: !hip.context, %x: tensor<?x3x3xf32>, %m: tensor<2x2xf64>) -> (tensor<?xf32>, tensor<f64>) {
  %0 = "onnx.Det"(%x) {onnx_node_name = "batched"} : (tensor<?x3x3xf32>) -> tensor<?xf32>
  %1 = "onnx.Det"(%m) {onnx_node_name = "one"} : (tensor<2x2xf64>) -> tensor<f64>
  func.return %0, %1 : tensor<?xf32>, tensor<f64>
}

// CHECK-LABEL: func.func @det
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x3x3xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?xf32>
// CHECK-NEXT:  %1 = hip.det(%ctx) ins(%x : tensor<?x3x3xf32>) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %3 = hip.det(%ctx) ins(%m : tensor<2x2xf64>) outs(%2 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  func.return %1, %3 : tensor<?xf32>, tensor<f64>
