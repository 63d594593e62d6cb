// RUN: xdsl-opt %s -p hip-fold-attention-bias | filecheck %s

// The Q, K, V projections' bias adds, as the block's final IR has them (Q's
// and K's products share a buffer, V's add writes over the input). Q's and
// K's matmuls write the add's buffer instead (theirs is overwritten before
// the attention reads), V's product is read where it is; each bias becomes a
// view broadcast over the operand, heads and features as the copy permutes
// them.
// CHECK-LABEL: func.func @projections
// CHECK:         hip.hipblaslt.matmul(%ctx) ins(%x, %wq : {{.*}}) outs(%zq : memref<1x4x16xf32>)
// CHECK-NEXT:    hip.hipblaslt.matmul(%ctx) ins(%x, %wk : {{.*}}) outs(%zk : memref<1x4x16xf32>)
// CHECK-NEXT:    hip.hipblaslt.matmul(%ctx) ins(%x, %wv : {{.*}}) outs(%y : memref<1x4x16xf32>)
// CHECK-NOT:     hip.miopen.add
// CHECK:         hip.transpose(%ctx, %c1, %c2) ins(%qe : memref<1x4x2x8xf32>)
// CHECK:         hip.permute(%ctx) ins(%ke : memref<1x4x2x8xf32>)
// CHECK-NOT:     memref.expand_shape %zv
// CHECK:         %[[VE:.*]] = memref.expand_shape %y {{.*}} into memref<1x4x2x8xf32>
// CHECK-NEXT:    hip.transpose(%ctx, %c1, %c2) ins(%[[VE]] : memref<1x4x2x8xf32>) outs(%vt : memref<1x2x4x8xf32>)
// CHECK:         %[[QB:.*]] = memref.reinterpret_cast %bq to offset: [0], sizes: [1, 2, 1, 8], strides: [0, 8, 0, 1] : memref<16xf32> to memref<1x2x1x8xf32, strided<[0, 8, 0, 1]>>
// CHECK:         %[[KB:.*]] = memref.reinterpret_cast %bk to offset: [0], sizes: [1, 2, 8, 1], strides: [0, 8, 1, 0] : memref<16xf32> to memref<1x2x8x1xf32, strided<[0, 8, 1, 0]>>
// CHECK:         %[[VB:.*]] = memref.reinterpret_cast %bv to offset: [0], sizes: [1, 2, 1, 8], strides: [0, 8, 0, 1] : memref<16xf32> to memref<1x2x1x8xf32, strided<[0, 8, 0, 1]>>
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%qt, %kt, %vt, %c, %[[QB]], %[[KB]], %[[VB]] : {{.*}}) outs(%o : memref<1x2x4x8xf32>) {scaling = "mul", biased = "qkv"}
func.func @projections(%ctx: !hip.context, %x: memref<1x4x16xf32>, %wq: memref<16x16xf32>, %wk: memref<16x16xf32>, %wv: memref<16x16xf32>, %bq: memref<16xf32>, %bk: memref<16xf32>, %bv: memref<16xf32>, %c: memref<f32>, %o: memref<1x2x4x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = memref.alloc() : memref<1x4x16xf32>
  %zq = memref.alloc() : memref<1x4x16xf32>
  %zk = memref.alloc() : memref<1x4x16xf32>
  %zv = memref.alloc() : memref<1x4x16xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %wq : memref<1x4x16xf32>, memref<16x16xf32>) outs(%y : memref<1x4x16xf32>)
  hip.miopen.add(%ctx) ins(%y, %bq : memref<1x4x16xf32>, memref<16xf32>) outs(%zq : memref<1x4x16xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%x, %wk : memref<1x4x16xf32>, memref<16x16xf32>) outs(%y : memref<1x4x16xf32>)
  hip.miopen.add(%ctx) ins(%bk, %y : memref<16xf32>, memref<1x4x16xf32>) outs(%zk : memref<1x4x16xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%x, %wv : memref<1x4x16xf32>, memref<16x16xf32>) outs(%y : memref<1x4x16xf32>)
  hip.miopen.add(%ctx) ins(%y, %bv : memref<1x4x16xf32>, memref<16xf32>) outs(%zv : memref<1x4x16xf32>)
  %qe = memref.expand_shape %zq [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  %ke = memref.expand_shape %zk [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  %ve = memref.expand_shape %zv [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : memref<1x4x16xf32> into memref<1x4x2x8xf32>
  %qt = memref.alloc() : memref<1x2x4x8xf32>
  %kt = memref.alloc() : memref<1x2x8x4xf32>
  %vt = memref.alloc() : memref<1x2x4x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%qe : memref<1x4x2x8xf32>) outs(%qt : memref<1x2x4x8xf32>)
  hip.permute(%ctx) ins(%ke : memref<1x4x2x8xf32>) outs(%kt : memref<1x2x8x4xf32>) {perm = array<i64: 0, 2, 3, 1>}
  hip.transpose(%ctx, %c1, %c2) ins(%ve : memref<1x4x2x8xf32>) outs(%vt : memref<1x2x4x8xf32>)
  hip.fused_attention(%ctx) ins(%qt, %kt, %vt, %c : memref<1x2x4x8xf32>, memref<1x2x8x4xf32>, memref<1x2x4x8xf32>, memref<f32>) outs(%o : memref<1x2x4x8xf32>) {scaling = "mul"}
  func.return
}

// No copy in between: the bias of (S, D) operands is their last dim's.
// CHECK-LABEL: func.func @direct
// CHECK:         %[[B:.*]] = memref.reinterpret_cast %b to offset: [0], sizes: [1, 8], strides: [0, 1] : memref<8xf32> to memref<1x8xf32, strided<[0, 1]>>
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%y, %k, %v, %[[B]] : {{.*}}) outs(%o : memref<4x8xf32>) {biased = "q"}
func.func @direct(%ctx: !hip.context, %y: memref<4x8xf32>, %b: memref<8xf32>, %k: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %z = memref.alloc() : memref<4x8xf32>
  hip.miopen.add(%ctx) ins(%y, %b : memref<4x8xf32>, memref<8xf32>) outs(%z : memref<4x8xf32>)
  hip.fused_attention(%ctx) ins(%z, %k, %v : memref<4x8xf32>, memref<8x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}
