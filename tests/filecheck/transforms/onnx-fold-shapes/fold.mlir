// RUN: xdsl-opt %s -p onnx-fold-shapes | filecheck %s

// Shape values become index arithmetic on `tensor.dim`s: a head split's
// `Shape -> Gather -> Unsqueeze -> Concat` is the reshape's sizes, and the
// Shape and Gathers are gone.
func.func @head_split(%x: tensor<?x?x32xf32>) -> tensor<?x?x4x8xf32> {
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %ax = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %heads = "onnx.Constant"() {value = dense<[4, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.Shape"(%x) : (tensor<?x?x32xf32>) -> tensor<3xi64>
  %b = "onnx.Gather"(%s, %i0) <{axis = 0 : si64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %q = "onnx.Gather"(%s, %i1) <{axis = 0 : si64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %b1 = "onnx.Unsqueeze"(%b, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %q1 = "onnx.Unsqueeze"(%q, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %shape = "onnx.Concat"(%b1, %q1, %heads) <{axis = 0 : si64}> : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
  %y = "onnx.Reshape"(%x, %shape) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x?x4x8xf32>
  func.return %y : tensor<?x?x4x8xf32>
}
// CHECK-LABEL: func.func @head_split
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x?x32xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<?x?x32xf32>
// CHECK-NEXT:    %0 = arith.index_cast %dim : index to i64
// CHECK-NEXT:    %1 = arith.index_cast %dim_1 : index to i64
// CHECK-NEXT:    %2 = arith.constant 4 : i64
// CHECK-NEXT:    %3 = arith.constant 8 : i64
// CHECK-NEXT:    %shape = tensor.from_elements %0, %1, %2, %3 : tensor<4xi64>
// CHECK-NEXT:    %y = "onnx.Reshape"(%x, %shape) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x?x4x8xf32>
// CHECK-NEXT:    func.return %y

// Static dims fold to numbers: the whole value is a constant.
func.func @static_dims(%x: tensor<2x?x32xf32>) -> tensor<2xi64> {
  %s = "onnx.Shape"(%x) <{start = 0 : si64, end = -1 : si64}> : (tensor<2x?x32xf32>) -> tensor<2xi64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %d = "onnx.Mul"(%s, %two) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %first = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "onnx.Slice"(%d, %first, %one) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c = "onnx.Concat"(%r, %r) <{axis = 0 : si64}> : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  func.return %c : tensor<2xi64>
}
// CHECK-LABEL: func.func @static_dims
// CHECK-NEXT:    %c = "onnx.Constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:    func.return %c

// Arithmetic on run-time dims is `arith` on index: seq * 2 - 1, then the
// larger of that and 8.
func.func @arithmetic(%x: tensor<?x?xf32>) -> tensor<1xi64> {
  %s = "onnx.Shape"(%x) <{start = 1 : si64}> : (tensor<?x?xf32>) -> tensor<1xi64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %eight = "onnx.Constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.Mul"(%s, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %n = "onnx.Sub"(%m, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "onnx.Max"(%n, %eight) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  func.return %r : tensor<1xi64>
}
// CHECK-LABEL: func.func @arithmetic
// CHECK:         %dim = tensor.dim %x, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %0 = arith.muli %dim, %c2 : index
// CHECK-NEXT:    %1 = arith.subi %0, %c1 : index
// CHECK-NEXT:    %2 = arith.maxsi %1, %c8 : index
// CHECK-NEXT:    %3 = arith.index_cast %2 : index to i64
// CHECK-NEXT:    %r = tensor.from_elements %3 : tensor<1xi64>
// CHECK-NEXT:    func.return %r

// An exported mask's `Where(Equal(shape, -1), 1, shape)`: a dim is a size,
// never -1, so the comparison folds and the shape is the dims themselves.
func.func @expand_shape_guard(%x: tensor<?x?xf32>) -> tensor<2xi64> {
  %s = "onnx.Shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  %minus = "onnx.Constant"() {value = dense<-1> : tensor<2xi64>} : () -> tensor<2xi64>
  %ones = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
  %eq = "onnx.Equal"(%s, %minus) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  %w = "onnx.Where"(%eq, %ones, %s) : (tensor<2xi1>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  func.return %w : tensor<2xi64>
}
// CHECK-LABEL: func.func @expand_shape_guard
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %0 = arith.index_cast %dim : index to i64
// CHECK-NEXT:    %1 = arith.index_cast %dim_1 : index to i64
// CHECK-NEXT:    %w = tensor.from_elements %0, %1 : tensor<2xi64>
// CHECK-NEXT:    func.return %w

// Data is not a shape value: a Shape of a graph input's values is left alone,
// and so is an int tensor too long to unroll.
func.func @data_stays(%ids: tensor<3xi64>, %long: tensor<100xi64>) -> (tensor<3xi64>, tensor<100xi64>) {
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %a = "onnx.Add"(%ids, %one) : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %b = "onnx.Add"(%long, %one) : (tensor<100xi64>, tensor<i64>) -> tensor<100xi64>
  func.return %a, %b : tensor<3xi64>, tensor<100xi64>
}
// CHECK-LABEL: func.func @data_stays
// CHECK:         %a = "onnx.Add"(%ids, %one)
// CHECK-NEXT:    %b = "onnx.Add"(%long, %one)

// Expand of a constant to a length the result type leaves dynamic: a
// Shape's dim stays an onnx.Expand (it was folded to no elements), a
// constant length folds to that many copies.
func.func @expand_constant(%x: tensor<?x2xf32>) -> (tensor<?xi64>, tensor<?xi64>) {
  %seven = "onnx.Constant"() {value = dense<7> : tensor<1xi64>} : () -> tensor<1xi64>
  %three = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "onnx.Shape"(%x) <{end = 1 : si64, start = 0 : si64}> : (tensor<?x2xf32>) -> tensor<1xi64>
  %y = "onnx.Expand"(%seven, %n) : (tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  %z = "onnx.Expand"(%seven, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  func.return %y, %z : tensor<?xi64>, tensor<?xi64>
}
// CHECK-LABEL: func.func @expand_constant
// CHECK:         %y = "onnx.Expand"(%seven, %n) : (tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
// CHECK-NEXT:    %z = "onnx.Constant"() {value = dense<7> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:    %z_1 = tensor.cast %z : tensor<3xi64> to tensor<?xi64>
// CHECK-NEXT:    func.return %y, %z_1
