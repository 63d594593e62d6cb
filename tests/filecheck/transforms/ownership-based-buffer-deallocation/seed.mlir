// RUN: xdsl-opt %seed/after-pass-06-canonicalize.mlir -p ownership-based-buffer-deallocation | filecheck %s

// Pass 7 on the seed: one dealloc at the end of @main_graph lists the two
// memref arguments under `false` and the seven allocations under `true`.
// CHECK:      %false = arith.constant false
// CHECK:      %alloc = memref.alloc
// CHECK-NEXT: [[T0:%.*]] = arith.constant true
// CHECK:      %alloc_6 = memref.alloc
// CHECK-NEXT: [[T6:%.*]] = arith.constant true
// CHECK:      hip.hipblaslt.matmul(%arg0) ins(%alloc_6, %alloc_2 : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT: %base_buffer, {{.*}} = memref.extract_strided_metadata %arg1
// CHECK-NEXT: %base_buffer_1, {{.*}} = memref.extract_strided_metadata %arg2
// CHECK-NEXT: bufferization.dealloc (%base_buffer, %base_buffer_1, %alloc, %alloc_1, %alloc_2, %alloc_3, %alloc_4, %alloc_5, %alloc_6 : memref<f32>, memref<f32>, memref<?x?x64xf32>, memref<?x?x64xf32>, memref<?x?x64xf32>, memref<?x64x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>) if (%false, %false, [[T0]], {{.*}}, [[T6]])
// CHECK-NEXT: func.return
