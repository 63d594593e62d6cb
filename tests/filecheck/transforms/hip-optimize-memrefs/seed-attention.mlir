// RUN: xdsl-opt -p hip-optimize-memrefs %seed/after-pass-14-buffer-deallocation-pipeline.mlir | filecheck %s

// Seed stage 14 -> stage 15: the softmax output (alloc_6) takes the QK^T buffer
// (alloc_4), dead once the scale `mul` has read it. 7 allocs become 6; alloc_4
// keeps its dealloc, alloc_6's goes. The mul's output is not given alloc_4:
// alloc_4 is the mul's own input.

// CHECK-LABEL: func.func @main_graph(
// CHECK:         %[[DIM:.*]] = memref.dim %arg1, %c0
// CHECK-NEXT:    %[[DIM0:.*]] = memref.dim %arg1, %c1
// CHECK-NEXT:    %[[A0:.*]] = memref.alloc(%[[DIM]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %1 : {{.*}}) outs(%[[A0]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[A1:.*]] = memref.alloc(%[[DIM]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %2 : {{.*}}) outs(%[[A1]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[A2:.*]] = memref.alloc(%[[DIM]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %3 : {{.*}}) outs(%[[A2]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[A3:.*]] = memref.alloc(%[[DIM]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x64x?xf32>
// CHECK-NEXT:    hip.transpose(%arg0, %c1, %c2) ins(%[[A1]] : memref<?x?x64xf32>) outs(%[[A3]] : memref<?x64x?xf32>)
// CHECK-NEXT:    %[[A4:.*]] = memref.alloc(%[[DIM]], %[[DIM0]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[A0]], %[[A3]] : {{.*}}) outs(%[[A4]] : memref<?x?x?xf32>)
// CHECK-NEXT:    %[[A5:.*]] = memref.alloc(%[[DIM]], %[[DIM0]], %[[DIM0]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT:    hip.miopen.mul(%arg0) ins(%[[A4]], %0 : memref<?x?x?xf32>, memref<f32>) outs(%[[A5]] : memref<?x?x?xf32>)
// CHECK-NEXT:    hip.miopen.softmax(%arg0) ins(%[[A5]] : memref<?x?x?xf32>) outs(%[[A4]] : memref<?x?x?xf32>)
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[A4]], %[[A2]] : {{.*}}) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT:    memref.dealloc %[[A0]] : memref<?x?x64xf32>
// CHECK-NEXT:    memref.dealloc %[[A1]] : memref<?x?x64xf32>
// CHECK-NEXT:    memref.dealloc %[[A2]] : memref<?x?x64xf32>
// CHECK-NEXT:    memref.dealloc %[[A3]] : memref<?x64x?xf32>
// CHECK-NEXT:    memref.dealloc %[[A4]] : memref<?x?x?xf32>
// CHECK-NEXT:    memref.dealloc %[[A5]] : memref<?x?x?xf32>
// CHECK-NEXT:    func.return
