// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ai.onnx.ml ops become onnx ops xhip already runs (onnx_to_hip/ml.py).
// A tree ensemble is the GEMM formulation: X's tested columns gathered
// per tree (trees, N, nodes), each node's test (a Where picks the mode's
// comparison; NaN goes true where the node tracks it), the tests times the
// path matrix (+1 true side, -1 false side) equal to each leaf's count of
// true turns is the leaf hit, hits times the leaf weights summed over trees.
// A LinearClassifier is a Gemm, ArgMax into the labels, and the transform.

func.func @tree_regressor(%ctx: !hip.context, %x: tensor<?x3xf32>) -> tensor<?x1xf32> {
  %0 = "onnx.TreeEnsembleRegressor"(%x) <{n_targets = 1 : si64, nodes_treeids = [0 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64], nodes_nodeids = [0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64], nodes_featureids = [2 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64], nodes_modes = ["BRANCH_LEQ", "BRANCH_LT", "LEAF", "LEAF", "LEAF"], nodes_values = [5.000000e-01 : f32, -1.000000e+00 : f32, 0.000000e+00 : f32, 0.000000e+00 : f32, 0.000000e+00 : f32], nodes_truenodeids = [1 : i64, 2 : i64, 0 : i64, 0 : i64, 0 : i64], nodes_falsenodeids = [4 : i64, 3 : i64, 0 : i64, 0 : i64, 0 : i64], nodes_missing_value_tracks_true = [1 : i64, 0 : i64, 0 : i64, 0 : i64, 0 : i64], target_ids = [0 : i64, 0 : i64, 0 : i64], target_nodeids = [2 : i64, 3 : i64, 4 : i64], target_treeids = [0 : i64, 0 : i64, 0 : i64], target_weights = [1.500000e+00 : f32, -2.000000e+00 : f32, 4.000000e+00 : f32], aggregate_function = "SUM", post_transform = "NONE"}> {onnx_node_name = "tree"} : (tensor<?x3xf32>) -> tensor<?x1xf32>
  func.return %0 : tensor<?x1xf32>
}

func.func @linear_classifier(%ctx: !hip.context, %x: tensor<?x2xf32>) -> (tensor<?xi64>, tensor<?x3xf32>) {
  %0, %1 = "onnx.LinearClassifier"(%x) <{classlabels_ints = [4 : i64, 5 : i64, 6 : i64], coefficients = [1.000000e+00 : f32, 2.000000e+00 : f32, -1.000000e+00 : f32, 0.000000e+00 : f32, 5.000000e-01 : f32, 5.000000e-01 : f32], intercepts = [0.000000e+00 : f32, 1.000000e+00 : f32, -1.000000e+00 : f32], post_transform = "SOFTMAX"}> {onnx_node_name = "linear"} : (tensor<?x2xf32>) -> (tensor<?xi64>, tensor<?x3xf32>)
  func.return %0, %1 : tensor<?xi64>, tensor<?x3xf32>
}


// CHECK-LABEL: func.func @tree_regressor
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<{{\[\[}}[1.500000e+00], [-2.000000e+00], [4.000000e+00]]]> : tensor<1x3x1xf32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<{{\[\[}}[2.000000e+00, 1.000000e+00, 0.000000e+00]]]> : tensor<1x1x3xf32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<{{\[\[}}[1.000000e+00, 1.000000e+00, -1.000000e+00], [1.000000e+00, -1.000000e+00, 0.000000e+00]]]> : tensor<1x2x3xf32>
// CHECK-NEXT:  %cst_3 = arith.constant dense<{{\[\[}}[true, false]]]> : tensor<1x1x2xi1>
// CHECK-NEXT:  %cst_4 = arith.constant dense<{{\[\[}}[false, true]]]> : tensor<1x1x2xi1>
// CHECK-NEXT:  %cst_5 = arith.constant dense<{{\[\[}}[5.000000e-01, -1.000000e+00]]]> : tensor<1x1x2xf32>
// CHECK-NEXT:  %cst_6 = arith.constant dense<{{\[\[}}2, 0]]> : tensor<1x2xi64>
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x1x2xf32>
// CHECK-NEXT:  %1 = hip.gather(%ctx) ins(%x, %cst_6 : tensor<?x3xf32>, tensor<1x2xi64>) outs(%0 : tensor<?x1x2xf32>) {axis = 1 : i64} -> tensor<?x1x2xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %1, %c0 : tensor<?x1x2xf32>
// CHECK-NEXT:  %2 = tensor.empty(%dim_1) : tensor<1x?x2xf32>
// CHECK-NEXT:  %3 = hip.transpose(%ctx, %c0, %c1) ins(%1 : tensor<?x1x2xf32>) outs(%2 : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
// CHECK-NEXT:  %dim_2 = tensor.dim %3, %c1 : tensor<1x?x2xf32>
// CHECK-NEXT:  %4 = tensor.empty(%dim_2) : tensor<1x?x2xi1>
// CHECK-NEXT:  %5 = hip.miopen.less_or_equal(%ctx) ins(%3, %cst_5 : tensor<1x?x2xf32>, tensor<1x1x2xf32>) outs(%4 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_3 = tensor.dim %3, %c1 : tensor<1x?x2xf32>
// CHECK-NEXT:  %6 = tensor.empty(%dim_3) : tensor<1x?x2xi1>
// CHECK-NEXT:  %7 = hip.miopen.less(%ctx) ins(%3, %cst_5 : tensor<1x?x2xf32>, tensor<1x1x2xf32>) outs(%6 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_4 = tensor.dim %7, %c1 : tensor<1x?x2xi1>
// CHECK-NEXT:  %8 = tensor.empty(%dim_4) : tensor<1x?x2xi1>
// CHECK-NEXT:  %9 = hip.miopen.where(%ctx) ins(%cst_4, %7, %5 : tensor<1x1x2xi1>, tensor<1x?x2xi1>, tensor<1x?x2xi1>) outs(%8 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_5 = tensor.dim %3, %c1 : tensor<1x?x2xf32>
// CHECK-NEXT:  %10 = tensor.empty(%dim_5) : tensor<1x?x2xi1>
// CHECK-NEXT:  %11 = hip.miopen.isnan(%ctx) ins(%3 : tensor<1x?x2xf32>) outs(%10 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_6 = tensor.dim %11, %c1 : tensor<1x?x2xi1>
// CHECK-NEXT:  %12 = tensor.empty(%dim_6) : tensor<1x?x2xi1>
// CHECK-NEXT:  %13 = hip.miopen.and(%ctx) ins(%11, %cst_3 : tensor<1x?x2xi1>, tensor<1x1x2xi1>) outs(%12 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_7 = tensor.dim %9, %c1 : tensor<1x?x2xi1>
// CHECK-NEXT:  %14 = tensor.empty(%dim_7) : tensor<1x?x2xi1>
// CHECK-NEXT:  %15 = hip.miopen.or(%ctx) ins(%9, %13 : tensor<1x?x2xi1>, tensor<1x?x2xi1>) outs(%14 : tensor<1x?x2xi1>) -> tensor<1x?x2xi1>
// CHECK-NEXT:  %dim_8 = tensor.dim %15, %c1 : tensor<1x?x2xi1>
// CHECK-NEXT:  %16 = tensor.empty(%dim_8) : tensor<1x?x2xf32>
// CHECK-NEXT:  %17 = hip.cast(%ctx) ins(%15 : tensor<1x?x2xi1>) outs(%16 : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
// CHECK-NEXT:  %dim_9 = tensor.dim %17, %c1 : tensor<1x?x2xf32>
// CHECK-NEXT:  %18 = tensor.empty(%dim_9) : tensor<1x?x3xf32>
// CHECK-NEXT:  %19 = hip.hipblaslt.matmul(%ctx) ins(%17, %cst_2 : tensor<1x?x2xf32>, tensor<1x2x3xf32>) outs(%18 : tensor<1x?x3xf32>) -> tensor<1x?x3xf32>
// CHECK-NEXT:  %dim_10 = tensor.dim %19, %c1 : tensor<1x?x3xf32>
// CHECK-NEXT:  %20 = tensor.empty(%dim_10) : tensor<1x?x3xi1>
// CHECK-NEXT:  %21 = hip.miopen.equal(%ctx) ins(%19, %cst_1 : tensor<1x?x3xf32>, tensor<1x1x3xf32>) outs(%20 : tensor<1x?x3xi1>) -> tensor<1x?x3xi1>
// CHECK-NEXT:  %dim_11 = tensor.dim %21, %c1 : tensor<1x?x3xi1>
// CHECK-NEXT:  %22 = tensor.empty(%dim_11) : tensor<1x?x3xf32>
// CHECK-NEXT:  %23 = hip.cast(%ctx) ins(%21 : tensor<1x?x3xi1>) outs(%22 : tensor<1x?x3xf32>) -> tensor<1x?x3xf32>
// CHECK-NEXT:  %dim_12 = tensor.dim %23, %c1 : tensor<1x?x3xf32>
// CHECK-NEXT:  %24 = tensor.empty(%dim_12) : tensor<1x?x1xf32>
// CHECK-NEXT:  %25 = hip.hipblaslt.matmul(%ctx) ins(%23, %cst : tensor<1x?x3xf32>, tensor<1x3x1xf32>) outs(%24 : tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
// CHECK-NEXT:  %dim_13 = tensor.dim %25, %c1 : tensor<1x?x1xf32>
// CHECK-NEXT:  %26 = tensor.empty(%dim_13) : tensor<?x1xf32>
// CHECK-NEXT:  %27 = hip.miopen.reduce_sum(%ctx) ins(%25 : tensor<1x?x1xf32>) outs(%26 : tensor<?x1xf32>) {axes = array<i64: 0>} -> tensor<?x1xf32>
// CHECK-NEXT:  func.return %27 : tensor<?x1xf32>

// CHECK-LABEL: func.func @linear_classifier
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<[4, 5, 6]> : tensor<3xi64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[0.000000e+00, 1.000000e+00, -1.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [-1.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01]]> : tensor<3x2xf32>
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x2xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x3xf32>
// CHECK-NEXT:  %1 = hip.hipblaslt.gemm(%ctx) ins(%x, %cst_2, %cst_1 : tensor<?x2xf32>, tensor<3x2xf32>, tensor<3xf32>) outs(%0 : tensor<?x3xf32>) {trans_b} -> tensor<?x3xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %1, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %2 = tensor.empty(%dim_1) : tensor<?xi64>
// CHECK-NEXT:  %3 = hip.argmax(%ctx) ins(%1 : tensor<?x3xf32>) outs(%2 : tensor<?xi64>) {axis = 1 : i64} -> tensor<?xi64>
// CHECK-NEXT:  %dim_2 = tensor.dim %3, %c0 : tensor<?xi64>
// CHECK-NEXT:  %4 = tensor.empty(%dim_2) : tensor<?xi64>
// CHECK-NEXT:  %5 = hip.gather(%ctx) ins(%cst, %3 : tensor<3xi64>, tensor<?xi64>) outs(%4 : tensor<?xi64>) {axis = 0 : i64} -> tensor<?xi64>
// CHECK-NEXT:  %dim_3 = tensor.dim %1, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %6 = tensor.empty(%dim_3) : tensor<?x3xf32>
// CHECK-NEXT:  %7 = hip.miopen.softmax(%ctx) ins(%1 : tensor<?x3xf32>) outs(%6 : tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:  func.return %5, %7 : tensor<?xi64>, tensor<?x3xf32>
