// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// EyeLike: ones (`hip.fill`) kept on the k-th diagonal by an upper and then
// a lower `hip.trilu` at k, in the result's element type and the input's
// shape.

func.func @eye_like(%ctx: !hip.context, %x: tensor<?x4xf32>) -> tensor<?x4xi32> {
  %0 = "onnx.EyeLike"(%x) {dtype = 6 : si64, k = 1 : si64, onnx_node_name = "eye"} : (tensor<?x4xf32>) -> tensor<?x4xi32>
  func.return %0 : tensor<?x4xi32>
}

// CHECK-LABEL: func.func @eye_like
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x4xi32>
// CHECK-NEXT:  %1 = hip.fill(%ctx) ins() outs(%0 : tensor<?x4xi32>) {value = 1 : i64} -> tensor<?x4xi32>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:  %2 = tensor.empty(%dim_1) : tensor<?x4xi32>
// CHECK-NEXT:  %3 = hip.trilu(%ctx, %c1) ins(%1 : tensor<?x4xi32>) outs(%2 : tensor<?x4xi32>) {upper} -> tensor<?x4xi32>
// CHECK-NEXT:  %dim_2 = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:  %4 = tensor.empty(%dim_2) : tensor<?x4xi32>
// CHECK-NEXT:  %5 = hip.trilu(%ctx, %c1) ins(%3 : tensor<?x4xi32>) outs(%4 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:  func.return %5 : tensor<?x4xi32>
