// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Where: a bool condition and two values of one element type (f16 here), all
// three broadcast; each dynamic result dim comes from an operand that has it.

func.func @where(%ctx: !hip.context, %c: tensor<?x1xi1>, %x: tensor<1x?xf16>, %y: tensor<f16>) -> tensor<?x?xf16> {
  %0 = "onnx.Where"(%c, %x, %y) {onnx_node_name = "where"} : (tensor<?x1xi1>, tensor<1x?xf16>, tensor<f16>) -> tensor<?x?xf16>
  func.return %0 : tensor<?x?xf16>
}

// CHECK-LABEL: func.func @where
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %c, %c0 : tensor<?x1xi1>
// CHECK-NEXT: %dim_1 = tensor.dim %x, %c1 : tensor<1x?xf16>
// CHECK-NEXT: %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xf16>
// CHECK-NEXT: %1 = hip.miopen.where(%ctx) ins(%c, %x, %y : tensor<?x1xi1>, tensor<1x?xf16>, tensor<f16>) outs(%0 : tensor<?x?xf16>) -> tensor<?x?xf16>
// CHECK-NEXT: func.return %1 : tensor<?x?xf16>
