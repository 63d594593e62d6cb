// RUN: rm -rf %t && mkdir -p %t
// RUN: xdsl-opt %inputs/attention_static.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t"},one-shot-bufferize,buffer-results-to-out-params' | filecheck %s --check-prefix=STATIC
// RUN: xdsl-opt %inputs/mlp_gemm_relu.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t"},one-shot-bufferize,buffer-results-to-out-params' | filecheck %s --check-prefix=MLP
// RUN: xdsl-opt %inputs/two_outputs.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip,one-shot-bufferize,buffer-results-to-out-params' | filecheck %s --check-prefix=TWO
// RUN: xdsl-opt %inputs/reshape_heads.onnx.mlir -p 'hip-add-context-arg,convert-onnx-to-hip,one-shot-bufferize,buffer-results-to-out-params' | filecheck %s --check-prefix=HEADS

// Passes 1-4 on other models: the ABI is (%ctx, inputs..., outputs...) and the
// last producer of each output writes its argument.

// STATIC:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<2x16x64xf32, strided<[?, ?, ?], offset: ?>> {onnx.name = "X"}, %arg2: memref<2x16x64xf32> {bufferize.result, onnx.name = "out"}) {
// STATIC-COUNT-7: memref.alloc() {alignment = 64 : i64}
// STATIC-NOT:  memref.alloc
// STATIC:      hip.hipblaslt.matmul(%arg0) ins(%{{.*}}, %{{.*}} : memref<2x16x16xf32>, memref<2x16x64xf32>) outs(%arg2 : memref<2x16x64xf32>)
// STATIC-NEXT: memref.cast %arg2
// STATIC-NEXT: func.return

// MLP:      memref.global "private" constant @__constant_8xf32
// MLP-SAME: dense<1.000000e+00>
// MLP:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x16xf32, strided<[?, ?], offset: ?>> {onnx.dim_params = "0:N", onnx.name = "input"}, %arg2: memref<?x8xf32> {bufferize.result, onnx.dim_params = "0:N", onnx.name = "logits"}) {
// MLP:      hip.hipblaslt.gemm(%arg0) ins({{.*}}) outs(%arg2 : memref<?x8xf32>) {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32}

// The scores are an output and the softmax's input: the matmul writes %arg4,
// the softmax reads it and writes %arg3.
// TWO:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>> {onnx.name = "Q"}, %arg2: memref<?x64x?xf32, strided<[?, ?, ?], offset: ?>> {onnx.name = "Kt"}, %arg3: memref<?x?x?xf32> {bufferize.result, onnx.name = "probs"}, %arg4: memref<?x?x?xf32> {bufferize.result, onnx.name = "scores"}) {
// TWO-NOT:  memref.alloc
// TWO:      hip.hipblaslt.matmul(%arg0) ins(%arg1, %arg2 : {{.*}}) outs(%arg4 : memref<?x?x?xf32>)
// TWO:      hip.miopen.softmax(%arg0) ins(%arg4 : memref<?x?x?xf32>) outs(%arg3 : memref<?x?x?xf32>)

// The output is a merge view of the last transpose's buffer: that buffer
// becomes the split view of the output, and nothing is copied.
// HEADS:      %[[OUT:.*]] = memref.expand_shape %arg2 {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%{{.*}}, %{{.*}}, 4, 64] : memref<?x?x256xf32> into memref<?x?x4x64xf32>
// HEADS-NEXT: hip.transpose(%arg0, %c1, %c2) ins(%{{.*}} : memref<?x4x?x64xf32>) outs(%[[OUT]] : memref<?x?x4x64xf32>)
// HEADS-NOT:  hip.copy
