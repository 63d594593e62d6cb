// RUN: xdsl-opt %s -p hip-fuse-attention | filecheck %s

// A causal mask: the scores divided by a scalar (sqrt(d)), a constant
// (1, 1, S, T) mask of 0 and -inf added, broadcast over batch and heads,
// dynamic batch and sequence; then softmax and the matmul by V.
// CHECK-LABEL: func.func @causal
// CHECK-NOT:     hip.miopen
// CHECK:         hip.fused_attention(%ctx) ins(%q, %kt, %v, %d, %causal : memref<?x4x?x16xf32>, memref<?x4x16x?xf32>, memref<?x4x?x16xf32>, memref<f32>, memref<1x1x?x?xf32>) outs(%o : memref<?x4x?x16xf32>) {scaling = "div"}
// CHECK-NEXT:    memref.dealloc %s : memref<?x4x?x?xf32>
// CHECK-NEXT:    func.return
func.func @causal(%ctx: !hip.context, %q: memref<?x4x?x16xf32>, %kt: memref<?x4x16x?xf32>, %v: memref<?x4x?x16xf32>, %d: memref<f32>, %causal: memref<1x1x?x?xf32>, %o: memref<?x4x?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = memref.dim %q, %c0 : memref<?x4x?x16xf32>
  %n = memref.dim %q, %c2 : memref<?x4x?x16xf32>
  %s = memref.alloc(%b, %n, %n) : memref<?x4x?x?xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<?x4x?x16xf32>, memref<?x4x16x?xf32>) outs(%s : memref<?x4x?x?xf32>)
  hip.miopen.div(%ctx) ins(%s, %d : memref<?x4x?x?xf32>, memref<f32>) outs(%s : memref<?x4x?x?xf32>)
  hip.miopen.add(%ctx) ins(%causal, %s : memref<1x1x?x?xf32>, memref<?x4x?x?xf32>) outs(%s : memref<?x4x?x?xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<?x4x?x?xf32>) outs(%s : memref<?x4x?x?xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%s, %v : memref<?x4x?x?xf32>, memref<?x4x?x16xf32>) outs(%o : memref<?x4x?x16xf32>)
  memref.dealloc %s : memref<?x4x?x?xf32>
  func.return
}
