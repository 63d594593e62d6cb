// RUN: xdsl-opt %seed/after-pass-03-one-shot-bufferize.mlir -p buffer-results-to-out-params | filecheck %s

// Stage test: stage 03 -> stage 04.

// CHECK:      builtin.module attributes {hip.constants_file = "model.constants.bin", llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" @hip_ext_constant_2 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 32768 : i64, size = 16384 : i64}}
// CHECK-NEXT: memref.global "private" @hip_ext_constant_1 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 16384 : i64, size = 16384 : i64}}
// CHECK-NEXT: memref.global "private" @hip_ext_constant_0 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 16384 : i64}}
// CHECK-NEXT: func.func @main_graph([[ARG0:%[a-z0-9_]+]]: !hip.context, [[ARG1:%[a-z0-9_]+]]: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}, [[ARG2:%[a-z0-9_]+]]: memref<?x?x64xf32> {bufferize.result, onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// CHECK-NEXT: [[C2:%[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT: [[C1:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT: [[C0:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT: [[V0:%[a-z0-9_]+]] = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT: [[V1:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_0 : memref<64x64xf32>
// CHECK-NEXT: [[V2:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_1 : memref<64x64xf32>
// CHECK-NEXT: [[V3:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_2 : memref<64x64xf32>
// CHECK-NEXT: [[DIM:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C0]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[DIM_0:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C1]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[ALLOC:%[a-z0-9_]+]] = memref.alloc([[DIM]], [[DIM_0]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V1]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[ALLOC]] : memref<?x?x64xf32>)
// CHECK-NEXT: [[DIM_1:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C0]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[DIM_2:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C1]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[ALLOC_3:%[a-z0-9_]+]] = memref.alloc([[DIM_1]], [[DIM_2]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V2]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[ALLOC_3]] : memref<?x?x64xf32>)
// CHECK-NEXT: [[DIM_4:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C0]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[DIM_5:%[a-z0-9_]+]] = memref.dim [[ARG1]], [[C1]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: [[ALLOC_6:%[a-z0-9_]+]] = memref.alloc([[DIM_4]], [[DIM_5]]) {alignment = 64 : i64} : memref<?x?x64xf32>
// CHECK-NEXT: hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V3]] : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs([[ALLOC_6]] : memref<?x?x64xf32>)
// CHECK-NEXT: [[DIM_7:%[a-z0-9_]+]] = memref.dim [[ALLOC_3]], [[C0]] : memref<?x?x64xf32>
// CHECK-NEXT: [[DIM_8:%[a-z0-9_]+]] = memref.dim [[ALLOC_3]], [[C1]] : memref<?x?x64xf32>
// CHECK-NEXT: [[ALLOC_9:%[a-z0-9_]+]] = memref.alloc([[DIM_7]], [[DIM_8]]) {alignment = 64 : i64} : memref<?x64x?xf32>
// CHECK-NEXT: hip.transpose([[ARG0]], [[C1]], [[C2]]) ins([[ALLOC_3]] : memref<?x?x64xf32>) outs([[ALLOC_9]] : memref<?x64x?xf32>)
// CHECK-NEXT: [[DIM_10:%[a-z0-9_]+]] = memref.dim [[ALLOC]], [[C0]] : memref<?x?x64xf32>
// CHECK-NEXT: [[DIM_11:%[a-z0-9_]+]] = memref.dim [[ALLOC]], [[C1]] : memref<?x?x64xf32>
// CHECK-NEXT: [[DIM_12:%[a-z0-9_]+]] = memref.dim [[ALLOC_9]], [[C2]] : memref<?x64x?xf32>
// CHECK-NEXT: [[ALLOC_13:%[a-z0-9_]+]] = memref.alloc([[DIM_10]], [[DIM_11]], [[DIM_12]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.hipblaslt.matmul([[ARG0]]) ins([[ALLOC]], [[ALLOC_9]] : memref<?x?x64xf32>, memref<?x64x?xf32>) outs([[ALLOC_13]] : memref<?x?x?xf32>)
// CHECK-NEXT: [[DIM_14:%[a-z0-9_]+]] = memref.dim [[ALLOC_13]], [[C0]] : memref<?x?x?xf32>
// CHECK-NEXT: [[DIM_15:%[a-z0-9_]+]] = memref.dim [[ALLOC_13]], [[C1]] : memref<?x?x?xf32>
// CHECK-NEXT: [[DIM_16:%[a-z0-9_]+]] = memref.dim [[ALLOC_13]], [[C2]] : memref<?x?x?xf32>
// CHECK-NEXT: [[ALLOC_17:%[a-z0-9_]+]] = memref.alloc([[DIM_14]], [[DIM_15]], [[DIM_16]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.miopen.mul([[ARG0]]) ins([[ALLOC_13]], [[V0]] : memref<?x?x?xf32>, memref<f32>) outs([[ALLOC_17]] : memref<?x?x?xf32>)
// CHECK-NEXT: [[DIM_18:%[a-z0-9_]+]] = memref.dim [[ALLOC_17]], [[C0]] : memref<?x?x?xf32>
// CHECK-NEXT: [[DIM_19:%[a-z0-9_]+]] = memref.dim [[ALLOC_17]], [[C1]] : memref<?x?x?xf32>
// CHECK-NEXT: [[DIM_20:%[a-z0-9_]+]] = memref.dim [[ALLOC_17]], [[C2]] : memref<?x?x?xf32>
// CHECK-NEXT: [[ALLOC_21:%[a-z0-9_]+]] = memref.alloc([[DIM_18]], [[DIM_19]], [[DIM_20]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK-NEXT: hip.miopen.softmax([[ARG0]]) ins([[ALLOC_17]] : memref<?x?x?xf32>) outs([[ALLOC_21]] : memref<?x?x?xf32>)
// CHECK-NEXT: [[DIM_22:%[a-z0-9_]+]] = memref.dim [[ALLOC_21]], [[C0]] : memref<?x?x?xf32>
// CHECK-NEXT: [[DIM_23:%[a-z0-9_]+]] = memref.dim [[ALLOC_21]], [[C1]] : memref<?x?x?xf32>
// CHECK-NEXT: hip.hipblaslt.matmul([[ARG0]]) ins([[ALLOC_21]], [[ALLOC_6]] : memref<?x?x?xf32>, memref<?x?x64xf32>) outs([[ARG2]] : memref<?x?x64xf32>)
// CHECK-NEXT: [[CAST:%[a-z0-9_]+]] = memref.cast [[ARG2]] : memref<?x?x64xf32> to memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
