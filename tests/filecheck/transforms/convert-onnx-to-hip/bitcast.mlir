// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// BitCast is `hip.bitcast` into an init of the input's shape and the result's
// element type (of the same width); to the input's own type it is the input.

func.func @bitcast(%ctx: !hip.context, %x: tensor<?x4xf32>, %b: tensor<3xi1>) -> (tensor<?x4xi32>, tensor<?x4xf32>, tensor<3xui8>) {
  %0 = "onnx.BitCast"(%x) {to = 6 : si64, onnx_node_name = "f32_to_i32"} : (tensor<?x4xf32>) -> tensor<?x4xi32>
  %1 = "onnx.BitCast"(%x) {to = 1 : si64, onnx_node_name = "same"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.BitCast"(%b) {to = 2 : si64, onnx_node_name = "bool_to_u8"} : (tensor<3xi1>) -> tensor<3xui8>
  func.return %0, %1, %2 : tensor<?x4xi32>, tensor<?x4xf32>, tensor<3xui8>
}

// CHECK-LABEL: func.func @bitcast
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x4xi32>
// CHECK-NEXT:  %1 = hip.bitcast(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<3xui8>
// CHECK-NEXT:  %3 = hip.bitcast(%ctx) ins(%b : tensor<3xi1>) outs(%2 : tensor<3xui8>) -> tensor<3xui8>
// CHECK-NEXT:  func.return %1, %x, %3 : tensor<?x4xi32>, tensor<?x4xf32>, tensor<3xui8>
