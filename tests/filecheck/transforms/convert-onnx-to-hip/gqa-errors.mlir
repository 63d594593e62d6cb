// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// GroupQueryAttention in bfloat16, with heads that do not group, with the
// output_qk output, and com.microsoft.RotaryEmbedding of packed batches, are
// refused with the reason.

func.func @f(%ctx: !hip.context, %h: tensor<1x2x32xbf16>, %q: tensor<1x2x48xf32>, %k: tensor<1x2x32xf32>, %seqlens: tensor<1xi32>, %total: tensor<i32>, %x: tensor<1x2x32xf32>, %pos: tensor<1xi64>, %cos: tensor<8x4xf32>) -> (tensor<1x2x32xbf16>, tensor<1x2x48xf32>, tensor<1x2x32xf32>, tensor<1x4x2x2xf32>, tensor<1x2x32xf32>) {
  %0 = "onnx.GroupQueryAttention"(%h, %seqlens, %total) {num_heads = 4 : si64, kv_num_heads = 2 : si64, onnx_node_name = "half", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x2x32xbf16>, tensor<1xi32>, tensor<i32>) -> tensor<1x2x32xbf16>
  %1 = "onnx.GroupQueryAttention"(%q, %k, %k, %seqlens, %total) {num_heads = 3 : si64, kv_num_heads = 2 : si64, onnx_node_name = "groups", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x2x48xf32>, tensor<1x2x32xf32>, tensor<1x2x32xf32>, tensor<1xi32>, tensor<i32>) -> tensor<1x2x48xf32>
  %2, %3 = "onnx.GroupQueryAttention"(%x, %k, %k, %seqlens, %total) {num_heads = 4 : si64, kv_num_heads = 4 : si64, qk_output = 1 : si64, onnx_node_name = "qk", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x32xf32>, tensor<1x2x32xf32>, tensor<1x2x32xf32>, tensor<1xi32>, tensor<i32>) -> (tensor<1x2x32xf32>, tensor<1x4x2x2xf32>)
  %4 = "onnx.MsRotaryEmbedding"(%x, %pos, %cos, %cos) {is_packed_batching = 1 : si64, onnx_node_name = "rope"} : (tensor<1x2x32xf32>, tensor<1xi64>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<1x2x32xf32>
  func.return %0, %1, %2, %3, %4 : tensor<1x2x32xbf16>, tensor<1x2x48xf32>, tensor<1x2x32xf32>, tensor<1x4x2x2xf32>, tensor<1x2x32xf32>
}
// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.GroupQueryAttention (node 'half'): query has element type bf16; float32 or float16 is supported
// CHECK-NEXT:   onnx.GroupQueryAttention (node 'groups'): num_heads 3 must be a positive multiple of kv_num_heads 2
// CHECK-NEXT:   onnx.GroupQueryAttention (node 'qk'): the output_qk output (qk_output) is not supported
// CHECK-NEXT:   onnx.MsRotaryEmbedding (node 'rope'): is_packed_batching is not supported
