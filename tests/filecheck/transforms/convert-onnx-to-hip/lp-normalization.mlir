// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// LpNormalization is x over its L2 (p = 2, the default) or L1 norm along the
// axis, kept as a dim of 1; a zero norm is divided as 1 (an all-zero line
// gives 0, as ONNX Runtime has it, not NaN).

func.func @lp_normalization(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?x5xf32>) {
  %0 = "onnx.LpNormalization"(%x) {axis = -1 : si64, p = 2 : si64, onnx_node_name = "l2"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %1 = "onnx.LpNormalization"(%x) {axis = 0 : si64, p = 1 : si64, onnx_node_name = "l1"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  func.return %0, %1 : tensor<?x5xf32>, tensor<?x5xf32>
}

// CHECK-LABEL: func.func @lp_normalization
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x1xf32>
// CHECK-NEXT:  %1 = hip.miopen.reduce_l2(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?x1xf32>) {axes = array<i64: 1>, keepdims} -> tensor<?x1xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %1, %c0 : tensor<?x1xf32>
// CHECK-NEXT:  %2 = tensor.empty(%dim_1) : tensor<?x1xi1>
// CHECK-NEXT:  %3 = hip.miopen.equal(%ctx) ins(%1, %cst_1 : tensor<?x1xf32>, tensor<f32>) outs(%2 : tensor<?x1xi1>) -> tensor<?x1xi1>
// CHECK-NEXT:  %dim_2 = tensor.dim %3, %c0 : tensor<?x1xi1>
// CHECK-NEXT:  %4 = tensor.empty(%dim_2) : tensor<?x1xf32>
// CHECK-NEXT:  %5 = hip.miopen.where(%ctx) ins(%3, %cst, %1 : tensor<?x1xi1>, tensor<f32>, tensor<?x1xf32>) outs(%4 : tensor<?x1xf32>) -> tensor<?x1xf32>
// CHECK-NEXT:  %dim_3 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:  %6 = tensor.empty(%dim_3) : tensor<?x5xf32>
// CHECK-NEXT:  %7 = hip.miopen.div(%ctx) ins(%x, %5 : tensor<?x5xf32>, tensor<?x1xf32>) outs(%6 : tensor<?x5xf32>) -> tensor<?x5xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<1x5xf32>
// CHECK-NEXT:  %9 = hip.miopen.reduce_l1(%ctx) ins(%x : tensor<?x5xf32>) outs(%8 : tensor<1x5xf32>) {axes = array<i64: 0>, keepdims} -> tensor<1x5xf32>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<1x5xi1>
// CHECK-NEXT:  %11 = hip.miopen.equal(%ctx) ins(%9, %cst_1 : tensor<1x5xf32>, tensor<f32>) outs(%10 : tensor<1x5xi1>) -> tensor<1x5xi1>
// CHECK-NEXT:  %12 = tensor.empty() : tensor<1x5xf32>
// CHECK-NEXT:  %13 = hip.miopen.where(%ctx) ins(%11, %cst, %9 : tensor<1x5xi1>, tensor<f32>, tensor<1x5xf32>) outs(%12 : tensor<1x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:  %dim_4 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:  %14 = tensor.empty(%dim_4) : tensor<?x5xf32>
// CHECK-NEXT:  %15 = hip.miopen.div(%ctx) ins(%x, %13 : tensor<?x5xf32>, tensor<1x5xf32>) outs(%14 : tensor<?x5xf32>) -> tensor<?x5xf32>
// CHECK-NEXT:  func.return %7, %15 : tensor<?x5xf32>, tensor<?x5xf32>
