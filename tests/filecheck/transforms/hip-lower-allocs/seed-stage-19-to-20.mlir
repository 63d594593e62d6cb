// The seed's stage 19 gives the seed's stage 20: the pool's memref.alloc and
// memref.dealloc become hip.alloc/hip.free on %arg0; everything else is untouched.
// RUN: xdsl-opt %seed/after-pass-19-post-pool-cleanup.mlir -p hip-lower-allocs | filecheck %s

// CHECK:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}, %arg2: memref<?x?x64xf32> {bufferize.result, onnx.dim_params = "0:batch,1:seq", onnx.name = "out"})
// CHECK-NOT:  memref.alloc
// CHECK:      %[[SIZE:[0-9]+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT: %[[POOL:[a-z0-9_]+]] = hip.alloc(%arg0, %[[SIZE]]) : memref<?xi8>
// CHECK-NOT:  memref.alloc
// CHECK:      memref.view %[[POOL]][%c0][%dim, %{{.*}}] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-COUNT-5: memref.view %[[POOL]]
// CHECK:      hip.hipblaslt.matmul(%arg0) ins(%view_4, %view_2 : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT: hip.free(%arg0, %[[POOL]]) : memref<?xi8>
// CHECK-NEXT: func.return
// CHECK-NOT:  memref.dealloc
