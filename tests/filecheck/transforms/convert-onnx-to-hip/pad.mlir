// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Pad: the pads become index operands, all begins then all ends; a negative
// pad crops. The output size is the input's plus both pads; a dynamic dim is
// sized from the input. The constant value is an `ins` operand.

func.func @pad_constant(%ctx: !hip.context, %x: tensor<?x3x4xf32>, %v: tensor<f32>) -> tensor<?x4x9xf32> {
  %pads = "onnx.Constant"() {value = dense<[0, 1, -1, 0, 0, 6]> : tensor<6xi64>} : () -> tensor<6xi64>
  %0 = "onnx.Pad"(%x, %pads, %v) {mode = "constant", onnx_node_name = "pad", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<?x3x4xf32>, tensor<6xi64>, tensor<f32>) -> tensor<?x4x9xf32>
  func.return %0 : tensor<?x4x9xf32>
}
// CHECK-LABEL: func.func @pad_constant
// CHECK-NEXT:    %c6 = arith.constant 6 : index
// CHECK-NEXT:    %c = arith.constant -1 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<[0, 1, -1, 0, 0, 6]> : tensor<6xi64>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4x9xf32>
// CHECK-NEXT:    %1 = hip.pad(%ctx, %c0, %c1, %c, %c0, %c0, %c6) ins(%x, %v : tensor<?x3x4xf32>, tensor<f32>) outs(%0 : tensor<?x4x9xf32>) {mode = "constant"} -> tensor<?x4x9xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x4x9xf32>

// `axes` (opset 18) names the padded dims, negative ones from the end; the
// others get 0. Any element type.

func.func @pad_axes(%ctx: !hip.context, %x: tensor<2x3x4xi32>) -> tensor<2x5x6xi32> {
  %pads = "onnx.Constant"() {value = dense<[1, 2, 1, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  %axes = "onnx.Constant"() {value = dense<[-1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Pad"(%x, %pads, %axes) {mode = "reflect", onnx_node_name = "pad", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<2x3x4xi32>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x5x6xi32>
  func.return %0 : tensor<2x5x6xi32>
}
// CHECK-LABEL: func.func @pad_axes
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<[-1, 1]> : tensor<2xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<[1, 2, 1, 0]> : tensor<4xi64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x5x6xi32>
// CHECK-NEXT:    %1 = hip.pad(%ctx, %c0, %c2, %c1, %c0, %c0, %c1) ins(%x : tensor<2x3x4xi32>) outs(%0 : tensor<2x5x6xi32>) {mode = "reflect"} -> tensor<2x5x6xi32>
// CHECK-NEXT:    func.return %1 : tensor<2x5x6xi32>

// Pads made of shape values (`onnx-fold-shapes`' tensor.from_elements): run-time
// index operands, and the output size computed from them.

func.func @pad_shape_values(%ctx: !hip.context, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %i = arith.index_cast %n : index to i64
  %z = arith.constant 0 : i64
  %pads = tensor.from_elements %z, %z, %i, %z : tensor<4xi64>
  %0 = "onnx.Pad"(%x, %pads) {mode = "wrap", onnx_node_name = "pad", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x3xf32>, tensor<4xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @pad_shape_values
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c0_1 = arith.constant 0 : index
// CHECK-NEXT:    %n = tensor.dim %x, %c0_1 : tensor<?x3xf32>
// CHECK-NEXT:    %z = arith.constant 0 : i64
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %0 = arith.addi %dim, %n : index
// CHECK-NEXT:    %1 = tensor.empty(%0) : tensor<?x3xf32>
// CHECK-NEXT:    %2 = hip.pad(%ctx, %c0, %c0, %n, %c0) ins(%x : tensor<?x3xf32>) outs(%1 : tensor<?x3xf32>) {mode = "wrap"} -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %2 : tensor<?x3xf32>

// All pads 0: the input itself.

func.func @pad_zero(%ctx: !hip.context, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %pads = "onnx.Constant"() {value = dense<0> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.Pad"(%x, %pads) {mode = "edge", onnx_node_name = "pad", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x3xf32>, tensor<4xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @pad_zero
// CHECK-NEXT:    %cst = arith.constant dense<0> : tensor<4xi64>
// CHECK-NEXT:    func.return %x : tensor<?x3xf32>

// DepthToSpace: a 6-D view of the input, one permute, a 4-D view of its
// result. CRD splits the channels as (C', b, b), DCR as (b, b, C').

func.func @depth_to_space(%ctx: !hip.context, %x: tensor<?x8x?x3xf32>) -> tensor<?x2x?x6xf32> {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64, mode = "CRD", onnx_node_name = "d2s"} : (tensor<?x8x?x3xf32>) -> tensor<?x2x?x6xf32>
  func.return %0 : tensor<?x2x?x6xf32>
}
// CHECK-LABEL: func.func @depth_to_space
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x8x?x3xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c2 : tensor<?x8x?x3xf32>
// CHECK-NEXT:    %0 = tensor.expand_shape %x [[0 : i64], [1 : i64, 2 : i64, 3 : i64], [4 : i64], [5 : i64]] output_shape [%dim, 2, 2, 2, %dim_1, 3] : tensor<?x8x?x3xf32> into tensor<?x2x2x2x?x3xf32>
// CHECK-NEXT:    %1 = tensor.empty(%dim, %dim_1) : tensor<?x2x?x2x3x2xf32>
// CHECK-NEXT:    %2 = hip.permute(%ctx) ins(%0 : tensor<?x2x2x2x?x3xf32>) outs(%1 : tensor<?x2x?x2x3x2xf32>) {perm = array<i64: 0, 1, 4, 2, 5, 3>} -> tensor<?x2x?x2x3x2xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64, 5 : i64]] : tensor<?x2x?x2x3x2xf32> into tensor<?x2x?x6xf32>
// CHECK-NEXT:    func.return %3 : tensor<?x2x?x6xf32>

// SpaceToDepth: the inverse (DCR by default).

func.func @space_to_depth(%ctx: !hip.context, %x: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : si64, onnx_node_name = "s2d"} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  func.return %0 : tensor<1x8x2x3xf32>
}
// CHECK-LABEL: func.func @space_to_depth
// CHECK-NEXT:    %0 = tensor.expand_shape %x [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64, 5 : i64]] output_shape [1, 2, 2, 2, 3, 2] : tensor<1x2x4x6xf32> into tensor<1x2x2x2x3x2xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<1x2x2x2x2x3xf32>
// CHECK-NEXT:    %2 = hip.permute(%ctx) ins(%0 : tensor<1x2x2x2x3x2xf32>) outs(%1 : tensor<1x2x2x2x2x3xf32>) {perm = array<i64: 0, 3, 5, 1, 2, 4>} -> tensor<1x2x2x2x2x3xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %2 [[0 : i64], [1 : i64, 2 : i64, 3 : i64], [4 : i64], [5 : i64]] : tensor<1x2x2x2x2x3xf32> into tensor<1x8x2x3xf32>
// CHECK-NEXT:    func.return %3 : tensor<1x8x2x3xf32>

// InstanceNormalization is a group norm with one group per channel (no
// num_groups); GroupNormalization-21 (stash_type present) takes scale and bias
// per channel, GroupNormalization-18 per group (per_group). LRN keeps its
// attributes.

func.func @norms(%ctx: !hip.context, %x: tensor<?x6x5xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>, %gs: tensor<3xf32>) -> (tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>) {
  %0 = "onnx.InstanceNormalization"(%x, %s, %b) {epsilon = 1.000000e-03 : f32, onnx_node_name = "in"} : (tensor<?x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6x5xf32>
  %1 = "onnx.GroupNormalization"(%x, %s, %b) {epsilon = 1.000000e-05 : f32, num_groups = 3 : si64, stash_type = 1 : si64, onnx_node_name = "gn21"} : (tensor<?x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6x5xf32>
  %2 = "onnx.GroupNormalization"(%x, %gs, %gs) {epsilon = 1.000000e-05 : f32, num_groups = 3 : si64, onnx_node_name = "gn18"} : (tensor<?x6x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x6x5xf32>
  %3 = "onnx.LRN"(%x) {alpha = 1.000000e-04 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32, size = 3 : si64, onnx_node_name = "lrn"} : (tensor<?x6x5xf32>) -> tensor<?x6x5xf32>
  func.return %0, %1, %2, %3 : tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>
}
// CHECK-LABEL: func.func @norms
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x6x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x6x5xf32>
// CHECK-NEXT:    %1 = hip.miopen.group_norm(%ctx) ins(%x, %s, %b : tensor<?x6x5xf32>, tensor<6xf32>, tensor<6xf32>) outs(%0 : tensor<?x6x5xf32>) {epsilon = 1.000000e-03 : f32} -> tensor<?x6x5xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x6x5xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x6x5xf32>
// CHECK-NEXT:    %3 = hip.miopen.group_norm(%ctx) ins(%x, %s, %b : tensor<?x6x5xf32>, tensor<6xf32>, tensor<6xf32>) outs(%2 : tensor<?x6x5xf32>) {num_groups = 3 : i64, epsilon = 1.000000e-05 : f32} -> tensor<?x6x5xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x6x5xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x6x5xf32>
// CHECK-NEXT:    %5 = hip.miopen.group_norm(%ctx) ins(%x, %gs, %gs : tensor<?x6x5xf32>, tensor<3xf32>, tensor<3xf32>) outs(%4 : tensor<?x6x5xf32>) {num_groups = 3 : i64, epsilon = 1.000000e-05 : f32, per_group} -> tensor<?x6x5xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c0 : tensor<?x6x5xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_3) : tensor<?x6x5xf32>
// CHECK-NEXT:    %7 = hip.miopen.lrn(%ctx) ins(%x : tensor<?x6x5xf32>) outs(%6 : tensor<?x6x5xf32>) {size = 3 : i64, alpha = 1.000000e-04 : f32, beta = 7.500000e-01 : f32, bias = 1.000000e+00 : f32} -> tensor<?x6x5xf32>
// CHECK-NEXT:    func.return %1, %3, %5, %7 : tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>, tensor<?x6x5xf32>
