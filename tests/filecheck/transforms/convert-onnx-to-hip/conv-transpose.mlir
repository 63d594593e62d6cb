// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// output_shape decides the pads (the spec's formula, the odd one at the end
// where NOTSET): 10 and 8 are one more than the transposed convolution gives,
// so the pads stay 0 and the output padding grows to 1. The workspace is one
// image's column matrix: M * kh * kw * h * w = 3 * 9 * 9.

func.func @conv_transpose_output_shape(%ctx: !hip.context, %x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x10x8xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w) {auto_pad = "NOTSET", group = 1 : si64, strides = [3, 2], output_shape = [10, 8], onnx_node_name = "ct"} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x10x8xf32>
  func.return %0 : tensor<1x3x10x8xf32>
}
// CHECK-LABEL: func.func @conv_transpose_output_shape
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x3x10x8xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<243xf32>
// CHECK-NEXT:    %2, %3 = hip.miopen.conv_transpose(%ctx) ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) outs(%0, %1 : tensor<1x3x10x8xf32>, tensor<243xf32>) {strides = array<i64: 3, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64, output_padding = array<i64: 1, 1>} -> (tensor<1x3x10x8xf32>, tensor<243xf32>)
// CHECK-NEXT:    func.return %2 : tensor<1x3x10x8xf32>

// Dynamic N, H and W: the output size is stride * in + (output_padding +
// dil * (k - 1) + 1 - stride - pads), the workspace M * K * h * w.

func.func @conv_transpose_dynamic(%ctx: !hip.context, %x: tensor<?x4x?x?xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<?x6x?x?xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w, %b) {auto_pad = "NOTSET", group = 2 : si64, strides = [2, 1], pads = [1, 0, 0, 1], output_padding = [1, 0], onnx_node_name = "ct"} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>, tensor<6xf32>) -> tensor<?x6x?x?xf32>
  func.return %0 : tensor<?x6x?x?xf32>
}
// CHECK-LABEL: func.func @conv_transpose_dynamic
// CHECK-NEXT:    %c36 = arith.constant 36 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4x?x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c2 : tensor<?x4x?x?xf32>
// CHECK-NEXT:    %0 = arith.muli %dim_1, %c2 : index
// CHECK-NEXT:    %1 = arith.addi %0, %c1 : index
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c3 : tensor<?x4x?x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim, %1, %dim_2) : tensor<?x6x?x?xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c2 : tensor<?x4x?x?xf32>
// CHECK-NEXT:    %dim_4 = tensor.dim %x, %c3 : tensor<?x4x?x?xf32>
// CHECK-NEXT:    %3 = arith.muli %c36, %dim_3 : index
// CHECK-NEXT:    %4 = arith.muli %3, %dim_4 : index
// CHECK-NEXT:    %5 = tensor.empty(%4) : tensor<?xf32>
// CHECK-NEXT:    %6, %7 = hip.miopen.conv_transpose(%ctx) ins(%x, %w, %b : tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>, tensor<6xf32>) outs(%2, %5 : tensor<?x6x?x?xf32>, tensor<?xf32>) {strides = array<i64: 2, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 1>, group = 2 : i64, output_padding = array<i64: 1, 0>} -> (tensor<?x6x?x?xf32>, tensor<?xf32>)
// CHECK-NEXT:    func.return %6 : tensor<?x6x?x?xf32>

// A 1x1 kernel, unit strides, no pads: the GEMM writes y, an empty workspace.

func.func @conv_transpose_1x1(%ctx: !hip.context, %x: tensor<2x4x5xf32>, %w: tensor<4x7x1xf32>) -> tensor<2x7x5xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w) {auto_pad = "NOTSET", group = 1 : si64, onnx_node_name = "ct"} : (tensor<2x4x5xf32>, tensor<4x7x1xf32>) -> tensor<2x7x5xf32>
  func.return %0 : tensor<2x7x5xf32>
}
// CHECK-LABEL: func.func @conv_transpose_1x1
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x7x5xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<0xf32>
// CHECK-NEXT:    %2, %3 = hip.miopen.conv_transpose(%ctx) ins(%x, %w : tensor<2x4x5xf32>, tensor<4x7x1xf32>) outs(%0, %1 : tensor<2x7x5xf32>, tensor<0xf32>) {strides = array<i64: 1>, dilations = array<i64: 1>, pads = array<i64: 0, 0>, group = 1 : i64, output_padding = array<i64: 0>} -> (tensor<2x7x5xf32>, tensor<0xf32>)
// CHECK-NEXT:    func.return %2 : tensor<2x7x5xf32>

// LpPool keeps its window as MaxPool does; ceil_mode on the dynamic H.

func.func @lp_pool(%ctx: !hip.context, %x: tensor<1x3x?x7xf32>) -> tensor<1x3x?x4xf32> {
  %0 = "onnx.LpPool"(%x) {auto_pad = "NOTSET", ceil_mode = 1 : si64, kernel_shape = [2, 3], strides = [2, 2], pads = [0, 1, 0, 1], p = 3 : si64, onnx_node_name = "lp"} : (tensor<1x3x?x7xf32>) -> tensor<1x3x?x4xf32>
  func.return %0 : tensor<1x3x?x4xf32>
}
// CHECK-LABEL: func.func @lp_pool
// CHECK-NEXT:    %c = arith.constant -2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c2 : tensor<1x3x?x7xf32>
// CHECK-NEXT:    %0 = arith.addi %dim, %c : index
// CHECK-NEXT:    %1 = arith.ceildivsi %0, %c2 : index
// CHECK-NEXT:    %2 = arith.addi %1, %c1 : index
// CHECK-NEXT:    %3 = arith.ceildivsi %dim, %c2 : index
// CHECK-NEXT:    %4 = arith.minsi %2, %3 : index
// CHECK-NEXT:    %5 = tensor.empty(%4) : tensor<1x3x?x4xf32>
// CHECK-NEXT:    %6 = hip.miopen.lp_pool(%ctx) ins(%x : tensor<1x3x?x7xf32>) outs(%5 : tensor<1x3x?x4xf32>) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 1, 0, 1>, kernel_shape = array<i64: 2, 3>, ceil_mode, p = 3 : i64} -> tensor<1x3x?x4xf32>
// CHECK-NEXT:    func.return %6 : tensor<1x3x?x4xf32>
