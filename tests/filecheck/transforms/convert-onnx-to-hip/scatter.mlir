// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ScatterND: an init of data's type (its dynamic dim from data); reduction
// kept as a string.

func.func @scatter_nd(%ctx: !hip.context, %data: tensor<?x4x4xf32>, %idx: tensor<2x1xi64>, %upd: tensor<2x4x4xf32>) -> tensor<?x4x4xf32> {
  %0 = "onnx.ScatterND"(%data, %idx, %upd) {reduction = "add", onnx_node_name = "s"} : (tensor<?x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) -> tensor<?x4x4xf32>
  func.return %0 : tensor<?x4x4xf32>
}
// CHECK-LABEL: func.func @scatter_nd
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %data, %c0 : tensor<?x4x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4x4xf32>
// CHECK-NEXT:    %1 = hip.scatter_nd(%ctx) ins(%data, %idx, %upd : tensor<?x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) outs(%0 : tensor<?x4x4xf32>) {reduction = "add"} -> tensor<?x4x4xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x4x4xf32>

// ScatterElements: a negative axis counted from the end; no reduction
// attribute means none; int32 indices.

func.func @scatter_elements(%ctx: !hip.context, %data: tensor<3x?xf32>, %idx: tensor<2x2xi32>, %upd: tensor<2x2xf32>) -> tensor<3x?xf32> {
  %0 = "onnx.ScatterElements"(%data, %idx, %upd) {axis = -1 : si64, onnx_node_name = "s"} : (tensor<3x?xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<3x?xf32>
  func.return %0 : tensor<3x?xf32>
}
// CHECK-LABEL: func.func @scatter_elements
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = tensor.dim %data, %c1 : tensor<3x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<3x?xf32>
// CHECK-NEXT:    %1 = hip.scatter_elements(%ctx) ins(%data, %idx, %upd : tensor<3x?xf32>, tensor<2x2xi32>, tensor<2x2xf32>) outs(%0 : tensor<3x?xf32>) {axis = 1 : i64, reduction = "none"} -> tensor<3x?xf32>
// CHECK-NEXT:    func.return %1 : tensor<3x?xf32>

// Trilu: k is the index operand, 0 when absent; upper a unit attribute
// (tril has none); batched, a dynamic dim.

func.func @trilu(%ctx: !hip.context, %x: tensor<2x?x5xi64>) -> (tensor<2x?x5xi64>, tensor<2x?x5xi64>) {
  %k = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.Trilu"(%x) {upper = 1 : si64, onnx_node_name = "triu"} : (tensor<2x?x5xi64>) -> tensor<2x?x5xi64>
  %1 = "onnx.Trilu"(%x, %k) {upper = 0 : si64, onnx_node_name = "tril"} : (tensor<2x?x5xi64>, tensor<i64>) -> tensor<2x?x5xi64>
  func.return %0, %1 : tensor<2x?x5xi64>, tensor<2x?x5xi64>
}
// CHECK-LABEL: func.func @trilu
// CHECK-NEXT:    %c = arith.constant -1 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<-1> : tensor<i64>
// CHECK-NEXT:    %dim = tensor.dim %x, %c1 : tensor<2x?x5xi64>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<2x?x5xi64>
// CHECK-NEXT:    %1 = hip.trilu(%ctx, %c0) ins(%x : tensor<2x?x5xi64>) outs(%0 : tensor<2x?x5xi64>) {upper} -> tensor<2x?x5xi64>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<2x?x5xi64>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<2x?x5xi64>
// CHECK-NEXT:    %3 = hip.trilu(%ctx, %c) ins(%x : tensor<2x?x5xi64>) outs(%2 : tensor<2x?x5xi64>) -> tensor<2x?x5xi64>
// CHECK-NEXT:    func.return %1, %3 : tensor<2x?x5xi64>, tensor<2x?x5xi64>

// CumSum: the axis, a constant (int32 here, negative), normalized into an
// attribute; exclusive and reverse unit attributes when set.

func.func @cumsum(%ctx: !hip.context, %x: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %axis = "onnx.Constant"() {value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  %0 = "onnx.CumSum"(%x, %axis) {exclusive = 1 : si64, reverse = 0 : si64, onnx_node_name = "c"} : (tensor<?x3xf64>, tensor<i32>) -> tensor<?x3xf64>
  func.return %0 : tensor<?x3xf64>
}
// CHECK-LABEL: func.func @cumsum
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<-2> : tensor<i32>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3xf64>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3xf64>
// CHECK-NEXT:    %1 = hip.cumsum(%ctx) ins(%x : tensor<?x3xf64>) outs(%0 : tensor<?x3xf64>) {axis = 0 : i64, exclusive} -> tensor<?x3xf64>
// CHECK-NEXT:    func.return %1 : tensor<?x3xf64>

// OneHot: a float depth is truncated; it sizes the new dim where the result
// type leaves it dynamic; the axis counts in the result's rank.

func.func @one_hot(%ctx: !hip.context, %i: tensor<?x2xi64>, %v: tensor<2xf32>) -> tensor<?x?x2xf32> {
  %depth = "onnx.Constant"() {value = dense<1.000000e+01> : tensor<f32>} : () -> tensor<f32>
  %0 = "onnx.OneHot"(%i, %depth, %v) {axis = -2 : si64, onnx_node_name = "h"} : (tensor<?x2xi64>, tensor<f32>, tensor<2xf32>) -> tensor<?x?x2xf32>
  func.return %0 : tensor<?x?x2xf32>
}
// CHECK-LABEL: func.func @one_hot
// CHECK-NEXT:    %c10 = arith.constant 10 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<1.000000e+01> : tensor<f32>
// CHECK-NEXT:    %dim = tensor.dim %i, %c0 : tensor<?x2xi64>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %c10) : tensor<?x?x2xf32>
// CHECK-NEXT:    %1 = hip.one_hot(%ctx) ins(%i, %v : tensor<?x2xi64>, tensor<2xf32>) outs(%0 : tensor<?x?x2xf32>) {axis = 1 : i64} -> tensor<?x?x2xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x?x2xf32>

// A shape-derived k and depth (as onnx-fold-shapes leaves them: from_elements
// of an index_cast) are run-time index values: k goes to the op, depth sizes
// the init.

func.func @shape_derived(%ctx: !hip.context, %x: tensor<?x?xf32>, %i: tensor<3xi64>, %v: tensor<2xi32>) -> (tensor<?x?xf32>, tensor<3x?xi32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n64 = arith.index_cast %n : index to i64
  %k = tensor.from_elements %n64 : tensor<i64>
  %0 = "onnx.Trilu"(%x, %k) {upper = 1 : si64, onnx_node_name = "triu"} : (tensor<?x?xf32>, tensor<i64>) -> tensor<?x?xf32>
  %1 = "onnx.OneHot"(%i, %k, %v) {axis = -1 : si64, onnx_node_name = "h"} : (tensor<3xi64>, tensor<i64>, tensor<2xi32>) -> tensor<3x?xi32>
  func.return %0, %1 : tensor<?x?xf32>, tensor<3x?xi32>
}
// CHECK-LABEL: func.func @shape_derived
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c0_1 = arith.constant 0 : index
// CHECK-NEXT:    %n = tensor.dim %x, %c0_1 : tensor<?x?xf32>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xf32>
// CHECK-NEXT:    %1 = hip.trilu(%ctx, %n) ins(%x : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {upper} -> tensor<?x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%n) : tensor<3x?xi32>
// CHECK-NEXT:    %3 = hip.one_hot(%ctx) ins(%i, %v : tensor<3xi64>, tensor<2xi32>) outs(%2 : tensor<3x?xi32>) {axis = 1 : i64} -> tensor<3x?xi32>
// CHECK-NEXT:    func.return %1, %3 : tensor<?x?xf32>, tensor<3x?xi32>
