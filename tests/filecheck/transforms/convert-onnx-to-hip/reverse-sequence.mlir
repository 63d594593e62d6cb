// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ReverseSequence is a GatherElements along the time axis at
// `t < len[b] ? len[b] - 1 - t : t`: t a constant over the (static) time
// dim, the lengths reshaped onto the batch axis, the index expanded to the
// input's shape.

func.func @reverse_sequence(%ctx: !hip.context, %x: tensor<4x?x3xf32>, %lens: tensor<?xi64>) -> tensor<4x?x3xf32> {
  %0 = "onnx.ReverseSequence"(%x, %lens) {batch_axis = 1 : si64, time_axis = 0 : si64, onnx_node_name = "rev"} : (tensor<4x?x3xf32>, tensor<?xi64>) -> tensor<4x?x3xf32>
  func.return %0 : tensor<4x?x3xf32>
}

// CHECK-LABEL: func.func @reverse_sequence
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c4 = arith.constant 4 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[1, -1, 1]> : tensor<3xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[[[0]], [[1]], [[2]], [[3]]]> : tensor<4x1x1xi64>
// CHECK-NEXT:  %dim = tensor.dim %lens, %c0 : tensor<?xi64>
// CHECK-NEXT:  %0 = tensor.expand_shape %lens [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, %dim, 1] : tensor<?xi64> into tensor<1x?x1xi64>
// CHECK-NEXT:  %dim_1 = tensor.dim %0, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %1 = tensor.empty(%dim_1) : tensor<4x?x1xi1>
// CHECK-NEXT:  %2 = hip.miopen.less(%ctx) ins(%cst_2, %0 : tensor<4x1x1xi64>, tensor<1x?x1xi64>) outs(%1 : tensor<4x?x1xi1>) -> tensor<4x?x1xi1>
// CHECK-NEXT:  %dim_2 = tensor.dim %0, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %3 = tensor.empty(%dim_2) : tensor<1x?x1xi64>
// CHECK-NEXT:  %4 = hip.miopen.sub(%ctx) ins(%0, %cst : tensor<1x?x1xi64>, tensor<i64>) outs(%3 : tensor<1x?x1xi64>) -> tensor<1x?x1xi64>
// CHECK-NEXT:  %dim_3 = tensor.dim %4, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %5 = tensor.empty(%dim_3) : tensor<4x?x1xi64>
// CHECK-NEXT:  %6 = hip.miopen.sub(%ctx) ins(%4, %cst_2 : tensor<1x?x1xi64>, tensor<4x1x1xi64>) outs(%5 : tensor<4x?x1xi64>) -> tensor<4x?x1xi64>
// CHECK-NEXT:  %dim_4 = tensor.dim %2, %c1 : tensor<4x?x1xi1>
// CHECK-NEXT:  %7 = tensor.empty(%dim_4) : tensor<4x?x1xi64>
// CHECK-NEXT:  %8 = hip.miopen.where(%ctx) ins(%2, %6, %cst_2 : tensor<4x?x1xi1>, tensor<4x?x1xi64>, tensor<4x1x1xi64>) outs(%7 : tensor<4x?x1xi64>) -> tensor<4x?x1xi64>
// CHECK-NEXT:  %dim_5 = tensor.dim %x, %c1 : tensor<4x?x3xf32>
// CHECK-NEXT:  %9 = tensor.empty() : tensor<3xi64>
// CHECK-NEXT:  %10 = hip.from_elements(%ctx, %c4, %dim_5, %c3) ins() outs(%9 : tensor<3xi64>) -> tensor<3xi64>
// CHECK-NEXT:  %11, %12, %13 = hip.readback(%ctx) %10 : tensor<3xi64> -> index, index, index
// CHECK-NEXT:  %dim_6 = tensor.dim %8, %c1 : tensor<4x?x1xi64>
// CHECK-NEXT:  %14 = arith.cmpi eq, %dim_6, %c1 : index
// CHECK-NEXT:  %15 = arith.select %14, %12, %dim_6 : index
// CHECK-NEXT:  %16 = tensor.empty(%15) : tensor<4x?x3xi64>
// CHECK-NEXT:  %17 = hip.expand(%ctx) ins(%8 : tensor<4x?x1xi64>) outs(%16 : tensor<4x?x3xi64>) -> tensor<4x?x3xi64>
// CHECK-NEXT:  %dim_7 = tensor.dim %17, %c1 : tensor<4x?x3xi64>
// CHECK-NEXT:  %18 = tensor.empty(%dim_7) : tensor<4x?x3xf32>
// CHECK-NEXT:  %19 = hip.gather_elements(%ctx) ins(%x, %17 : tensor<4x?x3xf32>, tensor<4x?x3xi64>) outs(%18 : tensor<4x?x3xf32>) {axis = 0 : i64} -> tensor<4x?x3xf32>
// CHECK-NEXT:  func.return %19 : tensor<4x?x3xf32>
