// RUN: xdsl-opt %s -p hip-fuse-attention | filecheck %s

// BERT's export (torch's SDPA): the padding mask made by a `where` between the
// two matmuls, added to the scores; the softmax's NaNs (fully masked rows)
// zeroed by `where(isnan(p), 0, p)`. All in one pool; the mask's `where`
// stays where it is, the fused op reads its result at the last matmul's place.
// CHECK-LABEL: func.func @bert
// CHECK:         hip.miopen.where(%ctx) ins(%keep, %zero, %ninf : memref<2x1x4x4xi1>, memref<1xf32>, memref<1xf32>) outs(%m : memref<2x1x4x4xf32>)
// CHECK-NEXT:    hip.fused_attention(%ctx) ins(%q, %kt, %v, %m, %zero : memref<2x2x4x8xf32>, memref<2x2x8x4xf32>, memref<2x2x4x8xf32>, memref<2x1x4x4xf32>, memref<1xf32>) outs(%o : memref<2x2x4x8xf32>) {nan_fill}
// CHECK-NEXT:    func.return
func.func @bert(%ctx: !hip.context, %pool: memref<?xi8>, %q: memref<2x2x4x8xf32>, %kt: memref<2x2x8x4xf32>, %v: memref<2x2x4x8xf32>, %keep: memref<2x1x4x4xi1>, %zero: memref<1xf32>, %ninf: memref<1xf32>, %o: memref<2x2x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c1536 = arith.constant 1536 : index
  %s = memref.view %pool[%c0][] : memref<?xi8> to memref<2x2x4x4xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %kt : memref<2x2x4x8xf32>, memref<2x2x8x4xf32>) outs(%s : memref<2x2x4x4xf32>)
  %m = memref.view %pool[%c512][] : memref<?xi8> to memref<2x1x4x4xf32>
  hip.miopen.where(%ctx) ins(%keep, %zero, %ninf : memref<2x1x4x4xi1>, memref<1xf32>, memref<1xf32>) outs(%m : memref<2x1x4x4xf32>)
  %a = memref.view %pool[%c1024][] : memref<?xi8> to memref<2x2x4x4xf32>
  hip.miopen.add(%ctx) ins(%s, %m : memref<2x2x4x4xf32>, memref<2x1x4x4xf32>) outs(%a : memref<2x2x4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%a : memref<2x2x4x4xf32>) outs(%s : memref<2x2x4x4xf32>)
  %n = memref.view %pool[%c1536][] : memref<?xi8> to memref<2x2x4x4xi1>
  hip.miopen.isnan(%ctx) ins(%s : memref<2x2x4x4xf32>) outs(%n : memref<2x2x4x4xi1>)
  hip.miopen.where(%ctx) ins(%n, %zero, %s : memref<2x2x4x4xi1>, memref<1xf32>, memref<2x2x4x4xf32>) outs(%a : memref<2x2x4x4xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%a, %v : memref<2x2x4x4xf32>, memref<2x2x4x8xf32>) outs(%o : memref<2x2x4x8xf32>)
  func.return
}
