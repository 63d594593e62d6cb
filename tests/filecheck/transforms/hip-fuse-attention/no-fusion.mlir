// RUN: xdsl-opt %s -p hip-fuse-attention | filecheck %s
// RUN: xdsl-opt %s -p hip-fuse-attention | filecheck %s --check-prefix=NONE

// Each of these must stay as it is: no fused op anywhere.
// NONE-NOT: hip.fused_attention

// The scores are read again after the softmax (an observable value).
// CHECK-LABEL: func.func @scores_read_again
// CHECK:         hip.miopen.softmax
// CHECK:         hip.hipblaslt.matmul
// CHECK:         hip.miopen.add
func.func @scores_read_again(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>, %z: memref<4x4xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  %p = memref.alloc() : memref<4x4xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<4x4xf32>) outs(%p : memref<4x4xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%p, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%s, %p : memref<4x4xf32>, memref<4x4xf32>) outs(%z : memref<4x4xf32>)
  func.return
}

// Q's buffer is written between the two matmuls: the fused op, at the second
// one's place, would read the new bytes.
// CHECK-LABEL: func.func @query_overwritten
// CHECK:         hip.miopen.relu
// CHECK:         hip.miopen.softmax
func.func @query_overwritten(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>, %x: memref<4x8xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  %qq = memref.alloc() : memref<4x8xf32>
  hip.copy(%ctx) ins(%q : memref<4x8xf32>) outs(%qq : memref<4x8xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%qq, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
  hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%qq : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<4x4xf32>) outs(%s : memref<4x4xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%s, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%qq, %x : memref<4x8xf32>, memref<4x8xf32>) outs(%x : memref<4x8xf32>)
  func.return
}

// A softmax over another axis than the keys'.
// CHECK-LABEL: func.func @other_axis
// CHECK:         hip.miopen.softmax{{.*}}axis = 0
func.func @other_axis(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<4x4xf32>) outs(%s : memref<4x4xf32>) {axis = 0 : i64}
  hip.hipblaslt.matmul(%ctx) ins(%s, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}

// The scale applied after the mask (softmax((s + m) * c)) is not the fused
// op's order, and the scores the softmax writes go to a function argument.
// CHECK-LABEL: func.func @scale_after_mask
// CHECK:         hip.miopen.softmax(%ctx) ins(%a, %c
// CHECK-LABEL: func.func @probabilities_returned
// CHECK:         hip.miopen.softmax(%ctx) ins(%s : memref<4x4xf32>) outs(%p
func.func @scale_after_mask(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %m: memref<4x4xf32>, %c: memref<f32>, %o: memref<4x8xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  %a = memref.alloc() : memref<4x4xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
  hip.miopen.add(%ctx) ins(%s, %m : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%a, %c : memref<4x4xf32>, memref<f32>) outs(%s : memref<4x4xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%s, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}
func.func @probabilities_returned(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %p: memref<4x4xf32>, %o: memref<4x8xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<4x4xf32>) outs(%p : memref<4x4xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%p, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  func.return
}

// A row guard whose comparand is 0, not -inf: rows whose mask max is 0 are
// not the softmax's NaN rows; not fused.
// CHECK-LABEL: func.func @guard_not_neg_inf
// CHECK:         hip.miopen.softmax
module {
  memref.global "private" constant @zero_g : memref<1xf32> = dense<0.000000e+00>
  func.func @guard_not_neg_inf(%ctx: !hip.context, %q: memref<4x8xf32>, %kt: memref<8x4xf32>, %v: memref<4x8xf32>, %m: memref<4x4xf32>, %fill: memref<1xf32>, %o: memref<4x8xf32>) {
    %c = memref.get_global @zero_g : memref<1xf32>
    %s = memref.alloc() : memref<4x4xf32>
    %a = memref.alloc() : memref<4x4xf32>
    %r = memref.alloc() : memref<4x1xf32>
    %e = memref.alloc() : memref<4x1xi1>
    hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<4x8xf32>, memref<8x4xf32>) outs(%s : memref<4x4xf32>)
    hip.miopen.add(%ctx) ins(%s, %m : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
    hip.miopen.softmax(%ctx) ins(%a : memref<4x4xf32>) outs(%s : memref<4x4xf32>)
    hip.miopen.reduce_max(%ctx) ins(%m : memref<4x4xf32>) outs(%r : memref<4x1xf32>) {axes = array<i64: 1>, keepdims}
    hip.miopen.equal(%ctx) ins(%r, %c : memref<4x1xf32>, memref<1xf32>) outs(%e : memref<4x1xi1>)
    hip.miopen.where(%ctx) ins(%e, %fill, %s : memref<4x1xi1>, memref<1xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
    hip.hipblaslt.matmul(%ctx) ins(%a, %v : memref<4x4xf32>, memref<4x8xf32>) outs(%o : memref<4x8xf32>)
    func.return
  }
}
