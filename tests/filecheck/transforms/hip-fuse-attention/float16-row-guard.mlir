// RUN: xdsl-opt %s -p hip-fuse-attention | filecheck %s

// ONNX's Attention function in float16 (the node suite's
// test_attention_4d_causal_fp16_expanded): the scores, a (4, 6) causal mask
// added, the softmax, then the fully masked rows zeroed by
// where(max(mask, -1) == -inf, 0, p), the comparand a cast of a -inf global (float64 here: xDSL parses no
// float32 -inf literal).
// float16 fuses (computed in float32, rounded once at the end); the row guard
// becomes the NaN guard; the reduce_max and equal stay (dead, side-effect free
// to the fused op).
// CHECK-LABEL: func.func @onnx_attention
// CHECK-NOT:     hip.miopen.softmax
// CHECK:         hip.miopen.reduce_max
// CHECK:         hip.miopen.equal
// CHECK:         hip.cast(%ctx) ins(%zero32 : memref<1xf32>) outs(%bound : memref<1xf16>)
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%q, %kt, %v, %mask, %bound : memref<2x3x4x8xf16>, memref<2x3x8x6xf16>, memref<2x3x6x8xf16>, memref<4x6xf16>, memref<1xf16>) outs(%o : memref<2x3x4x8xf16>) {nan_fill}
// CHECK-NEXT:    func.return
builtin.module {
  memref.global "private" constant @ninf : memref<1xf64> = dense<-1.0e+309>
  memref.global "private" constant @zero : memref<1xf32> = dense<0.000000e+00>
  func.func @onnx_attention(%ctx: !hip.context, %q: memref<2x3x4x8xf16>, %kt: memref<2x3x8x6xf16>, %v: memref<2x3x6x8xf16>, %mask: memref<4x6xf16>, %o: memref<2x3x4x8xf16>) {
    %ninf64 = memref.get_global @ninf : memref<1xf64>
    %zero32 = memref.get_global @zero : memref<1xf32>
    %bound = memref.alloc() : memref<1xf16>
    %s = memref.alloc() : memref<2x3x4x6xf16>
    %a = memref.alloc() : memref<2x3x4x6xf16>
    %r = memref.alloc() : memref<4x1xf16>
    %e = memref.alloc() : memref<4x1xi1>
    hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<2x3x4x8xf16>, memref<2x3x8x6xf16>) outs(%s : memref<2x3x4x6xf16>)
    hip.miopen.add(%ctx) ins(%s, %mask : memref<2x3x4x6xf16>, memref<4x6xf16>) outs(%a : memref<2x3x4x6xf16>)
    hip.miopen.softmax(%ctx) ins(%a : memref<2x3x4x6xf16>) outs(%s : memref<2x3x4x6xf16>)
    hip.miopen.reduce_max(%ctx) ins(%mask : memref<4x6xf16>) outs(%r : memref<4x1xf16>) {axes = array<i64: 1>, keepdims}
    hip.cast(%ctx) ins(%ninf64 : memref<1xf64>) outs(%bound : memref<1xf16>)
    hip.miopen.equal(%ctx) ins(%r, %bound : memref<4x1xf16>, memref<1xf16>) outs(%e : memref<4x1xi1>)
    hip.cast(%ctx) ins(%zero32 : memref<1xf32>) outs(%bound : memref<1xf16>)
    hip.miopen.where(%ctx) ins(%e, %bound, %s : memref<4x1xi1>, memref<1xf16>, memref<2x3x4x6xf16>) outs(%a : memref<2x3x4x6xf16>)
    hip.hipblaslt.matmul(%ctx) ins(%a, %v : memref<2x3x4x6xf16>, memref<2x3x6x8xf16>) outs(%o : memref<2x3x4x8xf16>)
    func.return
  }
}
