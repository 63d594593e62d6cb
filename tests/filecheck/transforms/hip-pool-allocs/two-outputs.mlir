// RUN: xdsl-opt -p hip-pool-allocs %s | filecheck %s

// Two out-params stay as they are; only the intermediate allocs are pooled.
// The pool is freed where the last of their deallocs was, which here is
// before the last op (that writes only out-params).

func.func @two(%ctx: !hip.context, %x: memref<?x128xf32>, %w: memref<128x128xf32>, %o1: memref<?x128xf32>, %o2: memref<?x128xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x128xf32>
  %a = memref.alloc(%n) : memref<?x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %w : memref<?x128xf32>, memref<128x128xf32>) outs(%a : memref<?x128xf32>)
  %b = memref.alloc(%n) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<?x128xf32>) outs(%b : memref<?x128xf32>)
  hip.miopen.add(%ctx) ins(%a, %b : memref<?x128xf32>, memref<?x128xf32>) outs(%o1 : memref<?x128xf32>)
  memref.dealloc %a : memref<?x128xf32>
  memref.dealloc %b : memref<?x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%o1, %w : memref<?x128xf32>, memref<128x128xf32>) outs(%o2 : memref<?x128xf32>)
  func.return
}

// CHECK-LABEL: func.func @two(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64]}
// CHECK:         %[[N:.*]] = memref.dim
// CHECK-NEXT:    %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.muli %[[N]], %[[C1024]] : index
// CHECK-NEXT:    %[[POOL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[N]], %[[C512]] : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[POOL]][%c0][%[[N]]] : memref<?xi8> to memref<?x128xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%ctx) ins(%x, %w : {{.*}}) outs(%[[A]] : memref<?x128xf32>)
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[POOL]][%[[OFF]]][%[[N]]] : memref<?xi8> to memref<?x128xf32>
// CHECK-NEXT:    hip.miopen.relu(%ctx) ins(%[[A]] : memref<?x128xf32>) outs(%[[B]] : memref<?x128xf32>)
// CHECK-NEXT:    hip.miopen.add(%ctx) ins(%[[A]], %[[B]] : {{.*}}) outs(%o1 : memref<?x128xf32>)
// CHECK-NEXT:    memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    hip.hipblaslt.matmul(%ctx) ins(%o1, %w : {{.*}}) outs(%o2 : memref<?x128xf32>)
// CHECK-NEXT:    func.return
