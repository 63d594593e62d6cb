// RUN: xdsl-opt %s -p hip-fold-attention-bias | filecheck %s
// RUN: xdsl-opt %s -p hip-fold-attention-bias | filecheck %s --check-prefix=NONE

// Each of these keeps its add.
// NONE-NOT: biased

// The biased values are read by another op too.
// CHECK-LABEL: func.func @read_elsewhere
// CHECK:         hip.miopen.add
func.func @read_elsewhere(%ctx: !hip.context, %y: memref<4x8xf32>, %b: memref<8xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>, %w: memref<4x8xf32>) {
  %z = memref.alloc() : memref<4x8xf32>
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<8xf32>) outs(%z : memref<4x8xf32>)
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  hip.copy(%ctx) ins(%z : memref<4x8xf32>) outs(%w : memref<4x8xf32>)
  func.return
}

// float16: the add rounds to float16, the fused op would add in float32.
// CHECK-LABEL: func.func @half
// CHECK:         hip.miopen.add
func.func @half(%ctx: !hip.context, %y: memref<4x8xf16>, %b: memref<8xf16>, %k: memref<8x4xf16>, %v: memref<4x8xf16>, %o: memref<4x8xf16>) {
  %z = memref.alloc() : memref<4x8xf16>
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf16>, memref<8xf16>) outs(%z : memref<4x8xf16>)
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf16>, memref<8x4xf16>, memref<4x8xf16>) outs(%o : memref<4x8xf16>)
  func.return
}

// A bias along the rows, not the last dim.
// CHECK-LABEL: func.func @row_bias
// CHECK:         hip.miopen.add
func.func @row_bias(%ctx: !hip.context, %y: memref<4x8xf32>, %b: memref<4x1xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %z = memref.alloc() : memref<4x8xf32>
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<4x1xf32>) outs(%z : memref<4x8xf32>)
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}

// The product is overwritten before the attention, and its writer reads the
// add's buffer: neither read in place nor retargeted.
// CHECK-LABEL: func.func @writer_reads_the_target
// CHECK:         hip.miopen.add
func.func @writer_reads_the_target(%ctx: !hip.context, %x: memref<4x8xf32>, %wq: memref<8x8xf32>, %b: memref<8xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %y = memref.alloc() : memref<4x8xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %wq : memref<4x8xf32>, memref<8x8xf32>) outs(%y : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<8xf32>) outs(%x : memref<4x8xf32>)
  hip.miopen.relu(%ctx) ins(%v : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  hip.fused_attention(%ctx) ins(%x, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}

// The bias's buffer holds the next bias by the time the attention reads
// (a pool view the memory plan reuses, as for MultiHeadAttention's packed
// bias sliced three times): the attention would add the wrong one.
// CHECK-LABEL: func.func @bias_overwritten
// CHECK:         hip.miopen.add
func.func @bias_overwritten(%ctx: !hip.context, %y: memref<4x8xf32>, %qkv: memref<16xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %b = memref.alloc() : memref<8xf32>
  %z = memref.alloc() : memref<4x8xf32>
  hip.slice(%ctx, %c0) ins(%qkv : memref<16xf32>) outs(%b : memref<8xf32>) {steps = array<i64: 1>}
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<8xf32>) outs(%z : memref<4x8xf32>)
  hip.slice(%ctx, %c8) ins(%qkv : memref<16xf32>) outs(%b : memref<8xf32>) {steps = array<i64: 1>}
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}

// The same through a view of the bias: written through the alias.
// CHECK-LABEL: func.func @bias_written_through_a_view
// CHECK:         hip.miopen.add
func.func @bias_written_through_a_view(%ctx: !hip.context, %y: memref<4x8xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>, %w: memref<1x8xf32>) {
  %b = memref.alloc() : memref<8xf32>
  %z = memref.alloc() : memref<4x8xf32>
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<8xf32>) outs(%z : memref<4x8xf32>)
  %b2 = memref.expand_shape %b [[0, 1]] output_shape [1, 8] : memref<8xf32> into memref<1x8xf32>
  hip.copy(%ctx) ins(%w : memref<1x8xf32>) outs(%b2 : memref<1x8xf32>)
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}
