// RUN: xdsl-opt %seed/after-pass-04-buffer-results-to-out-params.mlir -p canonicalize | filecheck %s

// Pass 6 on the seed: stage 04 -> stage 06. Dims of allocs fold to the alloc's
// size operands, dead dims and the dead cast of the out parameter go; the
// duplicate `memref.dim %arg1` stay (canonicalize does not CSE).
// CHECK:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}, %arg2: memref<?x?x64xf32> {bufferize.result, onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// CHECK-NEXT:   %c2 = arith.constant 2 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %0 = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT:   %1 = memref.get_global @hip_ext_constant_0 : memref<64x64xf32>
// CHECK-NEXT:   %2 = memref.get_global @hip_ext_constant_1 : memref<64x64xf32>
// CHECK-NEXT:   %3 = memref.get_global @hip_ext_constant_2 : memref<64x64xf32>
// CHECK-NEXT:   [[D0:%.*]] = memref.dim %arg1, %c0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[D1:%.*]] = memref.dim %arg1, %c1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[A0:%.*]] = memref.alloc([[D0]], [[D1]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:   hip.hipblaslt.matmul(%arg0) ins(%arg1, %1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[A0]] : memref<?x?x64xf32>)
// CHECK-NEXT:   [[D2:%.*]] = memref.dim %arg1, %c0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[D3:%.*]] = memref.dim %arg1, %c1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[A3:%.*]] = memref.alloc([[D2]], [[D3]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:   hip.hipblaslt.matmul(%arg0) ins(%arg1, %2 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[A3]] : memref<?x?x64xf32>)
// CHECK-NEXT:   [[D4:%.*]] = memref.dim %arg1, %c0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[D5:%.*]] = memref.dim %arg1, %c1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:   [[A6:%.*]] = memref.alloc([[D4]], [[D5]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT:   hip.hipblaslt.matmul(%arg0) ins(%arg1, %3 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[A6]] : memref<?x?x64xf32>)
// CHECK-NEXT:   [[A7:%.*]] = memref.alloc([[D2]], [[D3]]) {alignment = 64 : i64} : memref<?x64x?xf32>
// CHECK-NEXT:   hip.transpose(%arg0, %c1, %c2) ins([[A3]] : memref<?x?x64xf32>) outs([[A7]] : memref<?x64x?xf32>)
// CHECK-NEXT:   [[A8:%.*]] = memref.alloc([[D0]], [[D1]], [[D3]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT:   hip.hipblaslt.matmul(%arg0) ins([[A0]], [[A7]] : memref<?x?x64xf32>, memref<?x64x?xf32>) outs([[A8]] : memref<?x?x?xf32>)
// CHECK-NEXT:   [[A9:%.*]] = memref.alloc([[D0]], [[D1]], [[D3]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT:   hip.miopen.mul(%arg0) ins([[A8]], %0 : memref<?x?x?xf32>, memref<f32>) outs([[A9]] : memref<?x?x?xf32>)
// CHECK-NEXT:   [[A10:%.*]] = memref.alloc([[D0]], [[D1]], [[D3]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT:   hip.miopen.softmax(%arg0) ins([[A9]] : memref<?x?x?xf32>) outs([[A10]] : memref<?x?x?xf32>)
// CHECK-NEXT:   hip.hipblaslt.matmul(%arg0) ins([[A10]], [[A6]] : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
