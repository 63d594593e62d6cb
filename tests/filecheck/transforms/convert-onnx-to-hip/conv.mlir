// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// auto_pad SAME_UPPER with a stride of 2 on static sizes: the pads are made
// explicit (the odd one at the end), the output is ceil(size / stride). The
// workspace is the im2col matrix of one image: C * kh * kw * oh * ow.

func.func @conv_auto_pad(%ctx: !hip.context, %x: tensor<1x2x7x6xf32>, %w: tensor<4x2x3x2xf32>) -> tensor<1x4x4x3xf32> {
  %0 = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER", group = 1 : si64, kernel_shape = [3, 2], strides = [2, 2], onnx_node_name = "conv"} : (tensor<1x2x7x6xf32>, tensor<4x2x3x2xf32>) -> tensor<1x4x4x3xf32>
  func.return %0 : tensor<1x4x4x3xf32>
}
// CHECK-LABEL: func.func @conv_auto_pad
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x4x4x3xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<144xf32>
// CHECK-NEXT:    %2, %3 = hip.miopen.conv(%ctx) ins(%x, %w : tensor<1x2x7x6xf32>, tensor<4x2x3x2xf32>) outs(%0, %1 : tensor<1x4x4x3xf32>, tensor<144xf32>) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 0, 1, 0>, group = 1 : i64} -> (tensor<1x4x4x3xf32>, tensor<144xf32>)
// CHECK-NEXT:    func.return %2 : tensor<1x4x4x3xf32>

// Dynamic N, H and W: each output size is index arithmetic of the input's
// tensor.dim, (h + pb + pe - dil * (k - 1) - 1) floordiv s + 1, and the
// workspace's size is the product of those sizes and the static C * k.

func.func @conv_dynamic_hw(%ctx: !hip.context, %x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<?x8x?x?xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {auto_pad = "NOTSET", group = 1 : si64, pads = [1, 0, 1, 2], strides = [2, 1], dilations = [1, 2], onnx_node_name = "conv"} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<?x8x?x?xf32>
  func.return %0 : tensor<?x8x?x?xf32>
}
// CHECK-LABEL: func.func @conv_dynamic_hw
// CHECK-NEXT:    %c27 = arith.constant 27 : index
// CHECK-NEXT:    %c = arith.constant -3 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c_1 = arith.constant -1 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x?x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c2 : tensor<?x3x?x?xf32>
// CHECK-NEXT:    %0 = arith.addi %dim_1, %c_1 : index
// CHECK-NEXT:    %1 = arith.floordivsi %0, %c2 : index
// CHECK-NEXT:    %2 = arith.addi %1, %c1 : index
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c3 : tensor<?x3x?x?xf32>
// CHECK-NEXT:    %3 = arith.addi %dim_2, %c : index
// CHECK-NEXT:    %4 = arith.addi %3, %c1 : index
// CHECK-NEXT:    %5 = tensor.empty(%dim, %2, %4) : tensor<?x8x?x?xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %5, %c2 : tensor<?x8x?x?xf32>
// CHECK-NEXT:    %dim_4 = tensor.dim %5, %c3 : tensor<?x8x?x?xf32>
// CHECK-NEXT:    %6 = arith.muli %dim_3, %dim_4 : index
// CHECK-NEXT:    %7 = arith.muli %6, %c27 : index
// CHECK-NEXT:    %8 = tensor.empty(%7) : tensor<?xf32>
// CHECK-NEXT:    %9, %10 = hip.miopen.conv(%ctx) ins(%x, %w, %b : tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) outs(%5, %8 : tensor<?x8x?x?xf32>, tensor<?xf32>) {strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, pads = array<i64: 1, 0, 1, 2>, group = 1 : i64} -> (tensor<?x8x?x?xf32>, tensor<?xf32>)
// CHECK-NEXT:    func.return %9 : tensor<?x8x?x?xf32>

// Groups: a depthwise conv keeps `group`; a 1x1 conv with unit strides and no
// pads needs no im2col matrix, so its workspace is empty.

func.func @conv_groups(%ctx: !hip.context, %x: tensor<2x6x5x5xf32>, %d: tensor<6x1x3x3xf32>, %p: tensor<4x3x1x1xf32>) -> tensor<2x4x3x3xf32> {
  %0 = "onnx.Conv"(%x, %d) {auto_pad = "VALID", group = 6 : si64, onnx_node_name = "depthwise"} : (tensor<2x6x5x5xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x3x3xf32>
  %1 = "onnx.Conv"(%0, %p) {auto_pad = "NOTSET", group = 2 : si64, onnx_node_name = "pointwise"} : (tensor<2x6x3x3xf32>, tensor<4x3x1x1xf32>) -> tensor<2x4x3x3xf32>
  func.return %1 : tensor<2x4x3x3xf32>
}
// CHECK-LABEL: func.func @conv_groups
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x6x3x3xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<486xf32>
// CHECK-NEXT:    %2, %3 = hip.miopen.conv(%ctx) ins(%x, %d : tensor<2x6x5x5xf32>, tensor<6x1x3x3xf32>) outs(%0, %1 : tensor<2x6x3x3xf32>, tensor<486xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 6 : i64} -> (tensor<2x6x3x3xf32>, tensor<486xf32>)
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2x4x3x3xf32>
// CHECK-NEXT:    %5 = tensor.empty() : tensor<0xf32>
// CHECK-NEXT:    %6, %7 = hip.miopen.conv(%ctx) ins(%2, %p : tensor<2x6x3x3xf32>, tensor<4x3x1x1xf32>) outs(%4, %5 : tensor<2x4x3x3xf32>, tensor<0xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 2 : i64} -> (tensor<2x4x3x3xf32>, tensor<0xf32>)
// CHECK-NEXT:    func.return %6 : tensor<2x4x3x3xf32>

// Pooling: ceil_mode only changes the output size, min(ceildiv(h + pb + pe -
// dil * (k - 1) - 1, s) + 1, ceildiv(h + pb, s)) (the last window starts
// inside the input or its begin pad); MaxPool's used Indices get an i64 init.
// A global pool has no kernel_shape: it takes the input's spatial sizes.

func.func @pool_ceil_mode(%ctx: !hip.context, %x: tensor<1x3x?x5xf32>) -> (tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>, tensor<1x3x?x3xf32>, tensor<1x3x1x1xf32>) {
  %0, %1 = "onnx.MaxPool"(%x) {auto_pad = "NOTSET", ceil_mode = 1 : si64, kernel_shape = [2, 2], strides = [2, 2], pads = [1, 0, 0, 0], storage_order = 0 : si64, onnx_node_name = "max"} : (tensor<1x3x?x5xf32>) -> (tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>)
  %2 = "onnx.AveragePool"(%x) {auto_pad = "NOTSET", ceil_mode = 1 : si64, count_include_pad = 1 : si64, kernel_shape = [3, 2], strides = [2, 2], onnx_node_name = "avg"} : (tensor<1x3x?x5xf32>) -> tensor<1x3x?x3xf32>
  %3 = "onnx.GlobalAveragePool"(%x) {onnx_node_name = "global"} : (tensor<1x3x?x5xf32>) -> tensor<1x3x1x1xf32>
  func.return %0, %1, %2, %3 : tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>, tensor<1x3x?x3xf32>, tensor<1x3x1x1xf32>
}
// CHECK-LABEL: func.func @pool_ceil_mode
// CHECK-NEXT:    %c = arith.constant -3 : index
// CHECK-NEXT:    %c_1 = arith.constant -1 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c2 : tensor<1x3x?x5xf32>
// CHECK-NEXT:    %0 = arith.addi %dim, %c_1 : index
// CHECK-NEXT:    %1 = arith.ceildivsi %0, %c2 : index
// CHECK-NEXT:    %2 = arith.addi %1, %c1 : index
// CHECK-NEXT:    %3 = arith.addi %dim, %c1 : index
// CHECK-NEXT:    %4 = arith.ceildivsi %3, %c2 : index
// CHECK-NEXT:    %5 = arith.minsi %2, %4 : index
// CHECK-NEXT:    %6 = tensor.empty(%5) : tensor<1x3x?x3xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c2 : tensor<1x3x?x5xf32>
// CHECK-NEXT:    %7 = arith.addi %dim_1, %c_1 : index
// CHECK-NEXT:    %8 = arith.ceildivsi %7, %c2 : index
// CHECK-NEXT:    %9 = arith.addi %8, %c1 : index
// CHECK-NEXT:    %10 = arith.addi %dim_1, %c1 : index
// CHECK-NEXT:    %11 = arith.ceildivsi %10, %c2 : index
// CHECK-NEXT:    %12 = arith.minsi %9, %11 : index
// CHECK-NEXT:    %13 = tensor.empty(%12) : tensor<1x3x?x3xi64>
// CHECK-NEXT:    %14, %15 = hip.miopen.max_pool(%ctx) ins(%x : tensor<1x3x?x5xf32>) outs(%6, %13 : tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 0>, kernel_shape = array<i64: 2, 2>, ceil_mode} -> (tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>)
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c2 : tensor<1x3x?x5xf32>
// CHECK-NEXT:    %16 = arith.addi %dim_2, %c : index
// CHECK-NEXT:    %17 = arith.ceildivsi %16, %c2 : index
// CHECK-NEXT:    %18 = arith.addi %17, %c1 : index
// CHECK-NEXT:    %19 = arith.ceildivsi %dim_2, %c2 : index
// CHECK-NEXT:    %20 = arith.minsi %18, %19 : index
// CHECK-NEXT:    %21 = tensor.empty(%20) : tensor<1x3x?x3xf32>
// CHECK-NEXT:    %22 = hip.miopen.average_pool(%ctx) ins(%x : tensor<1x3x?x5xf32>) outs(%21 : tensor<1x3x?x3xf32>) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, kernel_shape = array<i64: 3, 2>, ceil_mode, count_include_pad} -> tensor<1x3x?x3xf32>
// CHECK-NEXT:    %23 = tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT:    %24 = hip.miopen.average_pool(%ctx) ins(%x : tensor<1x3x?x5xf32>) outs(%23 : tensor<1x3x1x1xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} -> tensor<1x3x1x1xf32>
// CHECK-NEXT:    func.return %14, %15, %22, %24 : tensor<1x3x?x3xf32>, tensor<1x3x?x3xi64>, tensor<1x3x?x3xf32>, tensor<1x3x1x1xf32>
