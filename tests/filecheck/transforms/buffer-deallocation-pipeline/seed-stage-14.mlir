// RUN: xdsl-opt %seed/after-pass-06-canonicalize.mlir -p buffer-deallocation-pipeline | filecheck %s

// Passes 7-14 on the seed: stage 06 -> stage 14. Every allocation is freed at
// the end, in allocation order; the duplicate dims of %arg1 are CSE'd.
// CHECK:      %c2 = arith.constant 2 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %0 = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT: %1 = memref.get_global @hip_ext_constant_0 : memref<64x64xf32>
// CHECK-NEXT: %2 = memref.get_global @hip_ext_constant_1 : memref<64x64xf32>
// CHECK-NEXT: %3 = memref.get_global @hip_ext_constant_2 : memref<64x64xf32>
// CHECK-NEXT: %dim = memref.dim %arg1, %c0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[D1:%.*]] = memref.dim %arg1, %c1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: %alloc = memref.alloc(%dim, [[D1]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul(%arg0) ins(%arg1, %1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%alloc : memref<?x?x64xf32>)
// CHECK-NEXT: %alloc_1 = memref.alloc(%dim, [[D1]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul(%arg0) ins(%arg1, %2 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%alloc_1 : memref<?x?x64xf32>)
// CHECK-NEXT: %alloc_2 = memref.alloc(%dim, [[D1]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul(%arg0) ins(%arg1, %3 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%alloc_2 : memref<?x?x64xf32>)
// CHECK-NEXT: %alloc_3 = memref.alloc(%dim, [[D1]]) {alignment = 64 : i64} : memref<?x64x?xf32>
// CHECK-NEXT: hip.transpose(%arg0, %c1, %c2) ins(%alloc_1 : memref<?x?x64xf32>) outs(%alloc_3 : memref<?x64x?xf32>)
// CHECK-NEXT: %alloc_4 = memref.alloc(%dim, [[D1]], [[D1]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.hipblaslt.matmul(%arg0) ins(%alloc, %alloc_3 : memref<?x?x64xf32>, memref<?x64x?xf32>) outs(%alloc_4 : memref<?x?x?xf32>)
// CHECK-NEXT: %alloc_5 = memref.alloc(%dim, [[D1]], [[D1]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.miopen.mul(%arg0) ins(%alloc_4, %0 : memref<?x?x?xf32>, memref<f32>) outs(%alloc_5 : memref<?x?x?xf32>)
// CHECK-NEXT: %alloc_6 = memref.alloc(%dim, [[D1]], [[D1]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.miopen.softmax(%arg0) ins(%alloc_5 : memref<?x?x?xf32>) outs(%alloc_6 : memref<?x?x?xf32>)
// CHECK-NEXT: hip.hipblaslt.matmul(%arg0) ins(%alloc_6, %alloc_2 : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT: memref.dealloc %alloc : memref<?x?x64xf32>
// CHECK-NEXT: memref.dealloc %alloc_1 : memref<?x?x64xf32>
// CHECK-NEXT: memref.dealloc %alloc_2 : memref<?x?x64xf32>
// CHECK-NEXT: memref.dealloc %alloc_3 : memref<?x64x?xf32>
// CHECK-NEXT: memref.dealloc %alloc_4 : memref<?x?x?xf32>
// CHECK-NEXT: memref.dealloc %alloc_5 : memref<?x?x?xf32>
// CHECK-NEXT: memref.dealloc %alloc_6 : memref<?x?x?xf32>
// CHECK-NEXT: func.return
