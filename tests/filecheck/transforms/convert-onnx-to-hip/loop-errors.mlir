// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// Loops and Scans that cannot be unrolled are refused with the reason: a trip
// count that is data (xhip.compile specializes on it; this pass alone does
// not), a condition the body computes from data (an early exit), a scan
// input whose length is known only at run time.

func.func @f(%ctx: !hip.context, %m: tensor<i64>, %y0: tensor<2xf32>, %x: tensor<?x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %a = "onnx.Loop"(%m, %c, %y0) <{operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %in: tensor<2xf32>):
    %out = "onnx.Neg"(%in) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%cond, %out) : (tensor<i1>, tensor<2xf32>) -> ()
  }) {onnx_node_name = "data_trips"} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %b = "onnx.Loop"(%three, %c, %y0) <{operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %in: tensor<2xf32>):
    %out = "onnx.Neg"(%in) : (tensor<2xf32>) -> tensor<2xf32>
    %idx = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %first = "onnx.Gather"(%out, %idx) <{axis = 0 : si64}> : (tensor<2xf32>, tensor<i64>) -> tensor<f32>
    %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %less = "onnx.Less"(%first, %zero) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%less, %out) : (tensor<i1>, tensor<2xf32>) -> ()
  }) {onnx_node_name = "early_exit"} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %s, %z = "onnx.Scan"(%y0, %x) <{num_scan_inputs = 1 : si64}> ({
  ^bb0(%in: tensor<2xf32>, %next: tensor<2xf32>):
    %out = "onnx.Add"(%in, %next) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%out, %out) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) {onnx_node_name = "dynamic"} : (tensor<2xf32>, tensor<?x2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  func.return %a, %b, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Loop (node 'data_trips'): the trip count M is data known only at run time: xhip.compile specializes on it (docs/shape-values.md, Guards)
// CHECK-NEXT:   onnx.Loop (node 'early_exit'): the body computes its condition from data: unrolling needs it known at compile time (an early exit is data-dependent control flow, which xhip does not run)
// CHECK-NEXT:   onnx.Scan (node 'dynamic'): the scan inputs' lengths must be static, equal and from 1 to 4096 (it is unrolled)
