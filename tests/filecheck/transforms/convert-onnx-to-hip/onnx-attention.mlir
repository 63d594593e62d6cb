// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// No mask, causal or softcap: K transposed, one matmul, the library softmax
// with the default scale 1/sqrt(8) folded in, the matmul with V.

func.func @attention_plain(%ctx: !hip.context, %q: tensor<2x4x3x8xf32>, %k: tensor<2x4x5x8xf32>, %v: tensor<2x4x5x6xf32>) -> tensor<2x4x3x6xf32> {
  %0 = "onnx.Attention"(%q, %k, %v) {is_causal = 0 : si64, qk_matmul_output_mode = 0 : si64, softcap = 0.000000e+00 : f32, onnx_node_name = "attn", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<2x4x3x8xf32>, tensor<2x4x5x8xf32>, tensor<2x4x5x6xf32>) -> tensor<2x4x3x6xf32>
  func.return %0 : tensor<2x4x3x6xf32>
}
// CHECK-LABEL: func.func @attention_plain
// CHECK-NEXT:  %cst = arith.constant dense<0.353553385> : tensor<f32>
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x4x8x5xf32>
// CHECK-NEXT:  %1 = hip.transpose(%ctx, %c2, %c3) ins(%k : tensor<2x4x5x8xf32>) outs(%0 : tensor<2x4x8x5xf32>) -> tensor<2x4x8x5xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x4x3x5xf32>
// CHECK-NEXT:  %3 = hip.hipblaslt.matmul(%ctx) ins(%q, %1 : tensor<2x4x3x8xf32>, tensor<2x4x8x5xf32>) outs(%2 : tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<2x4x3x5xf32>
// CHECK-NEXT:  %5 = hip.miopen.softmax(%ctx) ins(%3, %cst : tensor<2x4x3x5xf32>, tensor<f32>) outs(%4 : tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<2x4x3x6xf32>
// CHECK-NEXT:  %7 = hip.hipblaslt.matmul(%ctx) ins(%5, %v : tensor<2x4x3x5xf32>, tensor<2x4x5x6xf32>) outs(%6 : tensor<2x4x3x6xf32>) -> tensor<2x4x3x6xf32>
// CHECK-NEXT:  func.return %7 : tensor<2x4x3x6xf32>

// 3-D, 4 query heads over 2 KV heads, causal, with a KV cache: heads split
// by a view and a permute, the cache concatenated (present_key/value), Q
// seen as (B, 2, 2 * S, 8) for one matmul per KV head, the cached keys the
// causal offset of hip.attention_softmax, Y back to 3-D.

func.func @attention_gqa_causal_past(%ctx: !hip.context, %q: tensor<?x?x32xf32>, %k: tensor<?x?x16xf32>, %v: tensor<?x?x16xf32>, %pk: tensor<?x2x?x8xf32>, %pv: tensor<?x2x?x8xf32>) -> (tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %0, %1, %2 = "onnx.Attention"(%q, %k, %v, %pk, %pv) {is_causal = 1 : si64, q_num_heads = 4 : si64, kv_num_heads = 2 : si64, qk_matmul_output_mode = 0 : si64, softcap = 0.000000e+00 : f32, onnx_node_name = "attn", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>, resultSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<?x?x32xf32>, tensor<?x?x16xf32>, tensor<?x?x16xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> (tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>)
  func.return %0, %1, %2 : tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}
// CHECK-LABEL: func.func @attention_gqa_causal_past
// CHECK:       %0 = tensor.expand_shape %q [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_1, 4, 8] : tensor<?x?x32xf32> into tensor<?x?x4x8xf32>
// CHECK:       %2 = hip.permute(%ctx) ins(%0 : tensor<?x?x4x8xf32>) outs(%1 : tensor<?x4x?x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x4x?x8xf32>
// CHECK:       %3 = tensor.expand_shape %k [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_4, %dim_5, 2, 8] : tensor<?x?x16xf32> into tensor<?x?x2x8xf32>
// CHECK:       %5 = hip.permute(%ctx) ins(%3 : tensor<?x?x2x8xf32>) outs(%4 : tensor<?x2x?x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x2x?x8xf32>
// CHECK:       %6 = tensor.expand_shape %v [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_8, %dim_9, 2, 8] : tensor<?x?x16xf32> into tensor<?x?x2x8xf32>
// CHECK:       %8 = hip.permute(%ctx) ins(%6 : tensor<?x?x2x8xf32>) outs(%7 : tensor<?x2x?x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x2x?x8xf32>
// CHECK:       %11 = hip.concat(%ctx) ins(%pk, %5 : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) outs(%10 : tensor<?x2x?x8xf32>) {axis = 2 : i64} -> tensor<?x2x?x8xf32>
// CHECK:       %14 = hip.concat(%ctx) ins(%pv, %8 : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) outs(%13 : tensor<?x2x?x8xf32>) {axis = 2 : i64} -> tensor<?x2x?x8xf32>
// CHECK:       %16 = hip.transpose(%ctx, %c2, %c3) ins(%11 : tensor<?x2x?x8xf32>) outs(%15 : tensor<?x2x8x?xf32>) -> tensor<?x2x8x?xf32>
// CHECK:       %17 = tensor.expand_shape %2 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] output_shape [%dim_22, 2, 2, %dim_23, 8] : tensor<?x4x?x8xf32> into tensor<?x2x2x?x8xf32>
// CHECK:       %18 = tensor.collapse_shape %17 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] : tensor<?x2x2x?x8xf32> into tensor<?x2x?x8xf32>
// CHECK:       %20 = hip.hipblaslt.matmul(%ctx) ins(%18, %16 : tensor<?x2x?x8xf32>, tensor<?x2x8x?xf32>) outs(%19 : tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
// CHECK:       %21 = tensor.expand_shape %20 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim_26, 2, 2, %dim_21, %dim_27] : tensor<?x2x?x?xf32> into tensor<?x2x2x?x?xf32>
// CHECK:       %22 = tensor.collapse_shape %21 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<?x2x2x?x?xf32> into tensor<?x4x?x?xf32>
// CHECK:       %24 = hip.attention_softmax(%ctx, %dim_12) ins(%22 : tensor<?x4x?x?xf32>) outs(%23 : tensor<?x4x?x?xf32>) {scale = 0.35355339059327373 : f64, is_causal} -> tensor<?x4x?x?xf32>
// CHECK:       %25 = tensor.expand_shape %24 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] output_shape [%dim_28, 2, 2, %dim_29, %dim_30] : tensor<?x4x?x?xf32> into tensor<?x2x2x?x?xf32>
// CHECK:       %26 = tensor.collapse_shape %25 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] : tensor<?x2x2x?x?xf32> into tensor<?x2x?x?xf32>
// CHECK:       %28 = hip.hipblaslt.matmul(%ctx) ins(%26, %14 : tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) outs(%27 : tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
// CHECK:       %29 = tensor.expand_shape %28 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim_33, 2, 2, %dim_21, 8] : tensor<?x2x?x8xf32> into tensor<?x2x2x?x8xf32>
// CHECK:       %30 = tensor.collapse_shape %29 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<?x2x2x?x8xf32> into tensor<?x4x?x8xf32>
// CHECK:       %32 = hip.permute(%ctx) ins(%30 : tensor<?x4x?x8xf32>) outs(%31 : tensor<?x?x4x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x?x4x8xf32>
// CHECK:       %33 = tensor.collapse_shape %32 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x?x4x8xf32> into tensor<?x?x32xf32>
// CHECK:       func.return %33, %11, %14 : tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>

// A bool mask, softcap and qk_matmul_output mode 1: one attention_softmax
// for the probabilities, one that stops after the softcap (stage 1).

func.func @attention_mask_softcap_qk(%ctx: !hip.context, %q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>, %m: tensor<3x3xi1>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>) {
  %0, %1 = "onnx.Attention"(%q, %k, %v, %m) {is_causal = 0 : si64, scale = 5.000000e-01 : f32, qk_matmul_output_mode = 1 : si64, softcap = 3.000000e+00 : f32, onnx_node_name = "attn", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<3x3xi1>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>)
  func.return %0, %1 : tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @attention_mask_softcap_qk
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x2x4x3xf32>
// CHECK-NEXT:  %1 = hip.transpose(%ctx, %c2, %c3) ins(%k : tensor<1x2x3x4xf32>) outs(%0 : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %3 = hip.hipblaslt.matmul(%ctx) ins(%q, %1 : tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) outs(%2 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %5 = hip.attention_softmax(%ctx, %c0) ins(%3, %m : tensor<1x2x3x3xf32>, tensor<3x3xi1>) outs(%4 : tensor<1x2x3x3xf32>) {scale = 5.000000e-01 : f64, softcap = 3.000000e+00 : f64} -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<1x2x3x4xf32>
// CHECK-NEXT:  %7 = hip.hipblaslt.matmul(%ctx) ins(%5, %v : tensor<1x2x3x3xf32>, tensor<1x2x3x4xf32>) outs(%6 : tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %9 = hip.attention_softmax(%ctx, %c0) ins(%3, %m : tensor<1x2x3x3xf32>, tensor<3x3xi1>) outs(%8 : tensor<1x2x3x3xf32>) {scale = 5.000000e-01 : f64, softcap = 3.000000e+00 : f64, stage = 1 : i64} -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  func.return %7, %9 : tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>

// RotaryEmbedding, 3-D with num_heads, interleaved, partial, position ids.

func.func @rotary(%ctx: !hip.context, %x: tensor<?x?x12xf32>, %cos: tensor<16x2xf32>, %sin: tensor<16x2xf32>, %pos: tensor<?x?xi64>) -> tensor<?x?x12xf32> {
  %0 = "onnx.RotaryEmbedding"(%x, %cos, %sin, %pos) {interleaved = 1 : si64, num_heads = 3 : si64, rotary_embedding_dim = 4 : si64, onnx_node_name = "rope", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x?x12xf32>, tensor<16x2xf32>, tensor<16x2xf32>, tensor<?x?xi64>) -> tensor<?x?x12xf32>
  func.return %0 : tensor<?x?x12xf32>
}
// CHECK-LABEL: func.func @rotary
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x?x12xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c1 : tensor<?x?x12xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x12xf32>
// CHECK-NEXT:  %1 = hip.rotary_embedding(%ctx) ins(%x, %cos, %sin, %pos : tensor<?x?x12xf32>, tensor<16x2xf32>, tensor<16x2xf32>, tensor<?x?xi64>) outs(%0 : tensor<?x?x12xf32>) {interleaved, rotary_dim = 4 : i64, num_heads = 3 : i64} -> tensor<?x?x12xf32>
// CHECK-NEXT:  func.return %1 : tensor<?x?x12xf32>
