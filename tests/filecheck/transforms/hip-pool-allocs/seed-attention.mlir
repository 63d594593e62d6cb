// RUN: xdsl-opt -p hip-pool-allocs %seed/after-pass-15-hip-optimize-memrefs.mlir | filecheck %s

// Seed stage 15 -> stage 16: the six allocs become views into one i8 pool,
// each in its own 256-aligned slot, in program order. With A = b*s*64*4 bytes
// (a multiple of 256, so not rounded) and B = b*s*s*4 bytes (rounded up):
// offsets 0, A, 2A, 3A, 4A, 4A + align(B); pool size 4A + 2 align(B).
// Only the first offset is static.

// CHECK-LABEL: func.func @main_graph(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]}
// CHECK:         %[[B:.*]] = memref.dim %arg1, %c0
// CHECK-NEXT:    %[[S:.*]] = memref.dim %arg1, %c1
// CHECK-NEXT:    %[[BS:.*]] = arith.muli %[[B]], %[[S]] : index
// CHECK-NEXT:    %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[A4:.*]] = arith.muli %[[BS]], %[[C1024]] : index
// CHECK-NEXT:    %[[BSS:.*]] = arith.muli %[[BS]], %[[S]] : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %[[BSS]], %[[C4]] : index
// CHECK-NEXT:    %[[C255:.*]] = arith.constant 255 : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[BYTES]], %[[C255]] : index
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[UP]], %[[C256]] : index
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[Q2:.*]] = arith.muli %[[Q]], %[[C512]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %[[A4]], %[[Q2]] : index
// CHECK-NEXT:    %[[POOL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[A1:.*]] = arith.muli %[[BS]], %[[C256]] : index
// CHECK-NEXT:    %[[A2:.*]] = arith.muli %[[BS]], %[[C512]] : index
// CHECK-NEXT:    %[[C768:.*]] = arith.constant 768 : index
// CHECK-NEXT:    %[[A3:.*]] = arith.muli %[[BS]], %[[C768]] : index
// CHECK-NEXT:    %[[Q1:.*]] = arith.muli %[[Q]], %[[C256]] : index
// CHECK-NEXT:    %[[A4B:.*]] = arith.addi %[[A4]], %[[Q1]] : index
// CHECK-NEXT:    %[[V0:.*]] = memref.view %[[POOL]][%c0][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %1 : {{.*}}) outs(%[[V0]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[V1:.*]] = memref.view %[[POOL]][%[[A1]]][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %2 : {{.*}}) outs(%[[V1]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[V2:.*]] = memref.view %[[POOL]][%[[A2]]][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%arg1, %3 : {{.*}}) outs(%[[V2]] : memref<?x?x64xf32>)
// CHECK-NEXT:    %[[V3:.*]] = memref.view %[[POOL]][%[[A3]]][%[[B]], %[[S]]] : memref<?xi8> to memref<?x64x?xf32>
// CHECK-NEXT:    hip.transpose(%arg0, %c1, %c2) ins(%[[V1]] : memref<?x?x64xf32>) outs(%[[V3]] : memref<?x64x?xf32>)
// CHECK-NEXT:    %[[V4:.*]] = memref.view %[[POOL]][%[[A4]]][%[[B]], %[[S]], %[[S]]] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[V0]], %[[V3]] : {{.*}}) outs(%[[V4]] : memref<?x?x?xf32>)
// CHECK-NEXT:    %[[V5:.*]] = memref.view %[[POOL]][%[[A4B]]][%[[B]], %[[S]], %[[S]]] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:    hip.miopen.mul(%arg0) ins(%[[V4]], %0 : {{.*}}) outs(%[[V5]] : memref<?x?x?xf32>)
// CHECK-NEXT:    hip.miopen.softmax(%arg0) ins(%[[V5]] : memref<?x?x?xf32>) outs(%[[V4]] : memref<?x?x?xf32>)
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[V4]], %[[V2]] : {{.*}}) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT:    memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    func.return
// CHECK-NOT:     memref.alloc(
