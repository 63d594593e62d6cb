// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Einsum lowers to existing hip ops. Attention scores: the second operand is
// permuted to (batch, contracted, own) by one swap, then one batched matmul.

func.func @scores(%ctx: !hip.context, %q: tensor<?x8x?x64xf32>, %k: tensor<?x8x?x64xf32>) -> tensor<?x8x?x?xf32> {
  %0 = "onnx.Einsum"(%q, %k) {equation = "bhqd,bhkd->bhqk", onnx_node_name = "scores"} : (tensor<?x8x?x64xf32>, tensor<?x8x?x64xf32>) -> tensor<?x8x?x?xf32>
  func.return %0 : tensor<?x8x?x?xf32>
}
// CHECK-LABEL: func.func @scores
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %k, %c0 : tensor<?x8x?x64xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %k, %c2 : tensor<?x8x?x64xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x8x64x?xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c2, %c3) ins(%k : tensor<?x8x?x64xf32>) outs(%0 : tensor<?x8x64x?xf32>) -> tensor<?x8x64x?xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %q, %c0 : tensor<?x8x?x64xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %q, %c2 : tensor<?x8x?x64xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2, %dim_3, %dim_1) : tensor<?x8x?x?xf32>
// CHECK-NEXT:    %3 = hip.hipblaslt.matmul(%ctx) ins(%q, %1 : tensor<?x8x?x64xf32>, tensor<?x8x64x?xf32>) outs(%2 : tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
// CHECK-NEXT:    func.return %3 : tensor<?x8x?x?xf32>

// Already in matmul order (spaces allowed): the matmul alone.

func.func @batch_matmul(%ctx: !hip.context, %a: tensor<5x2x3xf64>, %b: tensor<5x3x4xf64>) -> tensor<5x2x4xf64> {
  %0 = "onnx.Einsum"(%a, %b) {equation = "bij, bjk -> bik", onnx_node_name = "bmm"} : (tensor<5x2x3xf64>, tensor<5x3x4xf64>) -> tensor<5x2x4xf64>
  func.return %0 : tensor<5x2x4xf64>
}
// CHECK-LABEL: func.func @batch_matmul
// CHECK-NEXT:    %0 = tensor.empty() : tensor<5x2x4xf64>
// CHECK-NEXT:    %1 = hip.hipblaslt.matmul(%ctx) ins(%a, %b : tensor<5x2x3xf64>, tensor<5x3x4xf64>) outs(%0 : tensor<5x2x4xf64>) -> tensor<5x2x4xf64>
// CHECK-NEXT:    func.return %1 : tensor<5x2x4xf64>

// An ellipsis on one side only: its dims belong to that operand, so they
// collapse with `i` into one GEMM's rows and expand back after it.

func.func @ellipsis(%ctx: !hip.context, %a: tensor<?x2x3x4xf32>, %w: tensor<4x5xf32>) -> tensor<?x2x3x5xf32> {
  %0 = "onnx.Einsum"(%a, %w) {equation = "...ij,...jk->...ik", onnx_node_name = "proj"} : (tensor<?x2x3x4xf32>, tensor<4x5xf32>) -> tensor<?x2x3x5xf32>
  func.return %0 : tensor<?x2x3x5xf32>
}
// CHECK-LABEL: func.func @ellipsis
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.collapse_shape %a [[0 : i64, 1 : i64, 2 : i64], [3 : i64]] : tensor<?x2x3x4xf32> into tensor<?x4xf32>
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x2x3x4xf32>
// CHECK-NEXT:    %1 = arith.muli %dim, %c2 : index
// CHECK-NEXT:    %2 = arith.muli %1, %c3 : index
// CHECK-NEXT:    %3 = tensor.empty(%2) : tensor<?x5xf32>
// CHECK-NEXT:    %4 = hip.hipblaslt.matmul(%ctx) ins(%0, %w : tensor<?x4xf32>, tensor<4x5xf32>) outs(%3 : tensor<?x5xf32>) -> tensor<?x5xf32>
// CHECK-NEXT:    %5 = tensor.expand_shape %4 [[0 : i64, 1 : i64, 2 : i64], [3 : i64]] output_shape [%dim, 2, 3, 5] : tensor<?x5xf32> into tensor<?x2x3x5xf32>
// CHECK-NEXT:    func.return %5 : tensor<?x2x3x5xf32>

// Two contracted letters (h, d): the first operand is permuted to put them
// last, both sides collapse them into one dim.

func.func @two_contracted(%ctx: !hip.context, %c: tensor<?x2x?x8xf32>, %w: tensor<2x8x6xf32>) -> tensor<?x?x6xf32> {
  %0 = "onnx.Einsum"(%c, %w) {equation = "bhqd,hde->bqe", onnx_node_name = "out"} : (tensor<?x2x?x8xf32>, tensor<2x8x6xf32>) -> tensor<?x?x6xf32>
  func.return %0 : tensor<?x?x6xf32>
}
// CHECK-LABEL: func.func @two_contracted
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %c, %c0 : tensor<?x2x?x8xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %c, %c2 : tensor<?x2x?x8xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x2x8xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c1, %c2) ins(%c : tensor<?x2x?x8xf32>) outs(%0 : tensor<?x?x2x8xf32>) -> tensor<?x?x2x8xf32>
// CHECK-NEXT:    %2 = tensor.collapse_shape %1 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<?x?x2x8xf32> into tensor<?x16xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %w [[0 : i64, 1 : i64], [2 : i64]] : tensor<2x8x6xf32> into tensor<16x6xf32>
// CHECK-NEXT:    %4 = arith.muli %dim, %dim_1 : index
// CHECK-NEXT:    %5 = tensor.empty(%4) : tensor<?x6xf32>
// CHECK-NEXT:    %6 = hip.hipblaslt.matmul(%ctx) ins(%2, %3 : tensor<?x16xf32>, tensor<16x6xf32>) outs(%5 : tensor<?x6xf32>) -> tensor<?x6xf32>
// CHECK-NEXT:    %7 = tensor.expand_shape %6 [[0 : i64, 1 : i64], [2 : i64]] output_shape [%dim, %dim_1, 6] : tensor<?x6xf32> into tensor<?x?x6xf32>
// CHECK-NEXT:    func.return %7 : tensor<?x?x6xf32>

// One operand: a permute, or a sum over the letters the output lacks.

func.func @one_operand(%ctx: !hip.context, %x: tensor<3x4xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<f32>) {
  %0 = "onnx.Einsum"(%x) {equation = "ij->ji", onnx_node_name = "t"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %1 = "onnx.Einsum"(%x) {equation = "ij->i", onnx_node_name = "rows"} : (tensor<3x4xf32>) -> tensor<3xf32>
  %2 = "onnx.Einsum"(%x) {equation = "ij->", onnx_node_name = "all"} : (tensor<3x4xf32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<4x3xf32>, tensor<3xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @one_operand
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4x3xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c0, %c1) ins(%x : tensor<3x4xf32>) outs(%0 : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:    %3 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<3x4xf32>) outs(%2 : tensor<3xf32>) {axes = array<i64: 1>} -> tensor<3xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %5 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<3x4xf32>) outs(%4 : tensor<f32>) {axes = array<i64: 0, 1>} -> tensor<f32>
// CHECK-NEXT:    func.return %1, %3, %5 : tensor<4x3xf32>, tensor<3xf32>, tensor<f32>

// No contracted letter: a broadcast multiply of unit-dim views (an outer
// product). Only contracted letters: numpy's 1-D matmul (an inner product).

func.func @outer_inner(%ctx: !hip.context, %a: tensor<?xf32>, %b: tensor<5xf32>) -> (tensor<?x5xf32>, tensor<f32>) {
  %0 = "onnx.Einsum"(%a, %b) {equation = "i,j->ij", onnx_node_name = "outer"} : (tensor<?xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  %1 = "onnx.Einsum"(%b, %b) {equation = "i,i", onnx_node_name = "inner"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  func.return %0, %1 : tensor<?x5xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @outer_inner
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?xf32>
// CHECK-NEXT:    %0 = tensor.expand_shape %a [[0 : i64, 1 : i64]] output_shape [%dim, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK-NEXT:    %1 = tensor.expand_shape %b [[0 : i64, 1 : i64]] output_shape [1, 5] : tensor<5xf32> into tensor<1x5xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim) : tensor<?x5xf32>
// CHECK-NEXT:    %3 = hip.miopen.mul(%ctx) ins(%0, %1 : tensor<?x1xf32>, tensor<1x5xf32>) outs(%2 : tensor<?x5xf32>) -> tensor<?x5xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %5 = hip.hipblaslt.matmul(%ctx) ins(%b, %b : tensor<5xf32>, tensor<5xf32>) outs(%4 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    func.return %3, %5 : tensor<?x5xf32>, tensor<f32>

// A repeated letter (a diagonal): the identity mask selects it, a sum over
// the second copy keeps it once.

func.func @diagonal(%ctx: !hip.context, %x: tensor<?x3x3xf32>) -> tensor<?x3xf32> {
  %0 = "onnx.Einsum"(%x) {equation = "...ii->...i", onnx_node_name = "diag"} : (tensor<?x3x3xf32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @diagonal
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<0.000000e+00> : tensor<1x1x1xf32>
// CHECK-NEXT:    %cst_1 = arith.constant dense<{{...}}true, false, false], [false, true, false], [false, false, true]]]> : tensor<1x3x3xi1>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x3xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3x3xf32>
// CHECK-NEXT:    %1 = hip.miopen.where(%ctx) ins(%cst_1, %x, %cst : tensor<1x3x3xi1>, tensor<?x3x3xf32>, tensor<1x1x1xf32>) outs(%0 : tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?x3x3xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x3xf32>
// CHECK-NEXT:    %3 = hip.miopen.reduce_sum(%ctx) ins(%1 : tensor<?x3x3xf32>) outs(%2 : tensor<?x3xf32>) {axes = array<i64: 2>} -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %3 : tensor<?x3xf32>
