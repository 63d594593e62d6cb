// RUN: xdsl-opt %inputs/attention.onnx.mlir -p hip-add-context-arg | filecheck %s
// RUN: xdsl-opt %seed/after-pass-01-hip-add-context-arg.mlir -p hip-add-context-arg | filecheck %s

// Stage test: the seed model without its context argument becomes stage 01.
// Running the pass on stage 01 itself changes nothing (the pass is idempotent).

// CHECK:      builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT: func.func @main_graph([[ARG0:%[a-z0-9_]+]]: !hip.context, [[ARG1:%[a-z0-9_]+]]: tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// CHECK-NEXT: [[V0:%[a-z0-9_]+]] = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT: [[V1:%[a-z0-9_]+]] = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT: [[V2:%[a-z0-9_]+]] = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT: [[V3:%[a-z0-9_]+]] = "onnx.Constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: [[V4:%[a-z0-9_]+]] = "onnx.MatMul"([[ARG1]], [[V0]]) {onnx_node_name = "q_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[V5:%[a-z0-9_]+]] = "onnx.MatMul"([[ARG1]], [[V1]]) {onnx_node_name = "k_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[V6:%[a-z0-9_]+]] = "onnx.MatMul"([[ARG1]], [[V2]]) {onnx_node_name = "v_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: [[V7:%[a-z0-9_]+]] = "onnx.Transpose"([[V5]]) <{perm = [0 : i64, 2 : i64, 1 : i64]}> {onnx_node_name = "k_transpose"} : (tensor<?x?x64xf32>) -> tensor<?x64x?xf32>
// CHECK-NEXT: [[V8:%[a-z0-9_]+]] = "onnx.MatMul"([[V4]], [[V7]]) {onnx_node_name = "qk_matmul"} : (tensor<?x?x64xf32>, tensor<?x64x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[V9:%[a-z0-9_]+]] = "onnx.Mul"([[V8]], [[V3]]) {onnx_node_name = "score_scale"} : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[V10:%[a-z0-9_]+]] = "onnx.Softmax"([[V9]]) <{axis = -1 : si64}> {onnx_node_name = "softmax"} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT: [[V11:%[a-z0-9_]+]] = "onnx.MatMul"([[V10]], [[V6]]) {onnx_node_name = "attn_v"} : (tensor<?x?x?xf32>, tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT: func.return [[V11]] : tensor<?x?x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
// CHECK-NEXT: }
