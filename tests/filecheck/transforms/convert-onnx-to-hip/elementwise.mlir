// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Add/Sub/Mul/Div broadcast as numpy does; a dynamic result dim is sized from
// an operand whose dim is dynamic there, never from a broadcast size-1 dim.

func.func @binary(%ctx: !hip.context, %a: tensor<?x1xf32>, %b: tensor<1x?xf32>, %s: tensor<f32>) -> tensor<?x?xf32> {
  %0 = "onnx.Add"(%a, %b) {onnx_node_name = "add"} : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.Sub"(%s, %0) {onnx_node_name = "sub"} : (tensor<f32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "onnx.Mul"(%1, %1) {onnx_node_name = "mul"} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = "onnx.Div"(%2, %s) {onnx_node_name = "div"} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %3 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @binary
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x1xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %b, %c1 : tensor<1x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xf32>
// CHECK-NEXT:    %1 = hip.miopen.add(%ctx) ins(%a, %b : tensor<?x1xf32>, tensor<1x?xf32>) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %1, %c0 : tensor<?x?xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %1, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2, %dim_3) : tensor<?x?xf32>
// CHECK-NEXT:    %3 = hip.miopen.sub(%ctx) ins(%s, %1 : tensor<f32>, tensor<?x?xf32>) outs(%2 : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         %5 = hip.miopen.mul(%ctx) ins(%3, %3 : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK:         %7 = hip.miopen.div(%ctx) ins(%5, %s : tensor<?x?xf32>, tensor<f32>)
// CHECK-NEXT:    func.return %7 : tensor<?x?xf32>
