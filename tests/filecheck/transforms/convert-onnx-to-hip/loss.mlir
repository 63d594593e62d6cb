// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: the onnx ops of their
// definition, each converted by its pattern: ignore_index by an equal and
// where (class 0 read instead), the target unsqueezed for gather_elements
// along the classes, the weights a gather; mean as the sum over the summed
// weights that count.

func.func @nll_mean_weight_ii(%ctx: !hip.context, %x: tensor<?x3x2xf32>, %t: tensor<?x2xi64>, %w: tensor<3xf32>) -> tensor<f32> {
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) {ignore_index = 1 : si64, reduction = "mean", onnx_node_name = "nll"} : (tensor<?x3x2xf32>, tensor<?x2xi64>, tensor<3xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK-LABEL: func.func @nll_mean_weight_ii
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %cst_1 = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %cst_2 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %cst_3 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %dim = tensor.dim %t, %c0 : tensor<?x2xi64>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x2xi1>
// CHECK-NEXT:    %1 = hip.miopen.equal(%ctx) ins(%t, %cst_3 : tensor<?x2xi64>, tensor<i64>) outs(%0 : tensor<?x2xi1>) -> tensor<?x2xi1>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?x2xi1>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x2xi64>
// CHECK-NEXT:    %3 = hip.miopen.where(%ctx) ins(%1, %cst_2, %t : tensor<?x2xi1>, tensor<i64>, tensor<?x2xi64>) outs(%2 : tensor<?x2xi64>) -> tensor<?x2xi64>
// CHECK-NEXT:    %dim_2 = tensor.dim %3, %c0 : tensor<?x2xi64>
// CHECK-NEXT:    %4 = tensor.expand_shape %3 [[0 : i64], [1 : i64, 2 : i64]] output_shape [%dim_2, 1, 2] : tensor<?x2xi64> into tensor<?x1x2xi64>
// CHECK-NEXT:    %dim_3 = tensor.dim %4, %c0 : tensor<?x1x2xi64>
// CHECK-NEXT:    %5 = tensor.empty(%dim_3) : tensor<?x1x2xf32>
// CHECK-NEXT:    %6 = hip.gather_elements(%ctx) ins(%x, %4 : tensor<?x3x2xf32>, tensor<?x1x2xi64>) outs(%5 : tensor<?x1x2xf32>) {axis = 1 : i64} -> tensor<?x1x2xf32>
// CHECK-NEXT:    %7 = tensor.collapse_shape %6 [[0 : i64], [1 : i64, 2 : i64]] : tensor<?x1x2xf32> into tensor<?x2xf32>
// CHECK-NEXT:    %dim_4 = tensor.dim %7, %c0 : tensor<?x2xf32>
// CHECK-NEXT:    %8 = tensor.empty(%dim_4) : tensor<?x2xf32>
// CHECK-NEXT:    %9 = hip.miopen.neg(%ctx) ins(%7 : tensor<?x2xf32>) outs(%8 : tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT:    %dim_5 = tensor.dim %3, %c0 : tensor<?x2xi64>
// CHECK-NEXT:    %10 = tensor.empty(%dim_5) : tensor<?x2xf32>
// CHECK-NEXT:    %11 = hip.gather(%ctx) ins(%w, %3 : tensor<3xf32>, tensor<?x2xi64>) outs(%10 : tensor<?x2xf32>) {axis = 0 : i64} -> tensor<?x2xf32>
// CHECK-NEXT:    %dim_6 = tensor.dim %1, %c0 : tensor<?x2xi1>
// CHECK-NEXT:    %12 = tensor.empty(%dim_6) : tensor<?x2xf32>
// CHECK-NEXT:    %13 = hip.miopen.where(%ctx) ins(%1, %cst, %11 : tensor<?x2xi1>, tensor<f32>, tensor<?x2xf32>) outs(%12 : tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT:    %dim_7 = tensor.dim %9, %c0 : tensor<?x2xf32>
// CHECK-NEXT:    %14 = tensor.empty(%dim_7) : tensor<?x2xf32>
// CHECK-NEXT:    %15 = hip.miopen.mul(%ctx) ins(%9, %13 : tensor<?x2xf32>, tensor<?x2xf32>) outs(%14 : tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT:    %16 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %17 = hip.miopen.reduce_sum(%ctx) ins(%15 : tensor<?x2xf32>) outs(%16 : tensor<f32>) {axes = array<i64: 0, 1>} -> tensor<f32>
// CHECK-NEXT:    %18 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %19 = hip.miopen.reduce_sum(%ctx) ins(%13 : tensor<?x2xf32>) outs(%18 : tensor<f32>) {axes = array<i64: 0, 1>} -> tensor<f32>
// CHECK-NEXT:    %20 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %21 = hip.miopen.div(%ctx) ins(%17, %19 : tensor<f32>, tensor<f32>) outs(%20 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    func.return %21 : tensor<f32>

func.func @nll_none(%ctx: !hip.context, %x: tensor<2x3xf32>, %t: tensor<2xi64>) -> tensor<2xf32> {
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t) {reduction = "none", onnx_node_name = "nll"} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK-LABEL: func.func @nll_none
// CHECK-NEXT:    %cst = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %0 = tensor.expand_shape %t [[0 : i64, 1 : i64]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<2x1xf32>
// CHECK-NEXT:    %2 = hip.gather_elements(%ctx) ins(%x, %0 : tensor<2x3xf32>, tensor<2x1xi64>) outs(%1 : tensor<2x1xf32>) {axis = 1 : i64} -> tensor<2x1xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %2 [[0 : i64, 1 : i64]] : tensor<2x1xf32> into tensor<2xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %5 = hip.miopen.neg(%ctx) ins(%3 : tensor<2xf32>) outs(%4 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %5 : tensor<2xf32>

func.func @sce_sum_log_prob(%ctx: !hip.context, %x: tensor<2x3xf32>, %t: tensor<2xi64>) -> (tensor<f32>, tensor<2x3xf32>) {
  %0, %1 = "onnx.SoftmaxCrossEntropyLoss"(%x, %t) {reduction = "sum", onnx_node_name = "sce"} : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<f32>, tensor<2x3xf32>)
  func.return %0, %1 : tensor<f32>, tensor<2x3xf32>
}
// CHECK-LABEL: func.func @sce_sum_log_prob
// CHECK-NEXT:    %cst = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %1 = hip.miopen.log_softmax(%ctx) ins(%x : tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {axis = 1 : i64} -> tensor<2x3xf32>
// CHECK-NEXT:    %2 = tensor.expand_shape %t [[0 : i64, 1 : i64]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
// CHECK-NEXT:    %3 = tensor.empty() : tensor<2x1xf32>
// CHECK-NEXT:    %4 = hip.gather_elements(%ctx) ins(%1, %2 : tensor<2x3xf32>, tensor<2x1xi64>) outs(%3 : tensor<2x1xf32>) {axis = 1 : i64} -> tensor<2x1xf32>
// CHECK-NEXT:    %5 = tensor.collapse_shape %4 [[0 : i64, 1 : i64]] : tensor<2x1xf32> into tensor<2xf32>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %7 = hip.miopen.neg(%ctx) ins(%5 : tensor<2xf32>) outs(%6 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %9 = hip.miopen.reduce_sum(%ctx) ins(%7 : tensor<2xf32>) outs(%8 : tensor<f32>) {axes = array<i64: 0>} -> tensor<f32>
// CHECK-NEXT:    func.return %9, %1 : tensor<f32>, tensor<2x3xf32>
