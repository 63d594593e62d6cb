// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// CausalConvWithState: the input after k - 1 zeros (hip.pad) or after
// past_state (hip.concat), a depthwise hip.miopen.conv (group = channels),
// hip.miopen.swish for silu, and present_state the padded input's last k - 1
// steps (hip.slice).

func.func @causal_conv_silu(%ctx: !hip.context, %x: tensor<2x4x8xf32>, %w: tensor<4x1x3xf32>, %bias: tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x2xf32>) {
  %0, %1 = "onnx.CausalConvWithState"(%x, %w, %bias) <{activation = "silu", operandSegmentSizes = array<i32: 1, 1, 1, 0>}> {onnx_node_name = "cc"} : (tensor<2x4x8xf32>, tensor<4x1x3xf32>, tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x2xf32>)
  func.return %0, %1 : tensor<2x4x8xf32>, tensor<2x4x2xf32>
}

// CHECK-LABEL: func.func @causal_conv_silu
// CHECK-NEXT:  %c8 = arith.constant 8 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<2> : tensor<1xi64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<9223372036854775807> : tensor<1xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<-2> : tensor<1xi64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[0, 0, 2, 0, 0, 0]> : tensor<6xi64>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x4x10xf32>
// CHECK-NEXT:  %1 = hip.pad(%ctx, %c0, %c0, %c2, %c0, %c0, %c0) ins(%x : tensor<2x4x8xf32>) outs(%0 : tensor<2x4x10xf32>) {mode = "constant"} -> tensor<2x4x10xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x4x8xf32>
// CHECK-NEXT:  %3 = tensor.empty() : tensor<96xf32>
// CHECK-NEXT:  %4, %5 = hip.miopen.conv(%ctx) ins(%1, %w, %bias : tensor<2x4x10xf32>, tensor<4x1x3xf32>, tensor<4xf32>) outs(%2, %3 : tensor<2x4x8xf32>, tensor<96xf32>) {strides = array<i64: 1>, dilations = array<i64: 1>, pads = array<i64: 0, 0>, group = 4 : i64} -> (tensor<2x4x8xf32>, tensor<96xf32>)
// CHECK-NEXT:  %6 = tensor.empty() : tensor<2x4x8xf32>
// CHECK-NEXT:  %7 = hip.miopen.swish(%ctx) ins(%4 : tensor<2x4x8xf32>) outs(%6 : tensor<2x4x8xf32>) {alpha = 1.000000e+00 : f64} -> tensor<2x4x8xf32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<2x4x2xf32>
// CHECK-NEXT:  %9 = hip.slice(%ctx, %c0, %c0, %c8) ins(%1 : tensor<2x4x10xf32>) outs(%8 : tensor<2x4x2xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<2x4x2xf32>
// CHECK-NEXT:  func.return %7, %9 : tensor<2x4x8xf32>, tensor<2x4x2xf32>

func.func @causal_conv_past(%ctx: !hip.context, %x: tensor<2x4x1xf32>, %w: tensor<4x1x3xf32>, %p: tensor<2x4x2xf32>) -> (tensor<2x4x1xf32>, tensor<2x4x2xf32>) {
  %0, %1 = "onnx.CausalConvWithState"(%x, %w, %p) <{activation = "none", operandSegmentSizes = array<i32: 1, 1, 0, 1>}> {onnx_node_name = "cc"} : (tensor<2x4x1xf32>, tensor<4x1x3xf32>, tensor<2x4x2xf32>) -> (tensor<2x4x1xf32>, tensor<2x4x2xf32>)
  func.return %0, %1 : tensor<2x4x1xf32>, tensor<2x4x2xf32>
}

// CHECK-LABEL: func.func @causal_conv_past
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<2> : tensor<1xi64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<9223372036854775807> : tensor<1xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<-2> : tensor<1xi64>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x4x3xf32>
// CHECK-NEXT:  %1 = hip.concat(%ctx) ins(%p, %x : tensor<2x4x2xf32>, tensor<2x4x1xf32>) outs(%0 : tensor<2x4x3xf32>) {axis = 2 : i64} -> tensor<2x4x3xf32>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<2x4x1xf32>
// CHECK-NEXT:  %3 = tensor.empty() : tensor<12xf32>
// CHECK-NEXT:  %4, %5 = hip.miopen.conv(%ctx) ins(%1, %w : tensor<2x4x3xf32>, tensor<4x1x3xf32>) outs(%2, %3 : tensor<2x4x1xf32>, tensor<12xf32>) {strides = array<i64: 1>, dilations = array<i64: 1>, pads = array<i64: 0, 0>, group = 4 : i64} -> (tensor<2x4x1xf32>, tensor<12xf32>)
// CHECK-NEXT:  %6 = tensor.empty() : tensor<2x4x2xf32>
// CHECK-NEXT:  %7 = hip.slice(%ctx, %c0, %c0, %c1) ins(%1 : tensor<2x4x3xf32>) outs(%6 : tensor<2x4x2xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<2x4x2xf32>
// CHECK-NEXT:  func.return %4, %7 : tensor<2x4x1xf32>, tensor<2x4x2xf32>
