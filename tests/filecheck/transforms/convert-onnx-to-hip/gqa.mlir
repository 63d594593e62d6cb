// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Packed QKV with rotary, a KV cache and a local window of 3: Q, K, V cut
// out with hip.slice; the first prompt is S == total_sequence_length (read
// back: a graph input here); the positions and lengths of the step rotate Q
// and K and place K and V in the present cache, max(total, past) long; the
// attention is onnx.Attention's, causal with the lengths as nonpad and a
// left window of 2 (ORT's window counts the query's own key).

func.func @gqa_packed_rotary(%ctx: !hip.context, %qkv: tensor<?x?x64xf32>, %pk: tensor<?x2x?x8xf32>, %pv: tensor<?x2x?x8xf32>, %seqlens: tensor<?xi32>, %total: tensor<i32>, %cos: tensor<32x4xf32>, %sin: tensor<32x4xf32>) -> (tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %0, %1, %2 = "onnx.GroupQueryAttention"(%qkv, %pk, %pv, %seqlens, %total, %cos, %sin) {num_heads = 4 : si64, kv_num_heads = 2 : si64, do_rotary = 1 : si64, local_window_size = 3 : si64, onnx_node_name = "gqa", operandSegmentSizes = array<i32: 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<?x?x64xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?xi32>, tensor<i32>, tensor<32x4xf32>, tensor<32x4xf32>) -> (tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>)
  func.return %0, %1, %2 : tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}
// CHECK-LABEL: func.func @gqa_packed_rotary
// CHECK:       %1 = hip.slice(%ctx, %c0, %c0, %c0) ins(%qkv : tensor<?x?x64xf32>) outs(%0 : tensor<?x?x32xf32>)
// CHECK:       %3 = hip.slice(%ctx, %c0, %c0, %c32) ins(%qkv : tensor<?x?x64xf32>) outs(%2 : tensor<?x?x16xf32>)
// CHECK:       %5 = hip.slice(%ctx, %c0, %c0, %c48) ins(%qkv : tensor<?x?x64xf32>) outs(%4 : tensor<?x?x16xf32>)
// CHECK-NEXT:  %6 = hip.readback(%ctx) %total : tensor<i32> -> index
// CHECK-NEXT:  %7 = arith.cmpi eq, %dim_1, %6 : index
// CHECK-NEXT:  %8 = arith.select %7, %c1, %c0 : index
// CHECK:       %11, %12 = hip.gqa_positions(%ctx, %8) ins(%seqlens : tensor<?xi32>) outs(%9, %10 : tensor<?x?xi64>, tensor<?xi64>) -> (tensor<?x?xi64>, tensor<?xi64>)
// CHECK:       %14 = hip.rotary_embedding(%ctx) ins(%1, %cos, %sin, %11 : tensor<?x?x32xf32>, tensor<32x4xf32>, tensor<32x4xf32>, tensor<?x?xi64>) outs(%13 : tensor<?x?x32xf32>) {rotary_dim = 8 : i64, num_heads = 4 : i64} -> tensor<?x?x32xf32>
// CHECK:       %16 = hip.rotary_embedding(%ctx) ins(%3, %cos, %sin, %11 : tensor<?x?x16xf32>, tensor<32x4xf32>, tensor<32x4xf32>, tensor<?x?xi64>) outs(%15 : tensor<?x?x16xf32>) {rotary_dim = 8 : i64, num_heads = 2 : i64} -> tensor<?x?x16xf32>
// CHECK-NEXT:  %dim_12 = tensor.dim %pk, %c2 : tensor<?x2x?x8xf32>
// CHECK-NEXT:  %17 = arith.maxsi %6, %dim_12 : index
// CHECK-NEXT:  %18 = tensor.empty(%dim, %17) : tensor<?x2x?x8xf32>
// CHECK-NEXT:  %19 = tensor.expand_shape %16 {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_1, 2, 8] : tensor<?x?x16xf32> into tensor<?x?x2x8xf32>
// CHECK-NEXT:  %20 = hip.kv_cache_update(%ctx) ins(%19, %12, %pk : tensor<?x?x2x8xf32>, tensor<?xi64>, tensor<?x2x?x8xf32>) outs(%18 : tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
// CHECK:       %23 = hip.kv_cache_update(%ctx) ins(%22, %12, %pv : tensor<?x?x2x8xf32>, tensor<?xi64>, tensor<?x2x?x8xf32>) outs(%21 : tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
// CHECK:       %26 = hip.permute(%ctx) ins(%24 : tensor<?x?x4x8xf32>) outs(%25 : tensor<?x4x?x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x4x?x8xf32>
// CHECK:       %28 = hip.transpose(%ctx, %c2, %c3) ins(%20 : tensor<?x2x?x8xf32>) outs(%27 : tensor<?x2x8x?xf32>) -> tensor<?x2x8x?xf32>
// CHECK:       %32 = hip.hipblaslt.matmul(%ctx) ins(%30, %28 : tensor<?x2x?x8xf32>, tensor<?x2x8x?xf32>) outs(%31 : tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
// CHECK:       %36 = hip.attention_softmax(%ctx, %c0) ins(%34, %12 : tensor<?x4x?x?xf32>, tensor<?xi64>) outs(%35 : tensor<?x4x?x?xf32>) {scale = 0.35355338454246521 : f64, is_causal, left_window = 2 : i64} -> tensor<?x4x?x?xf32>
// CHECK:       %40 = hip.hipblaslt.matmul(%ctx) ins(%38, %23 : tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) outs(%39 : tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
// CHECK:       %44 = hip.permute(%ctx) ins(%42 : tensor<?x4x?x8xf32>) outs(%43 : tensor<?x?x4x8xf32>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<?x?x4x8xf32>
// CHECK-NEXT:  %45 = tensor.collapse_shape %44 {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x?x4x8xf32> into tensor<?x?x32xf32>
// CHECK-NEXT:  func.return %45, %20, %23 : tensor<?x?x32xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>

// A head sink over one KV head, no past, total a constant (first = 1, no
// readback): the scores up to their bias (stage 2), a column of the sink
// per head after them, the library softmax, the column cut off.

func.func @gqa_sink(%ctx: !hip.context, %q: tensor<1x3x16xf32>, %k: tensor<1x3x8xf32>, %v: tensor<1x3x8xf32>, %seqlens: tensor<1xi32>, %sink: tensor<2xf32>) -> tensor<1x3x16xf32> {
  %total = "onnx.Constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %0 = "onnx.GroupQueryAttention"(%q, %k, %v, %seqlens, %total, %sink) {num_heads = 2 : si64, kv_num_heads = 1 : si64, smooth_softmax = 1 : si64, onnx_node_name = "gqa", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1xi32>, tensor<i32>, tensor<2xf32>) -> tensor<1x3x16xf32>
  func.return %0 : tensor<1x3x16xf32>
}
// CHECK-LABEL: func.func @gqa_sink
// CHECK-NOT:   hip.readback
// CHECK:       %2, %3 = hip.gqa_positions(%ctx, %c1) ins(%seqlens : tensor<1xi32>) outs(%0, %1 : tensor<1x3xi64>, tensor<1xi64>) -> (tensor<1x3xi64>, tensor<1xi64>)
// CHECK:       %6 = hip.kv_cache_update(%ctx) ins(%5, %3 : tensor<1x3x1x8xf32>, tensor<1xi64>) outs(%4 : tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
// CHECK:       %16 = hip.hipblaslt.matmul(%ctx) ins(%12, %14 : tensor<1x2x3x8xf32>, tensor<1x1x8x3xf32>) outs(%15 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK:       %18 = hip.attention_softmax(%ctx, %c0) ins(%16, %3 : tensor<1x2x3x3xf32>, tensor<1xi64>) outs(%17 : tensor<1x2x3x3xf32>) {scale = 0.35355338454246521 : f64, is_causal, stage = 2 : i64} -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  %19 = tensor.expand_shape %sink {{\[\[}}0 : i64, 1 : i64, 2 : i64]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
// CHECK:       %21 = hip.expand(%ctx) ins(%19 : tensor<2x1x1xf32>) outs(%20 : tensor<1x2x3x1xf32>) -> tensor<1x2x3x1xf32>
// CHECK:       %23 = hip.concat(%ctx) ins(%18, %21 : tensor<1x2x3x3xf32>, tensor<1x2x3x1xf32>) outs(%22 : tensor<1x2x3x4xf32>) {axis = 3 : i64} -> tensor<1x2x3x4xf32>
// CHECK:       %25 = hip.miopen.softmax(%ctx) ins(%23 : tensor<1x2x3x4xf32>) outs(%24 : tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK:       %27 = hip.slice(%ctx, %c0, %c0, %c0, %c0) ins(%25 : tensor<1x2x3x4xf32>) outs(%26 : tensor<1x2x3x3xf32>) {steps = array<i64: 1, 1, 1, 1>} -> tensor<1x2x3x3xf32>
// CHECK:       %29 = hip.hipblaslt.matmul(%ctx) ins(%27, %9 : tensor<1x2x3x3xf32>, tensor<1x1x3x8xf32>) outs(%28 : tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>

// com.microsoft.RotaryEmbedding, interleaved, 3-D with num_heads: one
// hip.rotary_embedding at the given position ids.

func.func @ms_rotary(%ctx: !hip.context, %x: tensor<?x?x32xf32>, %ids: tensor<?x?xi64>, %cos: tensor<16x4xf32>, %sin: tensor<16x4xf32>) -> tensor<?x?x32xf32> {
  %0 = "onnx.MsRotaryEmbedding"(%x, %ids, %cos, %sin) {interleaved = 1 : si64, num_heads = 4 : si64, onnx_node_name = "rope"} : (tensor<?x?x32xf32>, tensor<?x?xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<?x?x32xf32>
  func.return %0 : tensor<?x?x32xf32>
}
// CHECK-LABEL: func.func @ms_rotary
// CHECK:       %1 = hip.rotary_embedding(%ctx) ins(%x, %cos, %sin, %ids : tensor<?x?x32xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x?xi64>) outs(%0 : tensor<?x?x32xf32>) {interleaved, rotary_dim = 8 : i64, num_heads = 4 : i64} -> tensor<?x?x32xf32>
// CHECK-NEXT:  func.return %1 : tensor<?x?x32xf32>

// The first-position form (position_ids (1,)), 4-D: positions first[0] + s
// made by hip.range over the sequence, expanded over the batch.

func.func @ms_rotary_first(%ctx: !hip.context, %x: tensor<?x4x?x8xf32>, %first: tensor<1xi64>, %cos: tensor<16x4xf32>, %sin: tensor<16x4xf32>) -> tensor<?x4x?x8xf32> {
  %0 = "onnx.MsRotaryEmbedding"(%x, %first, %cos, %sin) {onnx_node_name = "rope"} : (tensor<?x4x?x8xf32>, tensor<1xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<?x4x?x8xf32>
  func.return %0 : tensor<?x4x?x8xf32>
}
// CHECK-LABEL: func.func @ms_rotary_first
// CHECK:       %0 = tensor.collapse_shape %first [] : tensor<1xi64> into tensor<i64>
// CHECK-NEXT:  %1 = tensor.empty(%dim_1) : tensor<?xi64>
// CHECK-NEXT:  %2 = hip.range(%ctx) ins(%0, %cst : tensor<i64>, tensor<i64>) outs(%1 : tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %3 = tensor.expand_shape %2 {{\[\[}}0 : i64, 1 : i64]] output_shape [1, %dim_1] : tensor<?xi64> into tensor<1x?xi64>
// CHECK-NEXT:  %4 = tensor.empty(%dim, %dim_1) : tensor<?x?xi64>
// CHECK-NEXT:  %5 = hip.expand(%ctx) ins(%3 : tensor<1x?xi64>) outs(%4 : tensor<?x?xi64>) -> tensor<?x?xi64>
// CHECK:       %7 = hip.rotary_embedding(%ctx) ins(%x, %cos, %sin, %5 : tensor<?x4x?x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x?xi64>) outs(%6 : tensor<?x4x?x8xf32>) {rotary_dim = 8 : i64} -> tensor<?x4x?x8xf32>

// A hidden size known only at run time, no num_heads: heads of the caches'
// 2 * 4 = 8, as many as it holds; (B, S, H * 8) seen as (B * S, H, 1, 8),
// the positions as (B * S, 1), so the 4-D form rotates each head.

func.func @ms_rotary_dynamic_hidden(%ctx: !hip.context, %x: tensor<?x?x?xf32>, %ids: tensor<?x?xi64>, %cos: tensor<16x4xf32>, %sin: tensor<16x4xf32>) -> tensor<?x?x?xf32> {
  %0 = "onnx.MsRotaryEmbedding"(%x, %ids, %cos, %sin) {onnx_node_name = "rope"} : (tensor<?x?x?xf32>, tensor<?x?xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}
// CHECK-LABEL: func.func @ms_rotary_dynamic_hidden
// CHECK:       %0 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64], [2 : i64]] : tensor<?x?x?xf32> into tensor<?x?xf32>
// CHECK:       %1 = arith.divsi %dim_1, %c8 : index
// CHECK-NEXT:  %2 = tensor.expand_shape %0 {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %1, 1, 8] : tensor<?x?xf32> into tensor<?x?x1x8xf32>
// CHECK-NEXT:  %3 = tensor.collapse_shape %ids {{\[\[}}0 : i64, 1 : i64]] : tensor<?x?xi64> into tensor<?xi64>
// CHECK-NEXT:  %4 = tensor.expand_shape %3 {{\[\[}}0 : i64, 1 : i64]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
// CHECK:       %6 = hip.rotary_embedding(%ctx) ins(%2, %cos, %sin, %4 : tensor<?x?x1x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x1xi64>) outs(%5 : tensor<?x?x1x8xf32>) {rotary_dim = 8 : i64} -> tensor<?x?x1x8xf32>
// CHECK-NEXT:  %7 = tensor.collapse_shape %6 {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<?x?x1x8xf32> into tensor<?x?xf32>
// CHECK:       %8 = tensor.expand_shape %7 {{\[\[}}0 : i64, 1 : i64], [2 : i64]] output_shape [%dim_4, %dim_5, %dim_6] : tensor<?x?xf32> into tensor<?x?x?xf32>
// CHECK-NEXT:  func.return %8 : tensor<?x?x?xf32>

// The same with num_heads (and a partial rotary_embedding_dim): the 3-D
// form, the head size hidden / num_heads at run time.

func.func @ms_rotary_dynamic_hidden_heads(%ctx: !hip.context, %x: tensor<?x?x?xf32>, %ids: tensor<?x?xi64>, %cos: tensor<16x4xf32>, %sin: tensor<16x4xf32>) -> tensor<?x?x?xf32> {
  %0 = "onnx.MsRotaryEmbedding"(%x, %ids, %cos, %sin) {num_heads = 2 : si64, rotary_embedding_dim = 8 : si64, onnx_node_name = "rope"} : (tensor<?x?x?xf32>, tensor<?x?xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}
// CHECK-LABEL: func.func @ms_rotary_dynamic_hidden_heads
// CHECK:       %1 = hip.rotary_embedding(%ctx) ins(%x, %cos, %sin, %ids : tensor<?x?x?xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x?xi64>) outs(%0 : tensor<?x?x?xf32>) {rotary_dim = 8 : i64, num_heads = 2 : i64} -> tensor<?x?x?xf32>
// CHECK-NEXT:  func.return %1 : tensor<?x?x?xf32>
