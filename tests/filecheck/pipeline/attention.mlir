// The whole pipeline on the seed's pass-1 input gives the seed's final IR (stage
// 21): the ABI (%ctx, X, out, constants blob), the weights as views of the blob at
// 0/16384/32768, one 256-byte-aligned pool of six views with the softmax writing
// into the dead QK^T buffer, freed at the end; and the weights' file is written.
// The pool arithmetic is checked by value in tests/pytest/test_pipeline.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: xdsl-opt %inputs/attention.onnx.mlir -p 'onnx-to-hip{externalize-output-dir="%t"}' | filecheck %s
// RUN: wc -c %t/model.constants.bin | filecheck %s --check-prefix=FILE

// CHECK:      builtin.module attributes {llvm.data_layout = "{{[^"]*}}", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT:   memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}
// CHECK-NEXT:   func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<?x?x64xf32>, %arg3: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
// CHECK:          %[[SCALE:.+]] = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:     %[[WQ:.+]] = memref.view %arg3[%[[C0]]][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %[[C16384:.+]] = arith.constant 16384 : index
// CHECK-NEXT:     %[[WK:.+]] = memref.view %arg3[%[[C16384]]][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %[[C32768:.+]] = arith.constant 32768 : index
// CHECK-NEXT:     %[[WV:.+]] = memref.view %arg3[%[[C32768]]][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %[[B:.+]] = memref.dim %arg1, %{{.+}} : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:     %[[S:.+]] = memref.dim %arg1, %{{.+}} : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NOT:      memref.alloc
// CHECK:          %[[POOL:.+]] = hip.alloc(%arg0, %{{.+}}) : memref<?xi8>
// CHECK-NOT:      hip.alloc
// CHECK:          %[[Q:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:     hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[WQ]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%[[Q]] : memref<?x?x64xf32>)
// CHECK-NEXT:     %[[K:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:     hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[WK]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%[[K]] : memref<?x?x64xf32>)
// CHECK-NEXT:     %[[V:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]]] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:     hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[WV]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%[[V]] : memref<?x?x64xf32>)
// CHECK-NEXT:     %[[KT:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]]] : memref<?xi8> to memref<?x64x?xf32>
// CHECK-NEXT:     hip.transpose(%arg0, %c1, %c2) ins(%[[K]] : memref<?x?x64xf32>) outs(%[[KT]] : memref<?x64x?xf32>)
// CHECK-NEXT:     %[[QK:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]], %[[S]]] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:     hip.hipblaslt.matmul(%arg0) ins(%[[Q]], %[[KT]] : memref<?x?x64xf32>, memref<?x64x?xf32>) outs(%[[QK]] : memref<?x?x?xf32>)
// CHECK-NEXT:     %[[SC:.+]] = memref.view %[[POOL]][%{{.+}}][%[[B]], %[[S]], %[[S]]] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:     hip.miopen.mul(%arg0) ins(%[[QK]], %[[SCALE]] : memref<?x?x?xf32>, memref<f32>) outs(%[[SC]] : memref<?x?x?xf32>)
// CHECK-NEXT:     hip.miopen.softmax(%arg0) ins(%[[SC]] : memref<?x?x?xf32>) outs(%[[QK]] : memref<?x?x?xf32>)
// CHECK-NEXT:     hip.hipblaslt.matmul(%arg0) ins(%[[QK]], %[[V]] : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
// CHECK-NEXT:     hip.free(%arg0, %[[POOL]]) : memref<?xi8>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// FILE: 49152 {{.*}}model.constants.bin
