// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// CumSum's axis fed as run-time data (Trilu's k and OneHot's depth are read back), float
// indices and an unknown reduction are refused with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<3x4xf32>, %k: tensor<i64>, %axis: tensor<i64>, %depth: tensor<i64>, %i: tensor<3xi64>, %v: tensor<2xf32>, %fi: tensor<3x4xf32>, %j: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x?xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = "onnx.Trilu"(%x, %k) {onnx_node_name = "triu"} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  %1 = "onnx.CumSum"(%x, %axis) {onnx_node_name = "cumsum"} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  %2 = "onnx.OneHot"(%i, %depth, %v) {onnx_node_name = "onehot"} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  %3 = "onnx.ScatterElements"(%x, %fi, %x) {onnx_node_name = "float_indices"} : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %4 = "onnx.ScatterND"(%x, %j, %u) {reduction = "sub", onnx_node_name = "sub"} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x?xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.CumSum (node 'cumsum'): axis must be known at compile time (a constant or a shape value); it is run-time data here
// CHECK-NEXT:   onnx.ScatterElements (node 'float_indices'): indices must be int32 or int64, got f32
// CHECK-NEXT:   onnx.ScatterND (node 'sub'): reduction 'sub' is not one of none, add, mul, max, min
