// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// DeformConv: one `hip.deform_conv` into an empty (N, M, offset's o...);
// kernel_shape from the weight where absent, strides, dilations and pads
// defaulted per dim; `masked` tells a mask without a bias from a bias.

func.func @deform_conv(%ctx: !hip.context, %x: tensor<?x4x5x6xf32>, %w: tensor<6x2x2x3xf32>, %offset: tensor<?x24x4x4xf32>) -> tensor<?x6x4x4xf32> {
  %0 = "onnx.DeformConv"(%x, %w, %offset) {group = 2 : si64, offset_group = 2 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, onnx_node_name = "dc"} : (tensor<?x4x5x6xf32>, tensor<6x2x2x3xf32>, tensor<?x24x4x4xf32>) -> tensor<?x6x4x4xf32>
  func.return %0 : tensor<?x6x4x4xf32>
}

func.func @deform_conv_bias_mask(%ctx: !hip.context, %x: tensor<1x2x5x5xf32>, %w: tensor<3x2x2x2xf32>, %offset: tensor<1x8x2x2xf32>, %b: tensor<3xf32>, %mask: tensor<1x4x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %0 = "onnx.DeformConv"(%x, %w, %offset, %b, %mask) {kernel_shape = [2 : si64, 2 : si64], strides = [2 : si64, 2 : si64], dilations = [1 : si64, 2 : si64], pads = [0 : si64, 1 : si64, 0 : si64, 0 : si64], operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, onnx_node_name = "dc"} : (tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>, tensor<1x8x2x2xf32>, tensor<3xf32>, tensor<1x4x2x2xf32>) -> tensor<1x3x2x2xf32>
  func.return %0 : tensor<1x3x2x2xf32>
}

func.func @deform_conv_mask_1d(%ctx: !hip.context, %x: tensor<2x3x7xf64>, %w: tensor<3x3x3xf64>, %offset: tensor<2x3x5xf64>, %mask: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  %0 = "onnx.DeformConv"(%x, %w, %offset, %mask) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>, onnx_node_name = "dc"} : (tensor<2x3x7xf64>, tensor<3x3x3xf64>, tensor<2x3x5xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  func.return %0 : tensor<2x3x5xf64>
}

// CHECK-LABEL: func.func @deform_conv(
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x4x5x6xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x6x4x4xf32>
// CHECK-NEXT:  %1 = hip.deform_conv(%ctx) ins(%x, %w, %offset : tensor<?x4x5x6xf32>, tensor<6x2x2x3xf32>, tensor<?x24x4x4xf32>) outs(%0 : tensor<?x6x4x4xf32>) {kernel = array<i64: 2, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 2 : i64, offset_group = 2 : i64} -> tensor<?x6x4x4xf32>
// CHECK-NEXT:  func.return %1 : tensor<?x6x4x4xf32>

// CHECK-LABEL: func.func @deform_conv_bias_mask(
// CHECK-NEXT:  %0 = tensor.empty() : tensor<1x3x2x2xf32>
// CHECK-NEXT:  %1 = hip.deform_conv(%ctx) ins(%x, %w, %offset, %b, %mask : tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>, tensor<1x8x2x2xf32>, tensor<3xf32>, tensor<1x4x2x2xf32>) outs(%0 : tensor<1x3x2x2xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 0>, group = 1 : i64, offset_group = 1 : i64, masked} -> tensor<1x3x2x2xf32>
// CHECK-NEXT:  func.return %1 : tensor<1x3x2x2xf32>

// CHECK-LABEL: func.func @deform_conv_mask_1d(
// CHECK-NEXT:  %0 = tensor.empty() : tensor<2x3x5xf64>
// CHECK-NEXT:  %1 = hip.deform_conv(%ctx) ins(%x, %w, %offset, %mask : tensor<2x3x7xf64>, tensor<3x3x3xf64>, tensor<2x3x5xf64>, tensor<2x3x5xf64>) outs(%0 : tensor<2x3x5xf64>) {kernel = array<i64: 3>, strides = array<i64: 1>, dilations = array<i64: 1>, pads = array<i64: 0, 0>, group = 1 : i64, offset_group = 1 : i64, masked} -> tensor<2x3x5xf64>
// CHECK-NEXT:  func.return %1 : tensor<2x3x5xf64>
