// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// Indices of another type than int32/int64, an axis out of range, GatherND
// index tuples of a dynamic length (it decides the result's rank) and a
// batch_dims out of range are refused with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<3x4xf32>, %i16: tensor<2xi16>, %i: tensor<2xi64>, %t: tensor<2x?xi64>, %u: tensor<3x1xi64>) -> (tensor<2x4xf32>, tensor<3x2xf32>, tensor<?xf32>, tensor<3xf32>) {
  %0 = "onnx.Gather"(%x, %i16) {axis = 0 : si64, onnx_node_name = "short"} : (tensor<3x4xf32>, tensor<2xi16>) -> tensor<2x4xf32>
  %1 = "onnx.Gather"(%x, %i) {axis = 2 : si64, onnx_node_name = "axis"} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %2 = "onnx.GatherND"(%x, %t) {batch_dims = 0 : si64, onnx_node_name = "tuples"} : (tensor<3x4xf32>, tensor<2x?xi64>) -> tensor<?xf32>
  %3 = "onnx.GatherND"(%x, %u) {batch_dims = 2 : si64, onnx_node_name = "batch"} : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  func.return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<3x2xf32>, tensor<?xf32>, tensor<3xf32>
}
// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Gather (node 'short'): indices of element type i16; int32 or int64 are needed
// CHECK-NEXT:   onnx.Gather (node 'axis'): axis 2 is out of range for rank 2
// CHECK-NEXT:   onnx.GatherND (node 'tuples'): the last dim of the indices (how many dims each index tuple has) must be static: it decides the result's rank
// CHECK-NEXT:   onnx.GatherND (node 'batch'): batch_dims 2 must be in [0, 2)
