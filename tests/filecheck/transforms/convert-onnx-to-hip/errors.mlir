// RUN: xdsl-opt %s --verify-diagnostics --allow-unregistered-dialect -p convert-onnx-to-hip | filecheck %s
// RUN: rm -rf %t && xdsl-opt %s --verify-diagnostics --allow-unregistered-dialect -p 'convert-onnx-to-hip{externalize-min-num-elements=1 externalize-output-dir="%t"}' && ls -A %t | wc -l | filecheck %s --check-prefix=EMPTY

// Every op that cannot be converted is reported, with its node name and why,
// in program order, in one error; and no constants file is left behind.

func.func @f(%ctx: !hip.context, %x: tensor<?x4xf32>, %s: tensor<?xi64>, %e: tensor<i64>) -> (tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>) {
  %w = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Add"(%x, %w) {onnx_node_name = "bias"} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Concat"(%0, %e) <{axis = 0 : si64}> {onnx_node_name = "concat_1"} : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  %2 = "onnx.Reshape"(%1, %s) {onnx_node_name = "reshape_dyn"} : (tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %3 = "onnx.RandomNormalLike"(%1) {onnx_node_name = "ln"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = "onnx.Pow"(%e, %x) {onnx_node_name = "pow_i64"} : (tensor<i64>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %3, %2, %4 : tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>
}

// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Concat (node 'concat_1'): input type tensor<i64> differs from the result's
// CHECK-NEXT:   onnx.Reshape (node 'reshape_dyn'): the shape operand must be a 0-D or 1-D tensor of static length
// CHECK-NEXT:   onnx.RandomNormalLike (node 'ln'): no conversion to hip for this op
// CHECK-NEXT:   onnx.Pow (node 'pow_i64'): base type tensor<i64> differs from the result's element type f32

// EMPTY: 0
