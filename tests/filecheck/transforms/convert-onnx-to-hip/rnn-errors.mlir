// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// The recurrent ops are refused with the reason: a sequence length known
// only at run time (each step is its own ops), an activation ONNX does not
// list, weights whose rows are not the gates times hidden_size.

func.func @f(%ctx: !hip.context, %x: tensor<?x2x3xf32>, %x2: tensor<2x2x3xf32>, %w: tensor<1x9x3xf32>, %r: tensor<1x9x3xf32>, %w1: tensor<1x3x3xf32>, %r1: tensor<1x3x3xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>) {
  %0 = "onnx.GRU"(%x, %w, %r) <{hidden_size = 3 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 1>}> {onnx_node_name = "dynamic"} : (tensor<?x2x3xf32>, tensor<1x9x3xf32>, tensor<1x9x3xf32>) -> tensor<1x2x3xf32>
  %1 = "onnx.RNN"(%x2, %w1, %r1) <{activations = ["Swish"], hidden_size = 3 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 1>}> {onnx_node_name = "swish"} : (tensor<2x2x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>) -> tensor<1x2x3xf32>
  %2 = "onnx.RNN"(%x2, %w, %r) <{hidden_size = 3 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 1>}> {onnx_node_name = "gates"} : (tensor<2x2x3xf32>, tensor<1x9x3xf32>, tensor<1x9x3xf32>) -> tensor<1x2x3xf32>
  func.return %0, %1, %2 : tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.GRU (node 'dynamic'): the sequence length (X's dim 0) must be static
// CHECK-NEXT:   onnx.RNN (node 'swish'): activation 'Swish' is not supported
// CHECK-NEXT:   onnx.RNN (node 'gates'): W has shape 1x9x3; 1x3x? is needed
