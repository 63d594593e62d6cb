// RUN: xdsl-opt %s -p hip-fold-attention-layouts | filecheck %s

// Each of these keeps its copy.

// The copy's source is written between the copy and the attention: read in
// place at the attention's place it would give the new bytes.
// CHECK-LABEL: func.func @source_overwritten
// CHECK:         hip.transpose
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%qt, %kt, %vt : {{.*}})
func.func @source_overwritten(%ctx: !hip.context, %q: memref<1x4x2x8xf32>, %kt: memref<1x2x8x4xf32>, %vt: memref<1x2x4x8xf32>, %o: memref<1x2x4x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qt = memref.alloc() : memref<1x2x4x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%q : memref<1x4x2x8xf32>) outs(%qt : memref<1x2x4x8xf32>)
  hip.miopen.relu(%ctx) ins(%q : memref<1x4x2x8xf32>) outs(%q : memref<1x4x2x8xf32>)
  hip.fused_attention(%ctx) ins(%qt, %kt, %vt : memref<1x2x4x8xf32>, memref<1x2x8x4xf32>, memref<1x2x4x8xf32>) outs(%o : memref<1x2x4x8xf32>)
  func.return
}

// The transposed queries are read again after the attention.
// CHECK-LABEL: func.func @copy_read_again
// CHECK:         hip.transpose
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%qt, %kt, %vt : {{.*}})
func.func @copy_read_again(%ctx: !hip.context, %q: memref<1x4x2x8xf32>, %kt: memref<1x2x8x4xf32>, %vt: memref<1x2x4x8xf32>, %o: memref<1x2x4x8xf32>, %z: memref<1x2x4x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qt = memref.alloc() : memref<1x2x4x8xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%q : memref<1x4x2x8xf32>) outs(%qt : memref<1x2x4x8xf32>)
  hip.fused_attention(%ctx) ins(%qt, %kt, %vt : memref<1x2x4x8xf32>, memref<1x2x8x4xf32>, memref<1x2x4x8xf32>) outs(%o : memref<1x2x4x8xf32>)
  hip.copy(%ctx) ins(%qt : memref<1x2x4x8xf32>) outs(%z : memref<1x2x4x8xf32>)
  func.return
}

// The output's copy target is read between the attention and the copy: the
// attention may not write it earlier.
// CHECK-LABEL: func.func @target_read_before_the_copy
// CHECK:         hip.fused_attention(%ctx) ins(%q, %kt, %vt : {{.*}}) outs(%o : memref<1x2x4x8xf32>)
// CHECK-NEXT:    hip.copy
// CHECK-NEXT:    hip.transpose
func.func @target_read_before_the_copy(%ctx: !hip.context, %q: memref<1x2x4x8xf32>, %kt: memref<1x2x8x4xf32>, %vt: memref<1x2x4x8xf32>, %r: memref<1x4x2x8xf32>, %z: memref<1x4x2x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %o = memref.alloc() : memref<1x2x4x8xf32>
  hip.fused_attention(%ctx) ins(%q, %kt, %vt : memref<1x2x4x8xf32>, memref<1x2x8x4xf32>, memref<1x2x4x8xf32>) outs(%o : memref<1x2x4x8xf32>)
  hip.copy(%ctx) ins(%r : memref<1x4x2x8xf32>) outs(%z : memref<1x4x2x8xf32>)
  hip.transpose(%ctx, %c1, %c2) ins(%o : memref<1x2x4x8xf32>) outs(%r : memref<1x4x2x8xf32>)
  func.return
}
