// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// TopK with a constant K: both results get an init of K along the axis (in
// [0, rank)), the input's dims elsewhere; the constant goes with its user.
// largest=1 is the default, largest=0 the `smallest` unit attribute; sorted=0
// takes the sorted order too.

func.func @topk_constant_k(%ctx: !hip.context, %x: tensor<?x5x7xf32>) -> (tensor<?x5x3xf32>, tensor<?x5x3xi64>, tensor<?x2x7xf32>, tensor<?x2x7xi64>) {
  %k = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %0, %1 = "onnx.TopK"(%x, %k) {axis = -1 : si64, largest = 1 : si64, sorted = 1 : si64, onnx_node_name = "top"} : (tensor<?x5x7xf32>, tensor<1xi64>) -> (tensor<?x5x3xf32>, tensor<?x5x3xi64>)
  %2, %3 = "onnx.TopK"(%x, %two) {axis = 1 : si64, largest = 0 : si64, sorted = 0 : si64, onnx_node_name = "low"} : (tensor<?x5x7xf32>, tensor<1xi64>) -> (tensor<?x2x7xf32>, tensor<?x2x7xi64>)
  func.return %0, %1, %2, %3 : tensor<?x5x3xf32>, tensor<?x5x3xi64>, tensor<?x2x7xf32>, tensor<?x2x7xi64>
}
// CHECK-LABEL: func.func @topk_constant_k
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x5x3xf32>
// CHECK-NEXT:    %1 = tensor.empty(%dim) : tensor<?x5x3xi64>
// CHECK-NEXT:    %2, %3 = hip.topk(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%0, %1 : tensor<?x5x3xf32>, tensor<?x5x3xi64>) {axis = 2 : i64} -> (tensor<?x5x3xf32>, tensor<?x5x3xi64>)
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_1) : tensor<?x2x7xf32>
// CHECK-NEXT:    %5 = tensor.empty(%dim_1) : tensor<?x2x7xi64>
// CHECK-NEXT:    %6, %7 = hip.topk(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%4, %5 : tensor<?x2x7xf32>, tensor<?x2x7xi64>) {axis = 1 : i64, smallest} -> (tensor<?x2x7xf32>, tensor<?x2x7xi64>)
// CHECK-NEXT:    func.return %2, %3, %6, %7 : tensor<?x5x3xf32>, tensor<?x5x3xi64>, tensor<?x2x7xf32>, tensor<?x2x7xi64>

// K from a shape value (what onnx-fold-shapes makes of `Shape`/`Slice`): the
// results' size along the axis is that index at run time.

func.func @topk_shape_k(%ctx: !hip.context, %x: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x?xi64>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<4x?xf32>
  %i = arith.index_cast %n : index to i64
  %k = tensor.from_elements %i : tensor<1xi64>
  %0, %1 = "onnx.TopK"(%x, %k) {axis = 1 : si64, largest = 1 : si64, sorted = 1 : si64, onnx_node_name = "all"} : (tensor<4x?xf32>, tensor<1xi64>) -> (tensor<4x?xf32>, tensor<4x?xi64>)
  func.return %0, %1 : tensor<4x?xf32>, tensor<4x?xi64>
}
// CHECK-LABEL: func.func @topk_shape_k
// CHECK:         %n = tensor.dim %x, %c1 : tensor<4x?xf32>
// CHECK:         %0 = tensor.empty(%n) : tensor<4x?xf32>
// CHECK-NEXT:    %1 = tensor.empty(%n) : tensor<4x?xi64>
// CHECK-NEXT:    %2, %3 = hip.topk(%ctx) ins(%x : tensor<4x?xf32>) outs(%0, %1 : tensor<4x?xf32>, tensor<4x?xi64>) {axis = 1 : i64} -> (tensor<4x?xf32>, tensor<4x?xi64>)
// CHECK-NEXT:    func.return %2, %3 : tensor<4x?xf32>, tensor<4x?xi64>

// K as data (a graph input): read back at run time, it sizes the results.

func.func @topk_data_k(%ctx: !hip.context, %x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>) {
  %0, %1 = "onnx.TopK"(%x, %k) {axis = -1 : si64, largest = 1 : si64, sorted = 1 : si64, onnx_node_name = "top"} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  func.return %0, %1 : tensor<3x?xf32>, tensor<3x?xi64>
}
// CHECK-LABEL: func.func @topk_data_k
// CHECK-NEXT:    %0 = hip.readback(%ctx) %k : tensor<1xi64> -> index
// CHECK-NEXT:    %1 = tensor.empty(%0) : tensor<3x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%0) : tensor<3x?xi64>
// CHECK-NEXT:    %3, %4 = hip.topk(%ctx) ins(%x : tensor<3x4xf32>) outs(%1, %2 : tensor<3x?xf32>, tensor<3x?xi64>) {axis = 1 : i64} -> (tensor<3x?xf32>, tensor<3x?xi64>)
// CHECK-NEXT:    func.return %3, %4 : tensor<3x?xf32>, tensor<3x?xi64>
