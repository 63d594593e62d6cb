// RUN: rm -rf %t && xdsl-opt %seed/after-pass-01-hip-add-context-arg.mlir -p 'convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t"}' | filecheck %s
// RUN: wc -c < %t/model.constants.bin | filecheck %s --check-prefix=SIZE

// Stage test: stage 01 -> stage 02. The three 64x64 weights (elided in the
// seed, so written as zeros) go to the constants file; the scalar stays inline.

// CHECK:      builtin.module attributes {hip.constants_file = "model.constants.bin", llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT: memref.global "private" @hip_ext_constant_2 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 32768 : i64, size = 16384 : i64}}
// CHECK-NEXT: memref.global "private" @hip_ext_constant_1 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 16384 : i64, size = 16384 : i64}}
// CHECK-NEXT: memref.global "private" @hip_ext_constant_0 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 16384 : i64}}
// CHECK-NEXT: func.func @main_graph([[ARG0:%[a-z0-9_]+]]: !hip.context, [[ARG1:%[a-z0-9_]+]]: tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// CHECK-NEXT: [[C2:%[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT: [[C1:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT: [[C0:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT: [[CST:%[a-z0-9_]+]] = arith.constant dense<1.250000e-01> : tensor<f32>
// CHECK-NEXT: [[V0:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_0 : memref<64x64xf32>
// CHECK-NEXT: [[V1:%[a-z0-9_]+]] = bufferization.to_tensor [[V0]] restrict : memref<64x64xf32> to tensor<64x64xf32>
// CHECK-NEXT: [[V2:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_1 : memref<64x64xf32>
// CHECK-NEXT: [[V3:%[a-z0-9_]+]] = bufferization.to_tensor [[V2]] restrict : memref<64x64xf32> to tensor<64x64xf32>
// CHECK-NEXT: [[V4:%[a-z0-9_]+]] = memref.get_global @hip_ext_constant_2 : memref<64x64xf32>
// CHECK-NEXT: [[V5:%[a-z0-9_]+]] = bufferization.to_tensor [[V4]] restrict : memref<64x64xf32> to tensor<64x64xf32>
// CHECK-NEXT: [[DIM:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C0]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_0:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C1]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[V6:%[a-z0-9_]+]] = tensor.empty([[DIM]], [[DIM_0]]) : tensor<?x?x64xf32>
// CHECK-NEXT: [[V7:%[a-z0-9_]+]] = hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V1]] : tensor<?x?x64xf32>, tensor<64x64xf32>) outs([[V6]] : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_1:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C0]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_2:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C1]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[V8:%[a-z0-9_]+]] = tensor.empty([[DIM_1]], [[DIM_2]]) : tensor<?x?x64xf32>
// CHECK-NEXT: [[V9:%[a-z0-9_]+]] = hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V3]] : tensor<?x?x64xf32>, tensor<64x64xf32>) outs([[V8]] : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_3:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C0]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_4:%[a-z0-9_]+]] = tensor.dim [[ARG1]], [[C1]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[V10:%[a-z0-9_]+]] = tensor.empty([[DIM_3]], [[DIM_4]]) : tensor<?x?x64xf32>
// CHECK-NEXT: [[V11:%[a-z0-9_]+]] = hip.hipblaslt.matmul([[ARG0]]) ins([[ARG1]], [[V5]] : tensor<?x?x64xf32>, tensor<64x64xf32>) outs([[V10]] : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_5:%[a-z0-9_]+]] = tensor.dim [[V9]], [[C0]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_6:%[a-z0-9_]+]] = tensor.dim [[V9]], [[C1]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[V12:%[a-z0-9_]+]] = tensor.empty([[DIM_5]], [[DIM_6]]) : tensor<?x64x?xf32>
// CHECK-NEXT: [[V13:%[a-z0-9_]+]] = hip.transpose([[ARG0]], [[C1]], [[C2]]) ins([[V9]] : tensor<?x?x64xf32>) outs([[V12]] : tensor<?x64x?xf32>) -> tensor<?x64x?xf32>
// CHECK-NEXT: [[DIM_7:%[a-z0-9_]+]] = tensor.dim [[V7]], [[C0]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_8:%[a-z0-9_]+]] = tensor.dim [[V7]], [[C1]] : tensor<?x?x64xf32>
// CHECK-NEXT: [[DIM_9:%[a-z0-9_]+]] = tensor.dim [[V13]], [[C2]] : tensor<?x64x?xf32>
// CHECK-NEXT: [[V14:%[a-z0-9_]+]] = tensor.empty([[DIM_7]], [[DIM_8]], [[DIM_9]]) : tensor<?x?x?xf32>
// CHECK-NEXT: [[V15:%[a-z0-9_]+]] = hip.hipblaslt.matmul([[ARG0]]) ins([[V7]], [[V13]] : tensor<?x?x64xf32>, tensor<?x64x?xf32>) outs([[V14]] : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_10:%[a-z0-9_]+]] = tensor.dim [[V15]], [[C0]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_11:%[a-z0-9_]+]] = tensor.dim [[V15]], [[C1]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_12:%[a-z0-9_]+]] = tensor.dim [[V15]], [[C2]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[V16:%[a-z0-9_]+]] = tensor.empty([[DIM_10]], [[DIM_11]], [[DIM_12]]) : tensor<?x?x?xf32>
// CHECK-NEXT: [[V17:%[a-z0-9_]+]] = hip.miopen.mul([[ARG0]]) ins([[V15]], [[CST]] : tensor<?x?x?xf32>, tensor<f32>) outs([[V16]] : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_13:%[a-z0-9_]+]] = tensor.dim [[V17]], [[C0]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_14:%[a-z0-9_]+]] = tensor.dim [[V17]], [[C1]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_15:%[a-z0-9_]+]] = tensor.dim [[V17]], [[C2]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[V18:%[a-z0-9_]+]] = tensor.empty([[DIM_13]], [[DIM_14]], [[DIM_15]]) : tensor<?x?x?xf32>
// CHECK-NEXT: [[V19:%[a-z0-9_]+]] = hip.miopen.softmax([[ARG0]]) ins([[V17]] : tensor<?x?x?xf32>) outs([[V18]] : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_16:%[a-z0-9_]+]] = tensor.dim [[V19]], [[C0]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[DIM_17:%[a-z0-9_]+]] = tensor.dim [[V19]], [[C1]] : tensor<?x?x?xf32>
// CHECK-NEXT: [[V20:%[a-z0-9_]+]] = tensor.empty([[DIM_16]], [[DIM_17]]) : tensor<?x?x64xf32>
// CHECK-NEXT: [[V21:%[a-z0-9_]+]] = hip.hipblaslt.matmul([[ARG0]]) ins([[V19]], [[V11]] : tensor<?x?x?xf32>, tensor<?x?x64xf32>) outs([[V20]] : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: func.return [[V21]] : tensor<?x?x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

// SIZE: 49152
