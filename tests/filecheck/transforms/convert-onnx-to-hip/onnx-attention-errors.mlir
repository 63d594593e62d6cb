// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// An integer mask, a 3-D input without its head counts, and a RotaryEmbedding
// whose rotary_embedding_dim is odd are refused with the reason.

func.func @f(%ctx: !hip.context, %q: tensor<1x2x3x4xf32>, %m: tensor<3x3xi32>, %x: tensor<1x3x8xf32>, %c: tensor<1x3x2xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) {
  %0 = "onnx.Attention"(%q, %q, %q, %m) {onnx_node_name = "int_mask", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<3x3xi32>) -> tensor<1x2x3x4xf32>
  %1 = "onnx.Attention"(%x, %x, %x) {onnx_node_name = "no_heads", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  %2 = "onnx.RotaryEmbedding"(%x, %c, %c) {num_heads = 1 : si64, rotary_embedding_dim = 5 : si64, onnx_node_name = "odd", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x8xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x3x8xf32>
  func.return %0, %1, %2 : tensor<1x2x3x4xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Attention (node 'int_mask'): attn_mask has element type i32; bool or Q's f32 is supported
// CHECK-NEXT:   onnx.Attention (node 'no_heads'): 3-D Q, K and V need a positive q_num_heads
// CHECK-NEXT:   onnx.RotaryEmbedding (node 'odd'): rotary_embedding_dim 5 must be even and at most the head size 8
