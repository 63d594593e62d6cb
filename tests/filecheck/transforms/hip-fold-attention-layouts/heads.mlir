// RUN: xdsl-opt %s -p hip-fold-attention-layouts | filecheck %s

// Heads split by copies, as the block's final IR has them: Q and V
// transposed (S, H) -> (H, S), K permuted to (H, D, S), the attention
// computing in place of Q, its result transposed back. Every copy goes: the
// attention reads the projections through strided views and writes the
// output through one (the output's first, so Q's buffer is no longer its
// `outs`).
// CHECK-LABEL: func.func @block
// CHECK-NOT:     hip.transpose
// CHECK-NOT:     hip.permute
// CHECK:         %[[O:.*]] = memref.reinterpret_cast %r to offset: [0], sizes: [1, 2, 4, 8], strides: [64, 8, 16, 1] : memref<1x4x2x8xf32> to memref<1x2x4x8xf32, strided<[64, 8, 16, 1]>>
// CHECK:         %[[Q:.*]] = memref.reinterpret_cast %qe to offset: [0], sizes: [1, 2, 4, 8], strides: [64, 8, 16, 1] : memref<1x4x2x8xf32> to memref<1x2x4x8xf32, strided<[64, 8, 16, 1]>>
// CHECK:         %[[K:.*]] = memref.reinterpret_cast %ke to offset: [0], sizes: [1, 2, 8, 4], strides: [64, 8, 1, 16] : memref<1x4x2x8xf32> to memref<1x2x8x4xf32, strided<[64, 8, 1, 16]>>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %ve to offset: [0], sizes: [1, 2, 4, 8], strides: [64, 8, 16, 1] : memref<1x4x2x8xf32> to memref<1x2x4x8xf32, strided<[64, 8, 16, 1]>>
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%[[Q]], %[[K]], %[[V]], %c : {{.*}}) outs(%[[O]] : memref<1x2x4x8xf32, strided<[64, 8, 16, 1]>>) {scaling = "mul"}
// CHECK-NOT:     hip.transpose
func.func @block(%ctx: !hip.context, %q: memref<1x4x16xf32>, %k: memref<1x4x16xf32>, %v: memref<1x4x16xf32>, %c: memref<f32>, %out: memref<1x4x16xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qt = memref.alloc() : memref<1x2x4x8xf32>
  %kt = memref.alloc() : memref<1x2x8x4xf32>
  %vt = memref.alloc() : memref<1x2x4x8xf32>
  %qe = memref.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  %ke = memref.expand_shape %k [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  %ve = memref.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%qe : memref<1x4x2x8xf32>) outs(%qt : memref<1x2x4x8xf32>)
  hip.permute(%ctx) ins(%ke : memref<1x4x2x8xf32>) outs(%kt : memref<1x2x8x4xf32>) {perm = array<i64: 0, 2, 3, 1>}
  hip.transpose(%ctx, %c1, %c2) ins(%ve : memref<1x4x2x8xf32>) outs(%vt : memref<1x2x4x8xf32>)
  hip.fused_attention(%ctx) ins(%qt, %kt, %vt, %c : memref<1x2x4x8xf32>, memref<1x2x8x4xf32>, memref<1x2x4x8xf32>, memref<f32>) outs(%qt : memref<1x2x4x8xf32>) {scaling = "mul"}
  %r = memref.alloc() : memref<1x4x2x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%qt : memref<1x2x4x8xf32>) outs(%r : memref<1x4x2x8xf32>)
  %rc = memref.collapse_shape %r [[0], [1], [2, 3]] : memref<1x4x2x8xf32> into memref<1x4x16xf32>
  hip.copy(%ctx) ins(%rc : memref<1x4x16xf32>) outs(%out : memref<1x4x16xf32>)
  func.return
}

// Dynamic batch and sequence: the sizes are the ones the views were made
// with, the strides index arithmetic of them.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[S:.*]] = arith.muli %[[C16]], %s : index
// CHECK:         %[[QV:.*]] = memref.reinterpret_cast %qe to offset: [0], sizes: [%b, 2, %s, 8], strides: [%[[S]], 8, 16, 1] : memref<?x?x2x8xf32> to memref<?x2x?x8xf32, strided<[?, 8, 16, 1]>>
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%[[QV]], %kt, %vt : {{.*}}) outs(%o : memref<?x2x?x8xf32>)
func.func @dynamic(%ctx: !hip.context, %q: memref<?x?x16xf32>, %kt: memref<?x2x8x?xf32>, %vt: memref<?x2x?x8xf32>, %o: memref<?x2x?x8xf32>, %b: index, %s: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qt = memref.alloc(%b, %s) : memref<?x2x?x8xf32>
  %qe = memref.expand_shape %q [[0], [1], [2, 3]] output_shape [%b, %s, 2, 8] : memref<?x?x16xf32> into memref<?x?x2x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%qe : memref<?x?x2x8xf32>) outs(%qt : memref<?x2x?x8xf32>)
  hip.fused_attention(%ctx) ins(%qt, %kt, %vt : memref<?x2x?x8xf32>, memref<?x2x8x?xf32>, memref<?x2x?x8xf32>) outs(%o : memref<?x2x?x8xf32>)
  func.return
}
