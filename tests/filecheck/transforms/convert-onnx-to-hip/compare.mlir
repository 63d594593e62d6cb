// RUN: xdsl-opt %s --split-input-file --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// Comparisons give i1 results of the operands' shape broadcast; logic ops
// take and give i1. The type rule is the hip op's, derived from its formula:
// a Not of i64 is refused with the operand that is wrong.

func.func @compare(%ctx: !hip.context, %a: tensor<?x3xi64> {onnx.dim_params = "0:n"}, %b: tensor<3xi64>, %m: tensor<?x3xi1> {onnx.dim_params = "0:n"}) -> (tensor<?x3xi1>, tensor<?x3xi1>) {
  %0 = "onnx.Less"(%a, %b) {onnx_node_name = "less"} : (tensor<?x3xi64>, tensor<3xi64>) -> tensor<?x3xi1>
  %1 = "onnx.And"(%0, %m) {onnx_node_name = "and"} : (tensor<?x3xi1>, tensor<?x3xi1>) -> tensor<?x3xi1>
  %2 = "onnx.Not"(%1) {onnx_node_name = "not"} : (tensor<?x3xi1>) -> tensor<?x3xi1>
  func.return %1, %2 : tensor<?x3xi1>, tensor<?x3xi1>
}
// -----
func.func @bad(%ctx: !hip.context, %a: tensor<3xi64>) -> tensor<3xi64> {
  %0 = "onnx.Not"(%a) {onnx_node_name = "not_i64"} : (tensor<3xi64>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}

// CHECK-LABEL: func.func @compare
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %a, %c0 : tensor<?x3xi64>
// CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x3xi1>
// CHECK-NEXT: %1 = hip.miopen.less(%ctx) ins(%a, %b : tensor<?x3xi64>, tensor<3xi64>) outs(%0 : tensor<?x3xi1>) -> tensor<?x3xi1>
// CHECK-NEXT: %dim_1 = tensor.dim %1, %c0 : tensor<?x3xi1>
// CHECK-NEXT: %2 = tensor.empty(%dim_1) : tensor<?x3xi1>
// CHECK-NEXT: %3 = hip.miopen.and(%ctx) ins(%1, %m : tensor<?x3xi1>, tensor<?x3xi1>) outs(%2 : tensor<?x3xi1>) -> tensor<?x3xi1>
// CHECK-NEXT: %dim_2 = tensor.dim %3, %c0 : tensor<?x3xi1>
// CHECK-NEXT: %4 = tensor.empty(%dim_2) : tensor<?x3xi1>
// CHECK-NEXT: %5 = hip.miopen.not(%ctx) ins(%3 : tensor<?x3xi1>) outs(%4 : tensor<?x3xi1>) -> tensor<?x3xi1>
// CHECK-NEXT: func.return %3, %5 : tensor<?x3xi1>, tensor<?x3xi1>
// CHECK:      convert-onnx-to-hip: 1 op(s) cannot be converted:
// CHECK-NEXT: onnx.Not (node 'not_i64'): hip.miopen.not ins operand 0 has element type i64 but must be i1
