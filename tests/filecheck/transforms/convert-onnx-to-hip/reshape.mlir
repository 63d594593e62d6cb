// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Reshape, Flatten, Squeeze and Unsqueeze are views: collapse_shape or
// expand_shape, the reassociation found from sizes tracked as products of
// static sizes and run-time input dims.

// Split the last dim into heads; the dynamic dims are copies (0) of the input's.
func.func @split_heads(%ctx: !hip.context, %x: tensor<?x?x256xf32>) -> tensor<?x?x4x64xf32> {
  %s = "onnx.Constant"() {value = dense<[0, 0, 4, 64]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r"} : (tensor<?x?x256xf32>, tensor<4xi64>) -> tensor<?x?x4x64xf32>
  func.return %0 : tensor<?x?x4x64xf32>
}
// CHECK-LABEL: func.func @split_heads
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x?x256xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<?x?x256xf32>
// CHECK-NEXT:    %0 = tensor.expand_shape %x {{\[\[}}0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_1, 4, 64] : tensor<?x?x256xf32> into tensor<?x?x4x64xf32>
// CHECK-NEXT:    func.return %0

// -1 absorbs what is left: here the product of a dynamic dim and 64.
func.func @merge(%ctx: !hip.context, %x: tensor<?x?x64xf32>) -> tensor<?x?xf32> {
  %s = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r"} : (tensor<?x?x64xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @merge
// CHECK-NEXT:    %0 = tensor.collapse_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64]] : tensor<?x?x64xf32> into tensor<?x?xf32>

// No reassociation (2x3 -> 3x2): collapse to 1-D, then expand.
func.func @regroup(%ctx: !hip.context, %x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = "onnx.Constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r"} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @regroup
// CHECK-NEXT:    %0 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:    %1 = tensor.expand_shape %0 {{\[\[}}0 : i64, 1 : i64]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>

// A -1 that is no product of input dims is computed at run time.
func.func @divide(%ctx: !hip.context, %x: tensor<?x?xf32>) -> tensor<?x4xf32> {
  %s = "onnx.Constant"() {value = dense<[-1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r"} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @divide
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64]] : tensor<?x?xf32> into tensor<?xf32>
// CHECK-NEXT:    %dim = tensor.dim %0, %c0 : tensor<?xf32>
// CHECK-NEXT:    %1 = arith.divui %dim, %c4 : index
// CHECK-NEXT:    %2 = tensor.expand_shape %0 {{\[\[}}0 : i64, 1 : i64]] output_shape [%1, 4] : tensor<?xf32> into tensor<?x4xf32>

// Flatten keeps the dims before `axis` and merges the rest.
func.func @flatten(%ctx: !hip.context, %x: tensor<?x3x4x5xf32>) -> (tensor<?x60xf32>, tensor<1x?xf32>) {
  %0 = "onnx.Flatten"(%x) <{axis = 1 : si64}> {onnx_node_name = "f1"} : (tensor<?x3x4x5xf32>) -> tensor<?x60xf32>
  %1 = "onnx.Flatten"(%x) <{axis = 0 : si64}> {onnx_node_name = "f0"} : (tensor<?x3x4x5xf32>) -> tensor<1x?xf32>
  func.return %0, %1 : tensor<?x60xf32>, tensor<1x?xf32>
}
// CHECK-LABEL: func.func @flatten
// CHECK:         %0 = tensor.collapse_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<?x3x4x5xf32> into tensor<?x60xf32>
// CHECK-NEXT:    %1 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64, 2 : i64, 3 : i64]] : tensor<?x3x4x5xf32> into tensor<?xf32>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x4x5xf32>
// CHECK-NEXT:    %2 = arith.muli %dim, %c60 : index
// CHECK-NEXT:    %3 = tensor.expand_shape %1 {{\[\[}}0 : i64, 1 : i64]] output_shape [1, %2] : tensor<?xf32> into tensor<1x?xf32>

// A negative axis counts from the end: -1 keeps all dims but the last.
func.func @flatten_negative(%ctx: !hip.context, %x: tensor<?x3x4x5xf32>) -> (tensor<?x5xf32>, tensor<?x60xf32>) {
  %0 = "onnx.Flatten"(%x) <{axis = -1 : si64}> {onnx_node_name = "f1"} : (tensor<?x3x4x5xf32>) -> tensor<?x5xf32>
  %1 = "onnx.Flatten"(%x) <{axis = -3 : si64}> {onnx_node_name = "f3"} : (tensor<?x3x4x5xf32>) -> tensor<?x60xf32>
  func.return %0, %1 : tensor<?x5xf32>, tensor<?x60xf32>
}
// CHECK-LABEL: func.func @flatten_negative
// CHECK-NEXT:    %0 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64, 2 : i64], [3 : i64]] : tensor<?x3x4x5xf32> into tensor<?x5xf32>
// CHECK-NEXT:    %1 = tensor.collapse_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<?x3x4x5xf32> into tensor<?x60xf32>
// CHECK-NEXT:    func.return %0, %1

// Squeeze and Unsqueeze drop and insert size-1 dims; axes may be negative.
func.func @squeeze(%ctx: !hip.context, %x: tensor<1x?x1x8xf32>) -> (tensor<?x8xf32>, tensor<?x1x8xf32>, tensor<1x?x1x8x1xf32>) {
  %a = "onnx.Constant"() {value = dense<[0, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %c = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Squeeze"(%x) {onnx_node_name = "all"} : (tensor<1x?x1x8xf32>) -> tensor<?x8xf32>
  %1 = "onnx.Squeeze"(%x, %b) {onnx_node_name = "first"} : (tensor<1x?x1x8xf32>, tensor<1xi64>) -> tensor<?x1x8xf32>
  %2 = "onnx.Unsqueeze"(%x, %c) {onnx_node_name = "last"} : (tensor<1x?x1x8xf32>, tensor<1xi64>) -> tensor<1x?x1x8x1xf32>
  func.return %0, %1, %2 : tensor<?x8xf32>, tensor<?x1x8xf32>, tensor<1x?x1x8x1xf32>
}
// Without axes, the dynamic dim is kept: taken as not 1, which a hip.guard
// checks each call (the importer types the result so, docs/shape-values.md).
// CHECK-LABEL: func.func @squeeze
// CHECK:         %dim = tensor.dim %x, %c1 : tensor<1x?x1x8xf32>
// CHECK-NEXT:    %0 = arith.cmpi eq, %dim, %c1 : index
// CHECK-NEXT:    %1 = arith.select %0, %c1, %c0 : index
// CHECK-NEXT:    hip.guard %1 expects [0]
// CHECK-NEXT:    %2 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x?x1x8xf32> into tensor<?x8xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %x {{\[\[}}0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x?x1x8xf32> into tensor<?x1x8xf32>
// CHECK:         %4 = tensor.expand_shape %x {{\[\[}}0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [1, %dim_1, 1, 8, 1] : tensor<1x?x1x8xf32> into tensor<1x?x1x8x1xf32>
// CHECK-NOT:     onnx.Constant

// An empty input has no element to view: the result is an empty tensor of
// its type (allowzero: the 0 in the shape is an empty dim).
func.func @empty(%ctx: !hip.context, %x: tensor<0x3x4xf32>) -> tensor<3x4x0xf32> {
  %s = "onnx.Constant"() {value = dense<[3, 4, 0]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r", allowzero = 1 : si64} : (tensor<0x3x4xf32>, tensor<3xi64>) -> tensor<3x4x0xf32>
  func.return %0 : tensor<3x4x0xf32>
}
// CHECK-LABEL: func.func @empty
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3x4x0xf32>
// CHECK-NEXT:    func.return %0 : tensor<3x4x0xf32>

// Reshaping to the same shape is no op.
func.func @same(%ctx: !hip.context, %x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = "onnx.Constant"() {value = dense<[-1, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) {onnx_node_name = "r"} : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}
// CHECK-LABEL: func.func @same
// CHECK-NEXT:    func.return %x : tensor<?x8xf32>
