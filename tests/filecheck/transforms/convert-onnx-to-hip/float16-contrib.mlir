// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// float16 contrib ops (xhip/transforms/onnx_to_hip/widen.py, gqa.py): ORT's
// CPU EP computes them in float32 and rounds once; so does xhip.

// float16 QuickGelu as ORT's CPU EP computes it: ORT inlines the op's
// function, whose alpha is a float16 constant (0.6 -> 0.60009765625), and
// runs it in float32 between casts; one rounding at the end.

func.func @quick_gelu_f16(%ctx: !hip.context, %x: tensor<2x16xf16>) -> tensor<2x16xf16> {
  %0 = "onnx.QuickGelu"(%x) <{alpha = 6.000000e-01 : f32}> {onnx_node_name = "q"} : (tensor<2x16xf16>) -> tensor<2x16xf16>
  func.return %0 : tensor<2x16xf16>
}
// CHECK-LABEL: func.func @quick_gelu_f16
// CHECK:       %0 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %1 = hip.cast(%ctx) ins(%x : tensor<2x16xf16>) outs(%0 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %3 = hip.miopen.swish(%ctx) ins(%1 : tensor<2x16xf32>) outs(%2 : tensor<2x16xf32>) {alpha = 0.60009765625 : f64} -> tensor<2x16xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<2x16xf16>
// CHECK-NEXT:  %5 = hip.cast(%ctx) ins(%3 : tensor<2x16xf32>) outs(%4 : tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-NEXT:  func.return %5 : tensor<2x16xf16>

// float16 SkipSimplifiedLayerNormalization: every float16 operand cast to
// float32, the sum and the RMS norm in float32, each float16 result (the
// output and the sum) rounded once, as ORT's float16 kernel does.

func.func @skip_simplified_f16(%ctx: !hip.context, %x: tensor<2x16xf16>, %s: tensor<2x16xf16>, %g: tensor<16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>) {
  %0, %1 = "onnx.SkipSimplifiedLayerNormalization"(%x, %s, %g) <{epsilon = 1.000000e-05 : f32, resultSegmentSizes = array<i32: 1, 0, 0, 1>}> {onnx_node_name = "ssln"} : (tensor<2x16xf16>, tensor<2x16xf16>, tensor<16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  func.return %0, %1 : tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: func.func @skip_simplified_f16
// CHECK:       %0 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %1 = hip.cast(%ctx) ins(%x : tensor<2x16xf16>) outs(%0 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %3 = hip.cast(%ctx) ins(%s : tensor<2x16xf16>) outs(%2 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<16xf32>
// CHECK-NEXT:  %5 = hip.cast(%ctx) ins(%g : tensor<16xf16>) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %7 = hip.miopen.add(%ctx) ins(%1, %3 : tensor<2x16xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT:  %9 = hip.rms_norm(%ctx) ins(%7, %5 : tensor<2x16xf32>, tensor<16xf32>) outs(%8 : tensor<2x16xf32>) {axis = 1 : i64, epsilon = 1.000000e-05 : f32} -> tensor<2x16xf32>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<2x16xf16>
// CHECK-NEXT:  %11 = hip.cast(%ctx) ins(%9 : tensor<2x16xf32>) outs(%10 : tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-NEXT:  %12 = tensor.empty() : tensor<2x16xf16>
// CHECK-NEXT:  %13 = hip.cast(%ctx) ins(%7 : tensor<2x16xf32>) outs(%12 : tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-NEXT:  func.return %11, %13 : tensor<2x16xf16>, tensor<2x16xf16>

// float16 GroupQueryAttention as ORT's float16 kernel computes it: the rotary
// and the KV cache in float16 (the present cache holds float16), then Q and
// the present K and V cast to float32, the attention in float32 and Y cast
// back to float16 once.

func.func @gqa_rotary_f16(%ctx: !hip.context, %q: tensor<1x3x16xf16>, %k: tensor<1x3x8xf16>, %v: tensor<1x3x8xf16>, %seqlens: tensor<1xi32>, %cos: tensor<8x4xf16>, %sin: tensor<8x4xf16>) -> tensor<1x3x16xf16> {
  %total = "onnx.Constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %0 = "onnx.GroupQueryAttention"(%q, %k, %v, %seqlens, %total, %cos, %sin) {num_heads = 2 : si64, kv_num_heads = 1 : si64, do_rotary = 1 : si64, onnx_node_name = "gqa", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<1x3x16xf16>, tensor<1x3x8xf16>, tensor<1x3x8xf16>, tensor<1xi32>, tensor<i32>, tensor<8x4xf16>, tensor<8x4xf16>) -> tensor<1x3x16xf16>
  func.return %0 : tensor<1x3x16xf16>
}
// CHECK-LABEL: func.func @gqa_rotary_f16
// CHECK:       %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %cst = arith.constant dense<3> : tensor<i32>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x3xi64>
// CHECK-NEXT:  %1 = tensor.empty() : tensor<1xi64>
// CHECK-NEXT:  %2, %3 = hip.gqa_positions(%ctx, %c1) ins(%seqlens : tensor<1xi32>) outs(%0, %1 : tensor<1x3xi64>, tensor<1xi64>) -> (tensor<1x3xi64>, tensor<1xi64>)
// CHECK-NEXT:  %4 = tensor.empty() : tensor<1x3x16xf16>
// CHECK-NEXT:  %5 = hip.rotary_embedding(%ctx) ins(%q, %cos, %sin, %2 : tensor<1x3x16xf16>, tensor<8x4xf16>, tensor<8x4xf16>, tensor<1x3xi64>) outs(%4 : tensor<1x3x16xf16>) {rotary_dim = 8 : i64, num_heads = 2 : i64} -> tensor<1x3x16xf16>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<1x3x8xf16>
// CHECK-NEXT:  %7 = hip.rotary_embedding(%ctx) ins(%k, %cos, %sin, %2 : tensor<1x3x8xf16>, tensor<8x4xf16>, tensor<8x4xf16>, tensor<1x3xi64>) outs(%6 : tensor<1x3x8xf16>) {rotary_dim = 8 : i64, num_heads = 1 : i64} -> tensor<1x3x8xf16>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<1x1x3x8xf16>
// CHECK-NEXT:  %9 = tensor.expand_shape %7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 3, 1, 8] : tensor<1x3x8xf16> into tensor<1x3x1x8xf16>
// CHECK-NEXT:  %10 = hip.kv_cache_update(%ctx) ins(%9, %3 : tensor<1x3x1x8xf16>, tensor<1xi64>) outs(%8 : tensor<1x1x3x8xf16>) -> tensor<1x1x3x8xf16>
// CHECK-NEXT:  %11 = tensor.empty() : tensor<1x1x3x8xf16>
// CHECK-NEXT:  %12 = tensor.expand_shape %v [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 3, 1, 8] : tensor<1x3x8xf16> into tensor<1x3x1x8xf16>
// CHECK-NEXT:  %13 = hip.kv_cache_update(%ctx) ins(%12, %3 : tensor<1x3x1x8xf16>, tensor<1xi64>) outs(%11 : tensor<1x1x3x8xf16>) -> tensor<1x1x3x8xf16>
// CHECK-NEXT:  %14 = tensor.expand_shape %5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 3, 2, 8] : tensor<1x3x16xf16> into tensor<1x3x2x8xf16>
// CHECK-NEXT:  %15 = tensor.empty() : tensor<1x2x3x8xf16>
// CHECK-NEXT:  %16 = hip.permute(%ctx) ins(%14 : tensor<1x3x2x8xf16>) outs(%15 : tensor<1x2x3x8xf16>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<1x2x3x8xf16>
// CHECK-NEXT:  %17 = tensor.empty() : tensor<1x2x3x8xf32>
// CHECK-NEXT:  %18 = hip.cast(%ctx) ins(%16 : tensor<1x2x3x8xf16>) outs(%17 : tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
// CHECK-NEXT:  %19 = tensor.empty() : tensor<1x1x3x8xf32>
// CHECK-NEXT:  %20 = hip.cast(%ctx) ins(%10 : tensor<1x1x3x8xf16>) outs(%19 : tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
// CHECK-NEXT:  %21 = tensor.empty() : tensor<1x1x3x8xf32>
// CHECK-NEXT:  %22 = hip.cast(%ctx) ins(%13 : tensor<1x1x3x8xf16>) outs(%21 : tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
// CHECK-NEXT:  %23 = tensor.empty() : tensor<1x1x8x3xf32>
// CHECK-NEXT:  %24 = hip.transpose(%ctx, %c2, %c3) ins(%20 : tensor<1x1x3x8xf32>) outs(%23 : tensor<1x1x8x3xf32>) -> tensor<1x1x8x3xf32>
// CHECK-NEXT:  %25 = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %26 = hip.hipblaslt.matmul(%ctx) ins(%18, %24 : tensor<1x2x3x8xf32>, tensor<1x1x8x3xf32>) outs(%25 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  %27 = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %28 = hip.attention_softmax(%ctx, %c0) ins(%26, %3 : tensor<1x2x3x3xf32>, tensor<1xi64>) outs(%27 : tensor<1x2x3x3xf32>) {scale = 0.35355338454246521 : f64, is_causal} -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  %29 = tensor.empty() : tensor<1x2x3x8xf32>
// CHECK-NEXT:  %30 = hip.hipblaslt.matmul(%ctx) ins(%28, %22 : tensor<1x2x3x3xf32>, tensor<1x1x3x8xf32>) outs(%29 : tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
// CHECK-NEXT:  %31 = tensor.empty() : tensor<1x2x3x8xf16>
// CHECK-NEXT:  %32 = hip.cast(%ctx) ins(%30 : tensor<1x2x3x8xf32>) outs(%31 : tensor<1x2x3x8xf16>) -> tensor<1x2x3x8xf16>
// CHECK-NEXT:  %33 = tensor.empty() : tensor<1x3x2x8xf16>
// CHECK-NEXT:  %34 = hip.permute(%ctx) ins(%32 : tensor<1x2x3x8xf16>) outs(%33 : tensor<1x3x2x8xf16>) {perm = array<i64: 0, 2, 1, 3>} -> tensor<1x3x2x8xf16>
// CHECK-NEXT:  %35 = tensor.collapse_shape %34 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x3x2x8xf16> into tensor<1x3x16xf16>
// CHECK-NEXT:  func.return %35 : tensor<1x3x16xf16>
