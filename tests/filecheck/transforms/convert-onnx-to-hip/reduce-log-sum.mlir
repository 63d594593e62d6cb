// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// ReduceLogSum is hip.miopen.reduce_sum, then hip.miopen.log of its result
// into an init of the result's shape: axes as an attribute (opset < 18),
// negative, without keepdims; as a constant input; absent (every dim).

func.func @log_sum(%ctx: !hip.context, %x: tensor<?x5x7xf32>) -> (tensor<?x7xf32>, tensor<?x5x1xf32>, tensor<1x1x1xf32>) {
  %axes = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceLogSum"(%x) {axes = [-2], keepdims = 0 : si64, onnx_node_name = "attr"} : (tensor<?x5x7xf32>) -> tensor<?x7xf32>
  %1 = "onnx.ReduceLogSum"(%x, %axes) {onnx_node_name = "input"} : (tensor<?x5x7xf32>, tensor<1xi64>) -> tensor<?x5x1xf32>
  %2 = "onnx.ReduceLogSum"(%x) {keepdims = 1 : si64, noop_with_empty_axes = 0 : si64, onnx_node_name = "all"} : (tensor<?x5x7xf32>) -> tensor<1x1x1xf32>
  func.return %0, %1, %2 : tensor<?x7xf32>, tensor<?x5x1xf32>, tensor<1x1x1xf32>
}
// CHECK-LABEL: func.func @log_sum
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x7xf32>
// CHECK-NEXT:    %1 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%0 : tensor<?x7xf32>) {axes = array<i64: 1>} -> tensor<?x7xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x7xf32>
// CHECK-NEXT:    %3 = hip.miopen.log(%ctx) ins(%1 : tensor<?x7xf32>) outs(%2 : tensor<?x7xf32>) -> tensor<?x7xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x5x1xf32>
// CHECK-NEXT:    %5 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%4 : tensor<?x5x1xf32>) {axes = array<i64: 2>, keepdims} -> tensor<?x5x1xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c0 : tensor<?x5x7xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_3) : tensor<?x5x1xf32>
// CHECK-NEXT:    %7 = hip.miopen.log(%ctx) ins(%5 : tensor<?x5x1xf32>) outs(%6 : tensor<?x5x1xf32>) -> tensor<?x5x1xf32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<1x1x1xf32>
// CHECK-NEXT:    %9 = hip.miopen.reduce_sum(%ctx) ins(%x : tensor<?x5x7xf32>) outs(%8 : tensor<1x1x1xf32>) {axes = array<i64: 0, 1, 2>, keepdims} -> tensor<1x1x1xf32>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<1x1x1xf32>
// CHECK-NEXT:    %11 = hip.miopen.log(%ctx) ins(%9 : tensor<1x1x1xf32>) outs(%10 : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:    func.return %3, %7, %11 : tensor<?x7xf32>, tensor<?x5x1xf32>, tensor<1x1x1xf32>

// noop_with_empty_axes with no axes (absent, or an empty constant): the
// element function without the reduction, as ONNX Runtime and onnx's
// reference compute it. L1, L2, SumSquare and LogSumExp are their reduction
// over zero axes (`axes = array<i64>`); LogSum is the log of its input; Sum,
// Mean, Max, Min and Prod are the input itself.

func.func @noop(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>) {
  %none = "onnx.Constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %0 = "onnx.ReduceL1"(%x) {noop_with_empty_axes = 1 : si64, onnx_node_name = "l1"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %1 = "onnx.ReduceL2"(%x, %none) {keepdims = 0 : si64, noop_with_empty_axes = 1 : si64, onnx_node_name = "l2"} : (tensor<?x5xf32>, tensor<0xi64>) -> tensor<?x5xf32>
  %2 = "onnx.ReduceSumSquare"(%x) {noop_with_empty_axes = 1 : si64, onnx_node_name = "ss"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %3 = "onnx.ReduceLogSumExp"(%x) {noop_with_empty_axes = 1 : si64, onnx_node_name = "lse"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %4 = "onnx.ReduceLogSum"(%x, %none) {noop_with_empty_axes = 1 : si64, onnx_node_name = "ls"} : (tensor<?x5xf32>, tensor<0xi64>) -> tensor<?x5xf32>
  %5 = "onnx.ReduceSum"(%x, %none) {noop_with_empty_axes = 1 : si64, onnx_node_name = "sum"} : (tensor<?x5xf32>, tensor<0xi64>) -> tensor<?x5xf32>
  %6 = "onnx.ReduceMax"(%x) {noop_with_empty_axes = 1 : si64, onnx_node_name = "max"} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>
}
// CHECK-LABEL: func.func @noop
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x5xf32>
// CHECK-NEXT:    %1 = hip.miopen.reduce_l1(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?x5xf32>) {axes = array<i64>, keepdims} -> tensor<?x5xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_1) : tensor<?x5xf32>
// CHECK-NEXT:    %3 = hip.miopen.reduce_l2(%ctx) ins(%x : tensor<?x5xf32>) outs(%2 : tensor<?x5xf32>) {axes = array<i64>} -> tensor<?x5xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x5xf32>
// CHECK-NEXT:    %5 = hip.reduce_sum_square(%ctx) ins(%x : tensor<?x5xf32>) outs(%4 : tensor<?x5xf32>) {axes = array<i64>, keepdims} -> tensor<?x5xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_3) : tensor<?x5xf32>
// CHECK-NEXT:    %7 = hip.reduce_log_sum_exp(%ctx) ins(%x : tensor<?x5xf32>) outs(%6 : tensor<?x5xf32>) {axes = array<i64>, keepdims} -> tensor<?x5xf32>
// CHECK-NEXT:    %dim_4 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:    %8 = tensor.empty(%dim_4) : tensor<?x5xf32>
// CHECK-NEXT:    %9 = hip.miopen.log(%ctx) ins(%x : tensor<?x5xf32>) outs(%8 : tensor<?x5xf32>) -> tensor<?x5xf32>
// CHECK-NEXT:    func.return %1, %3, %5, %7, %9, %x, %x : tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>
