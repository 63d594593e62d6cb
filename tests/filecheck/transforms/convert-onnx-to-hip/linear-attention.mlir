// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// LinearAttention: one hip.linear_attention, the rule told by its operands
// (decay: gated, beta: delta) and the past by `with_past`; a zero scale is
// 1 / sqrt(dk) (dk = 32 / 4 = 8). B and T may be dynamic, the head dims not.

func.func @gated_delta(%ctx: !hip.context, %q: tensor<?x?x32xf32>, %k: tensor<?x?x16xf32>, %v: tensor<?x?x12xf32>, %d: tensor<?x?x2xf32>, %b: tensor<?x?x1xf32>) -> (tensor<?x?x24xf32>, tensor<?x2x8x6xf32>) {
  %0, %1 = "onnx.LinearAttention"(%q, %k, %v, %d, %b) <{kv_num_heads = 2 : si64, q_num_heads = 4 : si64, scale = 0.000000e+00 : f32, update_rule = "gated_delta", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>}> {onnx_node_name = "la"} : (tensor<?x?x32xf32>, tensor<?x?x16xf32>, tensor<?x?x12xf32>, tensor<?x?x2xf32>, tensor<?x?x1xf32>) -> (tensor<?x?x24xf32>, tensor<?x2x8x6xf32>)
  func.return %0, %1 : tensor<?x?x24xf32>, tensor<?x2x8x6xf32>
}

// CHECK-LABEL: func.func @gated_delta
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %q, %c0 : tensor<?x?x32xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %q, %c1 : tensor<?x?x32xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x24xf32>
// CHECK-NEXT:  %dim_2 = tensor.dim %q, %c0 : tensor<?x?x32xf32>
// CHECK-NEXT:  %1 = tensor.empty(%dim_2) : tensor<?x2x8x6xf32>
// CHECK-NEXT:  %2, %3 = hip.linear_attention(%ctx) ins(%q, %k, %v, %d, %b : tensor<?x?x32xf32>, tensor<?x?x16xf32>, tensor<?x?x12xf32>, tensor<?x?x2xf32>, tensor<?x?x1xf32>) outs(%0, %1 : tensor<?x?x24xf32>, tensor<?x2x8x6xf32>) {q_num_heads = 4 : i64, kv_num_heads = 2 : i64, scale = 0.35355339059327373 : f64, gated, delta} -> (tensor<?x?x24xf32>, tensor<?x2x8x6xf32>)
// CHECK-NEXT:  func.return %2, %3 : tensor<?x?x24xf32>, tensor<?x2x8x6xf32>

func.func @linear_past(%ctx: !hip.context, %q: tensor<1x3x8xf32>, %k: tensor<1x3x8xf32>, %v: tensor<1x3x4xf32>, %s: tensor<1x2x4x2xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x4x2xf32>) {
  %0, %1 = "onnx.LinearAttention"(%q, %k, %v, %s) <{kv_num_heads = 2 : si64, q_num_heads = 2 : si64, scale = 5.000000e-01 : f32, update_rule = "linear", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>}> {onnx_node_name = "la"} : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x2x4x2xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x4x2xf32>)
  func.return %0, %1 : tensor<1x3x4xf32>, tensor<1x2x4x2xf32>
}

// CHECK-LABEL: func.func @linear_past
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x3x4xf32>
// CHECK-NEXT:  %1 = tensor.empty() : tensor<1x2x4x2xf32>
// CHECK-NEXT:  %2, %3 = hip.linear_attention(%ctx) ins(%q, %k, %v, %s : tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x2x4x2xf32>) outs(%0, %1 : tensor<1x3x4xf32>, tensor<1x2x4x2xf32>) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, scale = 5.000000e-01 : f64, with_past} -> (tensor<1x3x4xf32>, tensor<1x2x4x2xf32>)
// CHECK-NEXT:  func.return %2, %3 : tensor<1x3x4xf32>, tensor<1x2x4x2xf32>
