// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ReverseSequence is a GatherElements along the time axis at
// `t < len[b] ? len[b] - 1 - t : t`: t a constant over a static time dim,
// the lengths reshaped onto the batch axis, the index expanded to the
// input's shape (its run-time dims as index values: nothing read back).

func.func @reverse_sequence(%ctx: !hip.context, %x: tensor<4x?x3xf32>, %lens: tensor<?xi64>) -> tensor<4x?x3xf32> {
  %0 = "onnx.ReverseSequence"(%x, %lens) {batch_axis = 1 : si64, time_axis = 0 : si64, onnx_node_name = "rev"} : (tensor<4x?x3xf32>, tensor<?xi64>) -> tensor<4x?x3xf32>
  func.return %0 : tensor<4x?x3xf32>
}

// CHECK-LABEL: func.func @reverse_sequence
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c4 = arith.constant 4 : index
// CHECK-NEXT:  %cst = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[1, -1, 1]> : tensor<3xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[[[0]], [[1]], [[2]], [[3]]]> : tensor<4x1x1xi64>
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c1 : tensor<4x?x3xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %lens, %c0 : tensor<?xi64>
// CHECK-NEXT:  %0 = tensor.expand_shape %lens [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, %dim_1, 1] : tensor<?xi64> into tensor<1x?x1xi64>
// CHECK-NEXT:  %dim_2 = tensor.dim %0, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %1 = tensor.empty(%dim_2) : tensor<4x?x1xi1>
// CHECK-NEXT:  %2 = hip.miopen.less(%ctx) ins(%cst_2, %0 : tensor<4x1x1xi64>, tensor<1x?x1xi64>) outs(%1 : tensor<4x?x1xi1>) -> tensor<4x?x1xi1>
// CHECK-NEXT:  %dim_3 = tensor.dim %0, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %3 = tensor.empty(%dim_3) : tensor<1x?x1xi64>
// CHECK-NEXT:  %4 = hip.miopen.sub(%ctx) ins(%0, %cst : tensor<1x?x1xi64>, tensor<i64>) outs(%3 : tensor<1x?x1xi64>) -> tensor<1x?x1xi64>
// CHECK-NEXT:  %dim_4 = tensor.dim %4, %c1 : tensor<1x?x1xi64>
// CHECK-NEXT:  %5 = tensor.empty(%dim_4) : tensor<4x?x1xi64>
// CHECK-NEXT:  %6 = hip.miopen.sub(%ctx) ins(%4, %cst_2 : tensor<1x?x1xi64>, tensor<4x1x1xi64>) outs(%5 : tensor<4x?x1xi64>) -> tensor<4x?x1xi64>
// CHECK-NEXT:  %dim_5 = tensor.dim %2, %c1 : tensor<4x?x1xi1>
// CHECK-NEXT:  %7 = tensor.empty(%dim_5) : tensor<4x?x1xi64>
// CHECK-NEXT:  %8 = hip.miopen.where(%ctx) ins(%2, %6, %cst_2 : tensor<4x?x1xi1>, tensor<4x?x1xi64>, tensor<4x1x1xi64>) outs(%7 : tensor<4x?x1xi64>) -> tensor<4x?x1xi64>
// CHECK-NEXT:  %dim_6 = tensor.dim %8, %c1 : tensor<4x?x1xi64>
// CHECK-NEXT:  %9 = arith.cmpi eq, %dim_6, %c1 : index
// CHECK-NEXT:  %10 = arith.select %9, %dim, %dim_6 : index
// CHECK-NEXT:  %11 = tensor.empty(%10) : tensor<4x?x3xi64>
// CHECK-NEXT:  %12 = hip.expand(%ctx) ins(%8 : tensor<4x?x1xi64>) outs(%11 : tensor<4x?x3xi64>) -> tensor<4x?x3xi64>
// CHECK-NEXT:  %dim_7 = tensor.dim %12, %c1 : tensor<4x?x3xi64>
// CHECK-NEXT:  %13 = tensor.empty(%dim_7) : tensor<4x?x3xf32>
// CHECK-NEXT:  %14 = hip.gather_elements(%ctx) ins(%x, %12 : tensor<4x?x3xf32>, tensor<4x?x3xi64>) outs(%13 : tensor<4x?x3xf32>) {axis = 0 : i64} -> tensor<4x?x3xf32>
// CHECK-NEXT:  func.return %14 : tensor<4x?x3xf32>

// A time dim known only at run time: t is a `hip.range` over it.

func.func @reverse_sequence_run_time(%ctx: !hip.context, %x: tensor<?x2x3xf32>, %lens: tensor<2xi64>) -> tensor<?x2x3xf32> {
  %0 = "onnx.ReverseSequence"(%x, %lens) {batch_axis = 1 : si64, time_axis = 0 : si64, onnx_node_name = "rev"} : (tensor<?x2x3xf32>, tensor<2xi64>) -> tensor<?x2x3xf32>
  func.return %0 : tensor<?x2x3xf32>
}

// CHECK-LABEL: func.func @reverse_sequence_run_time
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %cst = arith.constant dense<[1, -1, 1]> : tensor<3xi64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[-1, 1, 1]> : tensor<3xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x2x3xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?xi64>
// CHECK-NEXT:  %1 = hip.range(%ctx) ins(%cst_3, %cst_2 : tensor<i64>, tensor<i64>) outs(%0 : tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %dim_1 = tensor.dim %1, %c0 : tensor<?xi64>
// CHECK-NEXT:  %2 = tensor.expand_shape %1 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, 1, 1] : tensor<?xi64> into tensor<?x1x1xi64>
// CHECK-NEXT:  %3 = tensor.expand_shape %lens [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 2, 1] : tensor<2xi64> into tensor<1x2x1xi64>
// CHECK-NEXT:  %dim_2 = tensor.dim %2, %c0 : tensor<?x1x1xi64>
// CHECK-NEXT:  %4 = tensor.empty(%dim_2) : tensor<?x2x1xi1>
// CHECK-NEXT:  %5 = hip.miopen.less(%ctx) ins(%2, %3 : tensor<?x1x1xi64>, tensor<1x2x1xi64>) outs(%4 : tensor<?x2x1xi1>) -> tensor<?x2x1xi1>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<1x2x1xi64>
// CHECK-NEXT:  %7 = hip.miopen.sub(%ctx) ins(%3, %cst_2 : tensor<1x2x1xi64>, tensor<i64>) outs(%6 : tensor<1x2x1xi64>) -> tensor<1x2x1xi64>
// CHECK-NEXT:  %dim_3 = tensor.dim %2, %c0 : tensor<?x1x1xi64>
// CHECK-NEXT:  %8 = tensor.empty(%dim_3) : tensor<?x2x1xi64>
// CHECK-NEXT:  %9 = hip.miopen.sub(%ctx) ins(%7, %2 : tensor<1x2x1xi64>, tensor<?x1x1xi64>) outs(%8 : tensor<?x2x1xi64>) -> tensor<?x2x1xi64>
// CHECK-NEXT:  %dim_4 = tensor.dim %5, %c0 : tensor<?x2x1xi1>
// CHECK-NEXT:  %10 = tensor.empty(%dim_4) : tensor<?x2x1xi64>
// CHECK-NEXT:  %11 = hip.miopen.where(%ctx) ins(%5, %9, %2 : tensor<?x2x1xi1>, tensor<?x2x1xi64>, tensor<?x1x1xi64>) outs(%10 : tensor<?x2x1xi64>) -> tensor<?x2x1xi64>
// CHECK-NEXT:  %dim_5 = tensor.dim %11, %c0 : tensor<?x2x1xi64>
// CHECK-NEXT:  %12 = arith.maxsi %dim_5, %dim : index
// CHECK-NEXT:  %13 = tensor.empty(%12) : tensor<?x2x3xi64>
// CHECK-NEXT:  %14 = hip.expand(%ctx) ins(%11 : tensor<?x2x1xi64>) outs(%13 : tensor<?x2x3xi64>) -> tensor<?x2x3xi64>
// CHECK-NEXT:  %dim_6 = tensor.dim %14, %c0 : tensor<?x2x3xi64>
// CHECK-NEXT:  %15 = tensor.empty(%dim_6) : tensor<?x2x3xf32>
// CHECK-NEXT:  %16 = hip.gather_elements(%ctx) ins(%x, %14 : tensor<?x2x3xf32>, tensor<?x2x3xi64>) outs(%15 : tensor<?x2x3xf32>) {axis = 0 : i64} -> tensor<?x2x3xf32>
// CHECK-NEXT:  func.return %16 : tensor<?x2x3xf32>
