// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Gemm keeps the attributes that differ from the spec's defaults (beta only
// with a C); M comes from A, N from B, each after its transposition.
func.func @gemm(%ctx: !hip.context, %a: tensor<8x?xf32>, %b: tensor<?x8xf32>, %c: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x8xf32>) {
  %0 = "onnx.Gemm"(%a, %b, %c) <{alpha = 2.000000e+00 : f32, beta = 5.000000e-01 : f32, transA = 1 : si64, transB = 1 : si64}> {onnx_node_name = "g1"} : (tensor<8x?xf32>, tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.Gemm"(%0, %b) <{beta = 5.000000e-01 : f32}> {onnx_node_name = "g2"} : (tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  func.return %0, %1 : tensor<?x?xf32>, tensor<?x8xf32>
}
// CHECK-LABEL: func.func @gemm
// CHECK:         %dim = tensor.dim %a, %c1 : tensor<8x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %b, %c0 : tensor<?x8xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xf32>
// CHECK-NEXT:    %1 = hip.hipblaslt.gemm(%ctx) ins(%a, %b, %c : tensor<8x?xf32>, tensor<?x8xf32>, tensor<?xf32>) outs(%0 : tensor<?x?xf32>) {trans_a, trans_b, alpha = 2.000000e+00 : f32, beta = 5.000000e-01 : f32} -> tensor<?x?xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %1, %c0 : tensor<?x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2) : tensor<?x8xf32>
// CHECK-NEXT:    %3 = hip.hipblaslt.gemm(%ctx) ins(%1, %b : tensor<?x?xf32>, tensor<?x8xf32>) outs(%2 : tensor<?x8xf32>) -> tensor<?x8xf32>

// Relu; Softmax on the last axis (the hip default, not spelled out) and on
// another one (normalized).
func.func @relu_softmax(%ctx: !hip.context, %x: tensor<2x?x4xf32>) -> (tensor<2x?x4xf32>, tensor<2x?x4xf32>) {
  %0 = "onnx.Relu"(%x) {onnx_node_name = "relu"} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %1 = "onnx.Softmax"(%0) <{axis = 2 : si64}> {onnx_node_name = "sm_last"} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %2 = "onnx.Softmax"(%0) <{axis = -2 : si64}> {onnx_node_name = "sm_mid"} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  func.return %1, %2 : tensor<2x?x4xf32>, tensor<2x?x4xf32>
}
// CHECK-LABEL: func.func @relu_softmax
// CHECK:         %1 = hip.miopen.relu(%ctx) ins(%x : tensor<2x?x4xf32>) outs(%0 : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
// CHECK:         hip.miopen.softmax(%ctx) ins(%1 : tensor<2x?x4xf32>) outs(%{{.*}} : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
// CHECK:         hip.miopen.softmax(%ctx) ins(%1 : tensor<2x?x4xf32>) outs(%{{.*}} : tensor<2x?x4xf32>) {axis = 1 : i64} -> tensor<2x?x4xf32>

// Transpose: one swap is hip.transpose with the two dims as index operands,
// any other permutation hip.permute, the identity nothing; Identity is its input.
func.func @transpose(%ctx: !hip.context, %x: tensor<?x3x?x5xf32>) -> (tensor<?x?x3x5xf32>, tensor<5x?x?x3xf32>, tensor<?x3x?x5xf32>) {
  %0 = "onnx.Transpose"(%x) <{perm = [0, 2, 1, 3]}> {onnx_node_name = "swap"} : (tensor<?x3x?x5xf32>) -> tensor<?x?x3x5xf32>
  %1 = "onnx.Transpose"(%x) <{perm = [3, 0, 2, 1]}> {onnx_node_name = "perm"} : (tensor<?x3x?x5xf32>) -> tensor<5x?x?x3xf32>
  %2 = "onnx.Transpose"(%x) <{perm = [0, 1, 2, 3]}> {onnx_node_name = "same"} : (tensor<?x3x?x5xf32>) -> tensor<?x3x?x5xf32>
  %3 = "onnx.Identity"(%2) {onnx_node_name = "id"} : (tensor<?x3x?x5xf32>) -> tensor<?x3x?x5xf32>
  func.return %0, %1, %3 : tensor<?x?x3x5xf32>, tensor<5x?x?x3xf32>, tensor<?x3x?x5xf32>
}
// CHECK-LABEL: func.func @transpose
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x?x5xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c2 : tensor<?x3x?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x3x5xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c1, %c2) ins(%x : tensor<?x3x?x5xf32>) outs(%0 : tensor<?x?x3x5xf32>) -> tensor<?x?x3x5xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x3x?x5xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c2 : tensor<?x3x?x5xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2, %dim_3) : tensor<5x?x?x3xf32>
// CHECK-NEXT:    %3 = hip.permute(%ctx) ins(%x : tensor<?x3x?x5xf32>) outs(%2 : tensor<5x?x?x3xf32>) {perm = array<i64: 3, 0, 2, 1>} -> tensor<5x?x?x3xf32>
// CHECK-NEXT:    func.return %1, %3, %x : tensor<?x?x3x5xf32>, tensor<5x?x?x3xf32>, tensor<?x3x?x5xf32>

// The EntryPoint goes.
// CHECK-NOT: onnx.EntryPoint
"onnx.EntryPoint"() <{func = @transpose}> : () -> ()
