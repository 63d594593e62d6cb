// RUN: rm -rf %t && mkdir -p %t
// RUN: xdsl-opt %inputs/attention_static.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t/static"}' | filecheck %s --check-prefix=STATIC
// RUN: xdsl-opt %inputs/attention_hd128.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t/hd128"}' | filecheck %s --check-prefix=HD128
// RUN: xdsl-opt %inputs/matmul_chain_bias.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t/chain"}' | filecheck %s --check-prefix=CHAIN
// RUN: xdsl-opt %inputs/mlp_gemm_relu.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t/mlp"}' | filecheck %s --check-prefix=MLP
// RUN: xdsl-opt %inputs/two_outputs.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip' | filecheck %s --check-prefix=TWO
// RUN: xdsl-opt %inputs/reshape_heads.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip' | filecheck %s --check-prefix=HEADS
// RUN: wc -c < %t/hd128/model.constants.bin | filecheck %s --check-prefix=HD128-SIZE

// The attention model with static shapes: no tensor.dim at all.
// STATIC:      memref.global "private" @hip_ext_constant_0 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 16384 : i64}}
// STATIC:      %c2 = arith.constant 2 : index
// STATIC-NEXT: %c1 = arith.constant 1 : index
// STATIC-NEXT: %cst = arith.constant dense<1.250000e-01> : tensor<f32>
// STATIC-NOT:  tensor.dim
// STATIC:      hip.transpose(%arg0, %c1, %c2) ins(%{{.*}} : tensor<2x16x64xf32>) outs(%{{.*}} : tensor<2x64x16xf32>)

// Head dim 128: 128x128 weights (64 KiB each), the scale divided in.
// HD128:      memref.global "private" @hip_ext_constant_2 : memref<128x128xf32> {alignment = 64 : i64, hip.external_data = {offset = 131072 : i64, size = 65536 : i64}}
// HD128:      %[[Q:.*]] = hip.hipblaslt.matmul(%arg0) ins(%arg1, %{{.*}} : tensor<?x?x128xf32>, tensor<128x128xf32>)
// HD128:      hip.miopen.div(%arg0) ins(%{{.*}}, %cst : tensor<?x?x?xf32>, tensor<f32>)
// HD128-SIZE: 196608

// MatMul + Add bias twice: the 32x64 and 64x16 weights go out, the biases stay.
// CHAIN:      memref.global "private" @hip_ext_constant_1 : memref<64x16xf32> {alignment = 64 : i64, hip.external_data = {offset = 8192 : i64, size = 4096 : i64}}
// CHAIN-NEXT: memref.global "private" @hip_ext_constant_0 : memref<32x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 8192 : i64}}
// CHAIN:      %[[B2:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, {{.*}}]> : tensor<16xf32>
// CHAIN-NEXT: %[[B1:.*]] = arith.constant dense<2.500000e-01> : tensor<64xf32>
// CHAIN:      %[[H:.*]] = hip.hipblaslt.matmul(%arg0) ins(%arg1, %{{.*}} : tensor<?x32xf32>, tensor<32x64xf32>)
// CHAIN:      %[[HB:.*]] = hip.miopen.add(%arg0) ins(%[[H]], %[[B1]] : tensor<?x64xf32>, tensor<64xf32>)
// CHAIN:      %[[O:.*]] = hip.hipblaslt.matmul(%arg0) ins(%[[HB]], %{{.*}} : tensor<?x64xf32>, tensor<64x16xf32>)
// CHAIN:      hip.miopen.add(%arg0) ins(%[[O]], %[[B2]] : tensor<?x16xf32>, tensor<16xf32>)

// Gemm (transB) + Relu + Gemm (alpha, beta).
// MLP:      hip.hipblaslt.gemm(%arg0) ins(%arg1, %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<?x32xf32>) {trans_b}
// MLP:      hip.miopen.relu(%arg0) ins(%{{.*}} : tensor<?x32xf32>)
// MLP:      hip.hipblaslt.gemm(%arg0) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<32x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<?x8xf32>) {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32}

// Two outputs, one feeding the other; no constants, no constants file.
// TWO:      builtin.module {
// TWO:      %[[S:.*]] = hip.hipblaslt.matmul(%arg0) ins(%arg1, %arg2 : tensor<?x?x64xf32>, tensor<?x64x?xf32>)
// TWO:      %[[P:.*]] = hip.miopen.softmax(%arg0) ins(%[[S]] : tensor<?x?x?xf32>)
// TWO:      func.return %[[P]], %[[S]] : tensor<?x?x?xf32>, tensor<?x?x?xf32>

// Split into heads, permute, merge back: views around hip.transpose.
// HEADS:      %[[SPLIT:.*]] = tensor.expand_shape %arg1 {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_1, 4, 64] : tensor<?x?x256xf32> into tensor<?x?x4x64xf32>
// HEADS:      hip.transpose(%arg0, %c1, %c2) ins(%[[SPLIT]] : tensor<?x?x4x64xf32>) outs(%{{.*}} : tensor<?x4x?x64xf32>)
// HEADS:      hip.miopen.softmax(%arg0) ins(%{{.*}} : tensor<?x4x?x64xf32>) outs(%{{.*}} : tensor<?x4x?x64xf32>) {axis = 2 : i64}
// HEADS:      %[[BACK:.*]] = hip.transpose(%arg0, %c1, %c2) ins(%{{.*}} : tensor<?x4x?x64xf32>) outs(%{{.*}} : tensor<?x?x4x64xf32>)
// HEADS:      tensor.collapse_shape %[[BACK]] {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x?x4x64xf32> into tensor<?x?x256xf32>
// HEADS-NOT:  onnx.
