// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// A Loop with a constant trip count (2) and a condition the body passes
// through is unrolled before the conversion: each step is the body's ops on
// the iteration number (a constant) and the value the step before carried;
// the scan output is the steps' values stacked along a new first axis.
func.func @twice(%ctx: !hip.context, %y0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>) {
  %m = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %y, %ys = "onnx.Loop"(%m, %c, %y0) <{operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %in: tensor<2xf32>):
    %keep = "onnx.Identity"(%cond) : (tensor<i1>) -> tensor<i1>
    %out = "onnx.Add"(%in, %in) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%keep, %out, %out) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) {onnx_node_name = "loop"} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>)
  func.return %y, %ys : tensor<2xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %out = hip.miopen.add(%ctx) ins(%y0, %y0 : tensor<2xf32>, tensor<2xf32>) outs(%0 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %out_1 = hip.miopen.add(%ctx) ins(%out, %out : tensor<2xf32>, tensor<2xf32>) outs(%1 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %2 = tensor.expand_shape %out [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %3 = tensor.expand_shape %out_1 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT:    %ys = hip.concat(%ctx) ins(%2, %3 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%4 : tensor<2x2xf32>) {axis = 0 : i64} -> tensor<2x2xf32>
// CHECK-NEXT:    func.return %out_1, %ys : tensor<2xf32>, tensor<2x2xf32>
