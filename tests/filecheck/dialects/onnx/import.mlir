// RUN: python %S/../../../../examples/attention.py -o %t.onnx
// RUN: xhip import %t.onnx | filecheck %s

// The seed's pass-1 input, from a real .onnx file (weights are hex, not elided).

// CHECK:      builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT:   func.func @main_graph(%arg0: tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// CHECK-NEXT:     %0 = "onnx.Constant"() {value = dense<"0x{{[0-9A-F]+}}"> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT:     %1 = "onnx.Constant"() {value = dense<"0x{{[0-9A-F]+}}"> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT:     %2 = "onnx.Constant"() {value = dense<"0x{{[0-9A-F]+}}"> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
// CHECK-NEXT:     %3 = "onnx.Constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:     %4 = "onnx.MatMul"(%arg0, %0) {onnx_node_name = "q_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT:     %5 = "onnx.MatMul"(%arg0, %1) {onnx_node_name = "k_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT:     %6 = "onnx.MatMul"(%arg0, %2) {onnx_node_name = "v_proj"} : (tensor<?x?x64xf32>, tensor<64x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT:     %7 = "onnx.Transpose"(%5) <{perm = [0 : i64, 2 : i64, 1 : i64]}> {onnx_node_name = "k_transpose"} : (tensor<?x?x64xf32>) -> tensor<?x64x?xf32>
// CHECK-NEXT:     %8 = "onnx.MatMul"(%4, %7) {onnx_node_name = "qk_matmul"} : (tensor<?x?x64xf32>, tensor<?x64x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:     %9 = "onnx.Mul"(%8, %3) {onnx_node_name = "score_scale"} : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:     %10 = "onnx.Softmax"(%9) <{axis = -1 : si64}> {onnx_node_name = "softmax"} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:     %11 = "onnx.MatMul"(%10, %6) {onnx_node_name = "attn_v"} : (tensor<?x?x?xf32>, tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-NEXT:     func.return %11 : tensor<?x?x64xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
// CHECK-NEXT: }
