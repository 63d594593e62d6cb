// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Constant starts/ends/axes/steps: negative starts and ends count from the end,
// INT64_MAX / -INT64_MAX clamp to the dim, axes may be negative; a dim not
// sliced starts at 0 with step 1. Everything folds: no index arithmetic.

func.func @slice_static(%ctx: !hip.context, %x: tensor<3x4x5xf32>) -> tensor<1x4x2xf32> {
  %starts = "onnx.Constant"() {value = dense<[-4, 1, -9223372036854775807]> : tensor<3xi64>} : () -> tensor<3xi64>
  %ends = "onnx.Constant"() {value = dense<[9223372036854775807, -1, 10]> : tensor<3xi64>} : () -> tensor<3xi64>
  %axes = "onnx.Constant"() {value = dense<[-1, 0, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %steps = "onnx.Constant"() {value = dense<[2, 1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "onnx.Slice"(%x, %starts, %ends, %axes, %steps) {onnx_node_name = "slice", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<3x4x5xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x4x2xf32>
  func.return %0 : tensor<1x4x2xf32>
}
// CHECK-LABEL: func.func @slice_static
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x4x2xf32>
// CHECK-NEXT:    %1 = hip.slice(%ctx, %c1, %c0, %c1) ins(%x : tensor<3x4x5xf32>) outs(%0 : tensor<1x4x2xf32>) {steps = array<i64: 1, 1, 2>} -> tensor<1x4x2xf32>
// CHECK-NEXT:    func.return %1 : tensor<1x4x2xf32>

// A negative step: the start clamps to size - 1, an INT64_MIN end to -1 (down
// to element 0): rows 4, 2, 0.

func.func @slice_backwards(%ctx: !hip.context, %x: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %starts = "onnx.Constant"() {value = dense<[100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = "onnx.Constant"() {value = dense<[-9223372036854775808]> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %steps = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %starts, %ends, %axes, %steps) {onnx_node_name = "slice", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @slice_backwards
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT:    %1 = hip.slice(%ctx, %c4, %c0) ins(%x : tensor<5x4xf32>) outs(%0 : tensor<3x4xf32>) {steps = array<i64: -2, 1>} -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %1 : tensor<3x4xf32>

// Axes and steps omitted; a dynamic dim: the clamped start and the count are
// index arithmetic, the count sizes the init.

func.func @slice_dynamic(%ctx: !hip.context, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %starts = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = "onnx.Constant"() {value = dense<[9223372036854775807]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %starts, %ends) {onnx_node_name = "slice", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<?x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @slice_dynamic
// CHECK-NEXT:    %c9223372036854775807 = arith.constant 9223372036854775807 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = arith.minsi %c1, %dim : index
// CHECK-NEXT:    %1 = arith.minsi %c9223372036854775807, %dim : index
// CHECK-NEXT:    %2 = arith.subi %1, %0 : index
// CHECK-NEXT:    %3 = arith.maxsi %2, %c0 : index
// CHECK-NEXT:    %4 = tensor.empty(%3) : tensor<?x4xf32>
// CHECK-NEXT:    %5 = hip.slice(%ctx, %0, %c0) ins(%x : tensor<?x4xf32>) outs(%4 : tensor<?x4xf32>) {steps = array<i64: 1, 1>} -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %5 : tensor<?x4xf32>

// GPT-2's causal mask: starts and ends are run-time index values (shape values
// from onnx-fold-shapes). The normalized start is an index operand of
// hip.slice, the counts size the init (the arithmetic is IndexArith's).

func.func @causal_mask(%ctx: !hip.context, %mask: tensor<1x1x64x64xf32>, %past: index, %seq: index) -> tensor<1x1x?x?xf32> {
  %end = arith.addi %past, %seq : index
  %p = arith.index_cast %past : index to i64
  %e = arith.index_cast %end : index to i64
  %s = arith.index_cast %seq : index to i64
  %c0 = arith.constant 0 : i64
  %starts = tensor.from_elements %p, %c0 : tensor<2xi64>
  %ends = tensor.from_elements %e, %s : tensor<2xi64>
  %axes = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Slice"(%mask, %starts, %ends, %axes) {onnx_node_name = "mask", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<1x1x64x64xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}
// CHECK-LABEL: func.func @causal_mask
// CHECK-NOT:     onnx.
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<1x1x?x?xf32>
// CHECK-NEXT:    %[[MASK:.*]] = hip.slice(%ctx, %c0, %c0, %{{.*}}, %c0) ins(%mask : tensor<1x1x64x64xf32>) outs(%[[EMPTY]] : tensor<1x1x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>} -> tensor<1x1x?x?xf32>
// CHECK-NEXT:    func.return %[[MASK]] : tensor<1x1x?x?xf32>

// Split by num_outputs (opset 18) on a dynamic axis: chunks of ceil(n / 3),
// the last ones what is left (clamped to [0, chunk]); one hip.slice each.

func.func @split_uneven(%ctx: !hip.context, %x: tensor<2x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>) {
  %0, %1, %2 = "onnx.Split"(%x) {axis = -1 : si64, num_outputs = 3 : si64, onnx_node_name = "split"} : (tensor<2x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>)
  func.return %0, %1, %2 : tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>
}
// CHECK-LABEL: func.func @split_uneven
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c1 : tensor<2x?xf32>
// CHECK-NEXT:    %0 = arith.ceildivsi %dim, %c3 : index
// CHECK-NEXT:    %1 = arith.subi %dim, %0 : index
// CHECK-NEXT:    %2 = arith.maxsi %1, %c0 : index
// CHECK-NEXT:    %3 = arith.minsi %2, %0 : index
// CHECK-NEXT:    %4 = arith.muli %0, %c2 : index
// CHECK-NEXT:    %5 = arith.subi %dim, %4 : index
// CHECK-NEXT:    %6 = arith.maxsi %5, %c0 : index
// CHECK-NEXT:    %7 = arith.minsi %6, %0 : index
// CHECK-NEXT:    %8 = tensor.empty(%0) : tensor<2x?xf32>
// CHECK-NEXT:    %9 = hip.slice(%ctx, %c0, %c0) ins(%x : tensor<2x?xf32>) outs(%8 : tensor<2x?xf32>) {steps = array<i64: 1, 1>} -> tensor<2x?xf32>
// CHECK-NEXT:    %10 = tensor.empty(%3) : tensor<2x?xf32>
// CHECK-NEXT:    %11 = hip.slice(%ctx, %c0, %0) ins(%x : tensor<2x?xf32>) outs(%10 : tensor<2x?xf32>) {steps = array<i64: 1, 1>} -> tensor<2x?xf32>
// CHECK-NEXT:    %12 = arith.addi %0, %3 : index
// CHECK-NEXT:    %13 = tensor.empty(%7) : tensor<2x?xf32>
// CHECK-NEXT:    %14 = hip.slice(%ctx, %c0, %12) ins(%x : tensor<2x?xf32>) outs(%13 : tensor<2x?xf32>) {steps = array<i64: 1, 1>} -> tensor<2x?xf32>
// CHECK-NEXT:    func.return %9, %11, %14 : tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>

// Split by a constant `split` input, on int64: static slices.

func.func @split_sizes(%ctx: !hip.context, %x: tensor<6x2xi64>) -> (tensor<2x2xi64>, tensor<4x2xi64>) {
  %split = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0, %1 = "onnx.Split"(%x, %split) {axis = 0 : si64, onnx_node_name = "split"} : (tensor<6x2xi64>, tensor<2xi64>) -> (tensor<2x2xi64>, tensor<4x2xi64>)
  func.return %0, %1 : tensor<2x2xi64>, tensor<4x2xi64>
}
// CHECK-LABEL: func.func @split_sizes
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x2xi64>
// CHECK-NEXT:    %1 = hip.slice(%ctx, %c0, %c0) ins(%x : tensor<6x2xi64>) outs(%0 : tensor<2x2xi64>) {steps = array<i64: 1, 1>} -> tensor<2x2xi64>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<4x2xi64>
// CHECK-NEXT:    %3 = hip.slice(%ctx, %c2, %c0) ins(%x : tensor<6x2xi64>) outs(%2 : tensor<4x2xi64>) {steps = array<i64: 1, 1>} -> tensor<4x2xi64>
// CHECK-NEXT:    func.return %1, %3 : tensor<2x2xi64>, tensor<4x2xi64>

// Tile: each dim's size times its repeat.

func.func @tile(%ctx: !hip.context, %x: tensor<?x3xf32>) -> tensor<?x6xf32> {
  %repeats = "onnx.Constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Tile"(%x, %repeats) {onnx_node_name = "tile"} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x6xf32>
  func.return %0 : tensor<?x6xf32>
}
// CHECK-LABEL: func.func @tile
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %0 = arith.muli %dim, %c3 : index
// CHECK-NEXT:    %1 = tensor.empty(%0) : tensor<?x6xf32>
// CHECK-NEXT:    %2 = hip.tile(%ctx) ins(%x : tensor<?x3xf32>) outs(%1 : tensor<?x6xf32>) -> tensor<?x6xf32>
// CHECK-NEXT:    func.return %2 : tensor<?x6xf32>

// Expand both ways: a 1 on either side takes the other; a new leading dim.

func.func @expand(%ctx: !hip.context, %x: tensor<?x1x4xf32>, %n: index) -> tensor<2x?x?x4xf32> {
  %k = arith.index_cast %n : index to i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %shape = tensor.from_elements %c2, %c1, %k, %c1 : tensor<4xi64>
  %0 = "onnx.Expand"(%x, %shape) {onnx_node_name = "expand"} : (tensor<?x1x4xf32>, tensor<4xi64>) -> tensor<2x?x?x4xf32>
  func.return %0 : tensor<2x?x?x4xf32>
}
// CHECK-LABEL: func.func @expand
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : i64
// CHECK-NEXT:    %c2 = arith.constant 2 : i64
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x1x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %n) : tensor<2x?x?x4xf32>
// CHECK-NEXT:    %1 = hip.expand(%ctx) ins(%x : tensor<?x1x4xf32>) outs(%0 : tensor<2x?x?x4xf32>) -> tensor<2x?x?x4xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x?x?x4xf32>

// Expand where both sides are known only at run time and not proven equal:
// their broadcast, `b if a == 1 else a` (0 against 1 is 0, not their max).

func.func @expand_both_dynamic(%ctx: !hip.context, %x: tensor<?x3xf32>, %n: index) -> tensor<?x3xf32> {
  %k = arith.index_cast %n : index to i64
  %c3 = arith.constant 3 : i64
  %shape = tensor.from_elements %k, %c3 : tensor<2xi64>
  %0 = "onnx.Expand"(%x, %shape) {onnx_node_name = "expand"} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @expand_both_dynamic
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : i64
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %0 = arith.cmpi eq, %dim, %c1 : index
// CHECK-NEXT:    %1 = arith.select %0, %n, %dim : index
// CHECK-NEXT:    %2 = tensor.empty(%1) : tensor<?x3xf32>
// CHECK-NEXT:    %3 = hip.expand(%ctx) ins(%x : tensor<?x3xf32>) outs(%2 : tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %3 : tensor<?x3xf32>
