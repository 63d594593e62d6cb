// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// An embedding lookup: the result is data[:axis] + indices + data[axis+1:];
// its dynamic dims are the indices' dims.

func.func @gather_embedding(%ctx: !hip.context, %wte: tensor<128x32xf32>, %ids: tensor<?x?xi64>) -> tensor<?x?x32xf32> {
  %0 = "onnx.Gather"(%wte, %ids) {axis = 0 : si64, onnx_node_name = "wte"} : (tensor<128x32xf32>, tensor<?x?xi64>) -> tensor<?x?x32xf32>
  func.return %0 : tensor<?x?x32xf32>
}
// CHECK-LABEL: func.func @gather_embedding
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %ids, %c0 : tensor<?x?xi64>
// CHECK-NEXT:   %dim_1 = tensor.dim %ids, %c1 : tensor<?x?xi64>
// CHECK-NEXT:   %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x32xf32>
// CHECK-NEXT:   %1 = hip.gather(%ctx) ins(%wte, %ids : tensor<128x32xf32>, tensor<?x?xi64>) outs(%0 : tensor<?x?x32xf32>) {axis = 0 : i64} -> tensor<?x?x32xf32>
// CHECK-NEXT:   func.return %1 : tensor<?x?x32xf32>

// A negative axis counts from the end (2 here); int32 indices; the dynamic
// dim before the axis is data's.

func.func @gather_negative_axis(%ctx: !hip.context, %x: tensor<?x6x4xf32>, %i: tensor<2x3xi32>) -> tensor<?x6x2x3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = -1 : si64, onnx_node_name = "g"} : (tensor<?x6x4xf32>, tensor<2x3xi32>) -> tensor<?x6x2x3xf32>
  func.return %0 : tensor<?x6x2x3xf32>
}
// CHECK-LABEL: func.func @gather_negative_axis
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %x, %c0 : tensor<?x6x4xf32>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?x6x2x3xf32>
// CHECK-NEXT:   %1 = hip.gather(%ctx) ins(%x, %i : tensor<?x6x4xf32>, tensor<2x3xi32>) outs(%0 : tensor<?x6x2x3xf32>) {axis = 2 : i64} -> tensor<?x6x2x3xf32>
// CHECK-NEXT:   func.return %1 : tensor<?x6x2x3xf32>

// A 0-D index drops the axis; int64 data.

func.func @gather_scalar_index(%ctx: !hip.context, %x: tensor<?x5xi64>, %i: tensor<i64>) -> tensor<?xi64> {
  %0 = "onnx.Gather"(%x, %i) {axis = 1 : si64, onnx_node_name = "g"} : (tensor<?x5xi64>, tensor<i64>) -> tensor<?xi64>
  func.return %0 : tensor<?xi64>
}
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %x, %c0 : tensor<?x5xi64>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?xi64>
// CHECK-NEXT:   %1 = hip.gather(%ctx) ins(%x, %i : tensor<?x5xi64>, tensor<i64>) outs(%0 : tensor<?xi64>) {axis = 1 : i64} -> tensor<?xi64>
// CHECK-NEXT:   func.return %1 : tensor<?xi64>

// GatherElements: the result has the indices' shape (and dims); axis in
// [0, rank).

func.func @gather_elements(%ctx: !hip.context, %x: tensor<?x8xf32>, %i: tensor<?x3xi64>) -> tensor<?x3xf32> {
  %0 = "onnx.GatherElements"(%x, %i) {axis = -1 : si64, onnx_node_name = "ge"} : (tensor<?x8xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @gather_elements
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %i, %c0 : tensor<?x3xi64>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?x3xf32>
// CHECK-NEXT:   %1 = hip.gather_elements(%ctx) ins(%x, %i : tensor<?x8xf32>, tensor<?x3xi64>) outs(%0 : tensor<?x3xf32>) {axis = 1 : i64} -> tensor<?x3xf32>
// CHECK-NEXT:   func.return %1 : tensor<?x3xf32>

// GatherND: indices[:-1] + data[batch_dims + k:], the dims from the indices
// then from data; batch_dims only when not 0; bool data.

func.func @gather_nd(%ctx: !hip.context, %x: tensor<5x6x?xi1>, %i: tensor<?x2xi64>, %y: tensor<?x5x6xf32>, %j: tensor<?x4x1xi64>) -> (tensor<?x?xi1>, tensor<?x4x6xf32>) {
  %0 = "onnx.GatherND"(%x, %i) {batch_dims = 0 : si64, onnx_node_name = "nd"} : (tensor<5x6x?xi1>, tensor<?x2xi64>) -> tensor<?x?xi1>
  %1 = "onnx.GatherND"(%y, %j) {batch_dims = 1 : si64, onnx_node_name = "nd_batch"} : (tensor<?x5x6xf32>, tensor<?x4x1xi64>) -> tensor<?x4x6xf32>
  func.return %0, %1 : tensor<?x?xi1>, tensor<?x4x6xf32>
}
// CHECK-LABEL: func.func @gather_nd
// CHECK-NEXT:   %c2 = arith.constant 2 : index
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %i, %c0 : tensor<?x2xi64>
// CHECK-NEXT:   %dim_1 = tensor.dim %x, %c2 : tensor<5x6x?xi1>
// CHECK-NEXT:   %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xi1>
// CHECK-NEXT:   %1 = hip.gather_nd(%ctx) ins(%x, %i : tensor<5x6x?xi1>, tensor<?x2xi64>) outs(%0 : tensor<?x?xi1>) -> tensor<?x?xi1>
// CHECK-NEXT:   %dim_2 = tensor.dim %j, %c0 : tensor<?x4x1xi64>
// CHECK-NEXT:   %2 = tensor.empty(%dim_2) : tensor<?x4x6xf32>
// CHECK-NEXT:   %3 = hip.gather_nd(%ctx) ins(%y, %j : tensor<?x5x6xf32>, tensor<?x4x1xi64>) outs(%2 : tensor<?x4x6xf32>) {batch_dims = 1 : i64} -> tensor<?x4x6xf32>
// CHECK-NEXT:   func.return %1, %3 : tensor<?x?xi1>, tensor<?x4x6xf32>
