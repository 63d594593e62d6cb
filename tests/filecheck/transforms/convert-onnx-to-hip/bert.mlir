// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ONNX Runtime's BERT ops (xhip/transforms/onnx_to_hip/bert.py).

// MultiHeadAttention with a (B, T) key padding mask: Q, K, V split into heads,
// the mask an additive bias (0 where a key is seen, mask_filter_value where
// not, greater + where), viewed (B, 1, 1, T), and onnx.Attention's pieces
// around hip.attention_softmax at the default scale 1/sqrt(4).

func.func @mha_mask(%ctx: !hip.context, %q: tensor<2x3x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %m: tensor<2x4xi32>) -> tensor<2x3x8xf32> {
  %0 = "onnx.MultiHeadAttention"(%q, %k, %v, %m) <{num_heads = 2 : si64, scale = 0.000000e+00 : f32, unidirectional = 0 : si64, mask_filter_value = -1.000000e+04 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>}> {onnx_node_name = "mha"} : (tensor<2x3x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4xi32>) -> tensor<2x3x8xf32>
  func.return %0 : tensor<2x3x8xf32>
}
// CHECK-LABEL: func.func @mha_mask
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %cst = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<-1.000000e+04> : tensor<f32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:  %0 = tensor.expand_shape %q [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 3, 2, 4] : tensor<2x3x8xf32> into tensor<2x3x2x4xf32>
// CHECK-NEXT:  %1 = tensor.empty() : tensor<2x2x3x4xf32>
// CHECK-NEXT:  %2 = hip.permute(%ctx) ins(%0 : tensor<2x3x2x4xf32>) outs(%1 : tensor<2x2x3x4xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<2x2x3x4xf32>
// CHECK-NEXT:  %3 = tensor.expand_shape %k [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<2x2x4x4xf32>
// CHECK-NEXT:  %5 = hip.permute(%ctx) ins(%3 : tensor<2x4x2x4xf32>) outs(%4 : tensor<2x2x4x4xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<2x2x4x4xf32>
// CHECK-NEXT:  %6 = tensor.expand_shape %v [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
// CHECK-NEXT:  %7 = tensor.empty() : tensor<2x2x4x4xf32>
// CHECK-NEXT:  %8 = hip.permute(%ctx) ins(%6 : tensor<2x4x2x4xf32>) outs(%7 : tensor<2x2x4x4xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<2x2x4x4xf32>
// CHECK-NEXT:  %9 = tensor.empty() : tensor<2x4xi1>
// CHECK-NEXT:  %10 = hip.miopen.greater(%ctx) ins(%m, %cst : tensor<2x4xi32>, tensor<i32>) outs(%9 : tensor<2x4xi1>) -> tensor<2x4xi1>
// CHECK-NEXT:  %11 = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:  %12 = hip.miopen.where(%ctx) ins(%10, %cst_2, %cst_1 : tensor<2x4xi1>, tensor<f32>, tensor<f32>) outs(%11 : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %13 = tensor.expand_shape %12 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [2, 1, 1, 4] : tensor<2x4xf32> into tensor<2x1x1x4xf32>
// CHECK-NEXT:  %14 = tensor.empty() : tensor<2x2x4x4xf32>
// CHECK-NEXT:  %15 = hip.transpose(%ctx, %c2, %c3) ins(%5 : tensor<2x2x4x4xf32>) outs(%14 : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:  %16 = tensor.empty() : tensor<2x2x3x4xf32>
// CHECK-NEXT:  %17 = hip.hipblaslt.matmul(%ctx) ins(%2, %15 : tensor<2x2x3x4xf32>, tensor<2x2x4x4xf32>) outs(%16 : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:  %18 = tensor.empty() : tensor<2x2x3x4xf32>
// CHECK-NEXT:  %19 = hip.attention_softmax(%ctx, %c0) ins(%17, %13 : tensor<2x2x3x4xf32>, tensor<2x1x1x4xf32>) outs(%18 : tensor<2x2x3x4xf32>) {scale = 5.000000e-01 : f64} -> tensor<2x2x3x4xf32>
// CHECK-NEXT:  %20 = tensor.empty() : tensor<2x2x3x4xf32>
// CHECK-NEXT:  %21 = hip.hipblaslt.matmul(%ctx) ins(%19, %8 : tensor<2x2x3x4xf32>, tensor<2x2x4x4xf32>) outs(%20 : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:  %22 = tensor.empty() : tensor<2x3x2x4xf32>
// CHECK-NEXT:  %23 = hip.permute(%ctx) ins(%21 : tensor<2x2x3x4xf32>) outs(%22 : tensor<2x3x2x4xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<2x3x2x4xf32>
// CHECK-NEXT:  %24 = tensor.collapse_shape %23 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x3x2x4xf32> into tensor<2x3x8xf32>
// CHECK-NEXT:  func.return %24 : tensor<2x3x8xf32>

// EmbedLayerNormalization without segments or position ids: word rows plus
// position rows 0..S-1 (a hip.range), layer_norm; mask_index counts each row's
// ones (equal, cast, reduce_sum).

func.func @embed(%ctx: !hip.context, %ids: tensor<2x3xi32>, %w: tensor<10x8xf32>, %p: tensor<6x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<2x3xi32>) -> (tensor<2x3x8xf32>, tensor<2xi32>) {
  %0, %1 = "onnx.EmbedLayerNormalization"(%ids, %w, %p, %g, %b, %m) <{epsilon = 9.999999960e-13 : f32, mask_index_type = 1 : si64, operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 1, 1, 1, 0>, resultSegmentSizes = array<i32: 1, 1, 0>}> {onnx_node_name = "emb"} : (tensor<2x3xi32>, tensor<10x8xf32>, tensor<6x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x3xi32>) -> (tensor<2x3x8xf32>, tensor<2xi32>)
  func.return %0, %1 : tensor<2x3x8xf32>, tensor<2xi32>
}
// CHECK-LABEL: func.func @embed
// CHECK-NEXT:  %cst = arith.constant dense<1> : tensor<i32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<3xi32>
// CHECK-NEXT:  %1 = hip.range(%ctx) ins(%cst_1, %cst : tensor<i32>, tensor<i32>) outs(%0 : tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:  %2 = tensor.expand_shape %1 [[0 : i64, 1 : i64]] output_shape [1, 3] : tensor<3xi32> into tensor<1x3xi32>
// CHECK-NEXT:  %3 = tensor.empty() : tensor<2x3x8xf32>
// CHECK-NEXT:  %4 = hip.gather(%ctx) ins(%w, %ids : tensor<10x8xf32>, tensor<2x3xi32>) outs(%3 : tensor<2x3x8xf32>) {axis = 0 : i64} -> tensor<2x3x8xf32>
// CHECK-NEXT:  %5 = tensor.empty() : tensor<1x3x8xf32>
// CHECK-NEXT:  %6 = hip.gather(%ctx) ins(%p, %2 : tensor<6x8xf32>, tensor<1x3xi32>) outs(%5 : tensor<1x3x8xf32>) {axis = 0 : i64} -> tensor<1x3x8xf32>
// CHECK-NEXT:  %7 = tensor.empty() : tensor<2x3x8xf32>
// CHECK-NEXT:  %8 = hip.miopen.add(%ctx) ins(%4, %6 : tensor<2x3x8xf32>, tensor<1x3x8xf32>) outs(%7 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:  %9 = tensor.empty() : tensor<2x3x8xf32>
// CHECK-NEXT:  %10 = hip.miopen.layer_norm(%ctx) ins(%8, %g, %b : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%9 : tensor<2x3x8xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32} -> tensor<2x3x8xf32>
// CHECK-NEXT:  %11 = tensor.empty() : tensor<2x3xi1>
// CHECK-NEXT:  %12 = hip.miopen.equal(%ctx) ins(%m, %cst : tensor<2x3xi32>, tensor<i32>) outs(%11 : tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:  %13 = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:  %14 = hip.cast(%ctx) ins(%12 : tensor<2x3xi1>) outs(%13 : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:  %15 = tensor.empty() : tensor<2xi32>
// CHECK-NEXT:  %16 = hip.miopen.reduce_sum(%ctx) ins(%14 : tensor<2x3xi32>) outs(%15 : tensor<2xi32>) {axes = array<i64: 1>} -> tensor<2xi32>
// CHECK-NEXT:  func.return %10, %16 : tensor<2x3x8xf32>, tensor<2xi32>
