// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// TopK's K of two elements, an Einsum diagonal of a dynamic size and an
// equation that does not fit the inputs are refused with the reason; an
// Einsum refusal names the equation.

func.func @f(%ctx: !hip.context, %x: tensor<3x4xf32>, %k: tensor<2xi64>, %s: tensor<?x?xf32>) -> (tensor<3x?xf32>, tensor<3x?xi64>, tensor<?xf32>, tensor<3x4xf32>) {
  %0, %1 = "onnx.TopK"(%x, %k) {axis = -1 : si64, largest = 1 : si64, sorted = 1 : si64, onnx_node_name = "top"} : (tensor<3x4xf32>, tensor<2xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  %2 = "onnx.Einsum"(%s) {equation = "ii->i", onnx_node_name = "diag"} : (tensor<?x?xf32>) -> tensor<?xf32>
  %3 = "onnx.Einsum"(%x) {equation = "ij,jk->ik", onnx_node_name = "terms"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0, %1, %2, %3 : tensor<3x?xf32>, tensor<3x?xi64>, tensor<?xf32>, tensor<3x4xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.TopK (node 'top'): K must have one element, got 2
// CHECK-NEXT:   onnx.Einsum (node 'diag'): equation 'ii->i': the repeated letter 'i' (a diagonal) needs a static size of at most 512
// CHECK-NEXT:   onnx.Einsum (node 'terms'): equation 'ij,jk->ik': 2 operand terms for 1 inputs
