// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// LSTM, GRU and RNN unrolled over their static sequence length
// (xhip/transforms/onnx_to_hip/rnn.py).

// RNN, two steps, a dynamic batch, Y_h only: Wb + Rb sliced from B and
// added; one gemm projects X of every step (viewed (S * B, I)) through W^T
// plus that bias; step 0 starts from zeros, so its recurrent gemm is skipped
// and its input goes straight to tanh; step 1 adds H R^T to its slice of the
// projection in a gemm. Y_h is the last H viewed (1, B, H).

func.func @rnn(%ctx: !hip.context, %x: tensor<2x?x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x8xf32>) -> tensor<1x?x4xf32> {
  %0 = "onnx.RNN"(%x, %w, %r, %b) <{hidden_size = 4 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, resultSegmentSizes = array<i32: 0, 1>}> {onnx_node_name = "rnn"} : (tensor<2x?x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x8xf32>) -> tensor<1x?x4xf32>
  func.return %0 : tensor<1x?x4xf32>
}
// CHECK-LABEL: func.func @rnn
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %c4 = arith.constant 4 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c1 : tensor<2x?x3xf32>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT:  %1 = hip.slice(%ctx, %c0, %c0) ins(%b : tensor<1x8xf32>) outs(%0 : tensor<1x4xf32>) {steps = array<i64: 1, 1>} -> tensor<1x4xf32>
// CHECK-NEXT:  %2 = tensor.collapse_shape %1 [[0 : i64, 1 : i64]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:  %3 = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT:  %4 = hip.slice(%ctx, %c0, %c4) ins(%b : tensor<1x8xf32>) outs(%3 : tensor<1x4xf32>) {steps = array<i64: 1, 1>} -> tensor<1x4xf32>
// CHECK-NEXT:  %5 = tensor.collapse_shape %4 [[0 : i64, 1 : i64]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:  %7 = hip.miopen.add(%ctx) ins(%2, %5 : tensor<4xf32>, tensor<4xf32>) outs(%6 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %8 = tensor.collapse_shape %w [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x4x3xf32> into tensor<4x3xf32>
// CHECK-NEXT:  %9 = tensor.collapse_shape %x [[0 : i64, 1 : i64], [2 : i64]] : tensor<2x?x3xf32> into tensor<?x3xf32>
// CHECK-NEXT:  %10 = arith.muli %c2, %dim : index
// CHECK-NEXT:  %11 = tensor.empty(%10) : tensor<?x4xf32>
// CHECK-NEXT:  %12 = hip.hipblaslt.gemm(%ctx) ins(%9, %8, %7 : tensor<?x3xf32>, tensor<4x3xf32>, tensor<4xf32>) outs(%11 : tensor<?x4xf32>) {trans_b} -> tensor<?x4xf32>
// CHECK-NEXT:  %13 = tensor.expand_shape %12 [[0 : i64, 1 : i64], [2 : i64]] output_shape [2, %dim, 4] : tensor<?x4xf32> into tensor<2x?x4xf32>
// CHECK-NEXT:  %14 = tensor.collapse_shape %r [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x4x4xf32> into tensor<4x4xf32>
// CHECK-NEXT:  %15 = tensor.empty(%dim) : tensor<1x?x4xf32>
// CHECK-NEXT:  %16 = hip.slice(%ctx, %c0, %c0, %c0) ins(%13 : tensor<2x?x4xf32>) outs(%15 : tensor<1x?x4xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<1x?x4xf32>
// CHECK-NEXT:  %17 = tensor.collapse_shape %16 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x?x4xf32> into tensor<?x4xf32>
// CHECK-NEXT:  %18 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:  %19 = hip.miopen.tanh(%ctx) ins(%17 : tensor<?x4xf32>) outs(%18 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:  %20 = tensor.empty(%dim) : tensor<1x?x4xf32>
// CHECK-NEXT:  %21 = hip.slice(%ctx, %c1, %c0, %c0) ins(%13 : tensor<2x?x4xf32>) outs(%20 : tensor<1x?x4xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<1x?x4xf32>
// CHECK-NEXT:  %22 = tensor.collapse_shape %21 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x?x4xf32> into tensor<?x4xf32>
// CHECK-NEXT:  %23 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:  %24 = hip.hipblaslt.gemm(%ctx) ins(%19, %14, %22 : tensor<?x4xf32>, tensor<4x4xf32>, tensor<?x4xf32>) outs(%23 : tensor<?x4xf32>) {trans_b} -> tensor<?x4xf32>
// CHECK-NEXT:  %25 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:  %26 = hip.miopen.tanh(%ctx) ins(%24 : tensor<?x4xf32>) outs(%25 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:  %27 = tensor.expand_shape %26 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, %dim, 4] : tensor<?x4xf32> into tensor<1x?x4xf32>
// CHECK-NEXT:  func.return %27 : tensor<1x?x4xf32>
// CHECK-NEXT:  }

// LSTM, one step, sequence_lens: the step runs where `0 < lens[b]`
// (`hip.miopen.less` on lens viewed (B, 1)); the four gate slices i, o, f, c
// of the step's projection (no bias, zero initial states: no gemm of H);
// Y is 0 past a row's end and the states H and C keep their values
// (`hip.miopen.where`; unused here, canonicalize erases them).

func.func @lstm_lens(%ctx: !hip.context, %x: tensor<1x2x1xf32>, %w: tensor<1x4x1xf32>, %r: tensor<1x4x1xf32>, %lens: tensor<2xi32>) -> tensor<1x1x2x1xf32> {
  %0 = "onnx.LSTM"(%x, %w, %r, %lens) <{hidden_size = 1 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}> {onnx_node_name = "lstm"} : (tensor<1x2x1xf32>, tensor<1x4x1xf32>, tensor<1x4x1xf32>, tensor<2xi32>) -> tensor<1x1x2x1xf32>
  func.return %0 : tensor<1x1x2x1xf32>
}
// CHECK-LABEL: func.func @lstm_lens
// CHECK:       %0 = tensor.expand_shape %lens [[0 : i64, 1 : i64]] output_shape [2, 1] : tensor<2xi32> into tensor<2x1xi32>
// CHECK:       %4 = hip.hipblaslt.gemm(%ctx) ins(%2, %1 : tensor<2x1xf32>, tensor<4x1xf32>) outs(%3 : tensor<2x4xf32>) {trans_b} -> tensor<2x4xf32>
// CHECK:       %5 = tensor.expand_shape %4 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
// CHECK:       %8 = hip.fill(%ctx) ins() outs(%7 : tensor<2x1xf32>) {value = 0.000000e+00 : f32} -> tensor<2x1xf32>
// CHECK:       %10 = hip.fill(%ctx) ins() outs(%9 : tensor<2x1xf32>) {value = 0.000000e+00 : f32} -> tensor<2x1xf32>
// CHECK:       %12 = hip.miopen.less(%ctx) ins(%cst_1, %0 : tensor<i32>, tensor<2x1xi32>) outs(%11 : tensor<2x1xi1>) -> tensor<2x1xi1>
// CHECK:       %14 = hip.slice(%ctx, %c0, %c0, %c0) ins(%5 : tensor<1x2x4xf32>) outs(%13 : tensor<1x2x4xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<1x2x4xf32>
// CHECK:       %17 = hip.slice(%ctx, %c0, %c0) ins(%15 : tensor<2x4xf32>) outs(%16 : tensor<2x1xf32>) {steps = array<i64: 1, 1>} -> tensor<2x1xf32>
// CHECK:       %19 = hip.slice(%ctx, %c0, %c1) ins(%15 : tensor<2x4xf32>) outs(%18 : tensor<2x1xf32>) {steps = array<i64: 1, 1>} -> tensor<2x1xf32>
// CHECK:       %21 = hip.slice(%ctx, %c0, %c2) ins(%15 : tensor<2x4xf32>) outs(%20 : tensor<2x1xf32>) {steps = array<i64: 1, 1>} -> tensor<2x1xf32>
// CHECK:       %23 = hip.slice(%ctx, %c0, %c3) ins(%15 : tensor<2x4xf32>) outs(%22 : tensor<2x1xf32>) {steps = array<i64: 1, 1>} -> tensor<2x1xf32>
// CHECK:       %43 = hip.miopen.where(%ctx) ins(%12, %41, %cst : tensor<2x1xi1>, tensor<2x1xf32>, tensor<f32>) outs(%42 : tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK:       %45 = hip.miopen.where(%ctx) ins(%12, %41, %8 : tensor<2x1xi1>, tensor<2x1xf32>, tensor<2x1xf32>) outs(%44 : tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK:       %47 = hip.miopen.where(%ctx) ins(%12, %35, %10 : tensor<2x1xi1>, tensor<2x1xf32>, tensor<2x1xf32>) outs(%46 : tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK:       %48 = tensor.expand_shape %43 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 2, 1] : tensor<2x1xf32> into tensor<1x2x1xf32>
// CHECK:       %49 = tensor.expand_shape %48 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 1, 2, 1] : tensor<1x2x1xf32> into tensor<1x1x2x1xf32>
// CHECK:       func.return %49 : tensor<1x1x2x1xf32>
