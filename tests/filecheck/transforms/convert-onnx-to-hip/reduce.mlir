// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Axes as an attribute (opset < 18): negative axes count from the end, they are
// sorted; keepdims keeps size-1 dims (a unit attribute), else they go. A
// dynamic kept dim is sized from the input.

func.func @reduce_axes_attribute(%ctx: !hip.context, %x: tensor<?x5x7xf32>) -> (tensor<?x1x7xf32>, tensor<5xf32>) {
  %0 = "onnx.ReduceMean"(%x) {axes = [-2], keepdims = 1 : si64, noop_with_empty_axes = 0 : si64, onnx_node_name = "mean"} : (tensor<?x5x7xf32>) -> tensor<?x1x7xf32>
  %1 = "onnx.ReduceMax"(%x) {axes = [2, 0], keepdims = 0 : si64, onnx_node_name = "max"} : (tensor<?x5x7xf32>) -> tensor<5xf32>
  func.return %0, %1 : tensor<?x1x7xf32>, tensor<5xf32>
}
// CHECK-LABEL: func.func @reduce_axes_attribute
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x1x7xf32>
// CHECK-NEXT:    %1 = hip.miopen.reduce_mean(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%0 : tensor<?x1x7xf32>) {axes = array<i64: 1>, keepdims} -> tensor<?x1x7xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<5xf32>
// CHECK-NEXT:    %3 = hip.miopen.reduce_max(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%2 : tensor<5xf32>) {axes = array<i64: 0, 2>} -> tensor<5xf32>
// CHECK-NEXT:    func.return %1, %3 : tensor<?x1x7xf32>, tensor<5xf32>

// Axes as a constant input (ReduceSum from 13, the others from 18): read at
// compile time, the constant goes with its user. No axes reduce every dim; under
// noop_with_empty_axes ReduceL2 is a reduction over zero axes (its element
// function on every value, as ONNX Runtime computes it).

func.func @reduce_axes_input(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?xf32>, tensor<1x1xf32>, tensor<?x5xf32>) {
  %axes = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = "onnx.Constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %0 = "onnx.ReduceSum"(%x, %axes) {keepdims = 0 : si64, onnx_node_name = "sum"} : (tensor<?x5xf32>, tensor<1xi64>) -> tensor<?xf32>
  %1 = "onnx.ReduceLogSumExp"(%x) {onnx_node_name = "lse"} : (tensor<?x5xf32>) -> tensor<1x1xf32>
  %2 = "onnx.ReduceL2"(%x, %none) {noop_with_empty_axes = 1 : si64, onnx_node_name = "noop"} : (tensor<?x5xf32>, tensor<0xi64>) -> tensor<?x5xf32>
  func.return %0, %1, %2 : tensor<?xf32>, tensor<1x1xf32>, tensor<?x5xf32>
}
// CHECK-LABEL: func.func @reduce_axes_input
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?xf32>
// CHECK-NEXT:    %1 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?xf32>) {axes = array<i64: 1>} -> tensor<?xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<1x1xf32>
// CHECK-NEXT:    %3 = hip.reduce_log_sum_exp(%ctx) ins(%x : tensor<?x5xf32>) outs(%2 : tensor<1x1xf32>) {axes = array<i64: 0, 1>, keepdims} -> tensor<1x1xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_1) : tensor<?x5xf32>
// CHECK-NEXT:    %5 = hip.miopen.reduce_l2(%ctx) ins(%x : tensor<?x5xf32>) outs(%4 : tensor<?x5xf32>) {axes = array<i64>, keepdims} -> tensor<?x5xf32>
// CHECK-NEXT:    func.return %1, %3, %5 : tensor<?xf32>, tensor<1x1xf32>, tensor<?x5xf32>

// ArgMax/ArgMin into an i64 init; axis in [0, rank), keepdims and
// select_last_index as unit attributes only when set (ArgMin's defaults: axis 0,
// keepdims).

func.func @arg(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?xi64>, tensor<1x5xi64>) {
  %0 = "onnx.ArgMax"(%x) {axis = -1 : si64, keepdims = 0 : si64, select_last_index = 1 : si64, onnx_node_name = "argmax"} : (tensor<?x5xf32>) -> tensor<?xi64>
  %1 = "onnx.ArgMin"(%x) {onnx_node_name = "argmin"} : (tensor<?x5xf32>) -> tensor<1x5xi64>
  func.return %0, %1 : tensor<?xi64>, tensor<1x5xi64>
}
// CHECK-LABEL: func.func @arg
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?xi64>
// CHECK-NEXT:    %1 = hip.argmax(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?xi64>) {axis = 1 : i64, select_last_index} -> tensor<?xi64>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<1x5xi64>
// CHECK-NEXT:    %3 = hip.argmin(%ctx) ins(%x : tensor<?x5xf32>) outs(%2 : tensor<1x5xi64>) {axis = 0 : i64, keepdims} -> tensor<1x5xi64>
// CHECK-NEXT:    func.return %1, %3 : tensor<?xi64>, tensor<1x5xi64>

// LayerNormalization with a used Mean: both statistics get an init (the op
// writes both or neither), of the normalized dims as size 1; RMSNormalization.

func.func @layer_norm(%ctx: !hip.context, %x: tensor<?x4x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<?x4x8xf32>, tensor<?x4x1xf32>, tensor<?x4x8xf32>) {
  %y, %m = "onnx.LayerNormalization"(%x, %s, %b) {axis = -1 : si64, epsilon = 1.0e-05 : f32, onnx_node_name = "ln", resultSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<?x4x8xf32>, tensor<?x4x1xf32>)
  %r = "onnx.RMSNormalization"(%x, %s) {axis = 2 : si64, epsilon = 1.0e-03 : f32, onnx_node_name = "rms"} : (tensor<?x4x8xf32>, tensor<8xf32>) -> tensor<?x4x8xf32>
  func.return %y, %m, %r : tensor<?x4x8xf32>, tensor<?x4x1xf32>, tensor<?x4x8xf32>
}
// CHECK-LABEL: func.func @layer_norm
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4x8xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4x8xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x4x8xf32>
// CHECK-NEXT:    %1 = tensor.empty(%dim_1) : tensor<?x4x1xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x4x8xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2) : tensor<?x4x1xf32>
// CHECK-NEXT:    %y, %m, %3 = hip.miopen.layer_norm(%ctx) ins(%x, %s, %b : tensor<?x4x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%0, %1, %2 : tensor<?x4x8xf32>, tensor<?x4x1xf32>, tensor<?x4x1xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32} -> (tensor<?x4x8xf32>, tensor<?x4x1xf32>, tensor<?x4x1xf32>)
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c0 : tensor<?x4x8xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_3) : tensor<?x4x8xf32>
// CHECK-NEXT:    %r = hip.rms_norm(%ctx) ins(%x, %s : tensor<?x4x8xf32>, tensor<8xf32>) outs(%4 : tensor<?x4x8xf32>) {axis = 2 : i64, epsilon = 1.000000e-03 : f32} -> tensor<?x4x8xf32>
// CHECK-NEXT:    func.return %y, %m, %r : tensor<?x4x8xf32>, tensor<?x4x1xf32>, tensor<?x4x8xf32>

// LogSoftmax and Hardmax on any axis, normalized to [0, rank).

func.func @softmax_family(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?x5xf32>) {
  %0 = "onnx.LogSoftmax"(%x) {axis = 0 : si64, onnx_node_name = "ls"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %1 = "onnx.Hardmax"(%x) {axis = -1 : si64, onnx_node_name = "hm"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  func.return %0, %1 : tensor<?x5xf32>, tensor<?x5xf32>
}
// CHECK-LABEL: func.func @softmax_family
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x5xf32>
// CHECK-NEXT:    %1 = hip.miopen.log_softmax(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?x5xf32>) {axis = 0 : i64} -> tensor<?x5xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x5xf32>
// CHECK-NEXT:    %3 = hip.hardmax(%ctx) ins(%x : tensor<?x5xf32>) outs(%2 : tensor<?x5xf32>) {axis = 1 : i64} -> tensor<?x5xf32>
// CHECK-NEXT:    func.return %1, %3 : tensor<?x5xf32>, tensor<?x5xf32>

// Dropout with a constant false training_mode is its input; the mask a fill
// of true.

func.func @dropout(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?x5xi1>) {
  %f = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %y, %mask = "onnx.Dropout"(%x, %f) {onnx_node_name = "drop", operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<?x5xf32>, tensor<i1>) -> (tensor<?x5xf32>, tensor<?x5xi1>)
  func.return %y, %mask : tensor<?x5xf32>, tensor<?x5xi1>
}
// CHECK-LABEL: func.func @dropout
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x5xi1>
// CHECK-NEXT:    %mask = hip.fill(%ctx) ins() outs(%0 : tensor<?x5xi1>) {value = 1 : i64} -> tensor<?x5xi1>
// CHECK-NEXT:    func.return %x, %mask : tensor<?x5xf32>, tensor<?x5xi1>
