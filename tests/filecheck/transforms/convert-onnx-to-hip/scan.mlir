// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s
// RUN: xdsl-opt %s -p hip-add-context-arg | filecheck %s --check-prefix=ROUNDTRIP

// A Scan is unrolled before the conversion, one copy of its body per step
// (the scan input's static length, 3): each step gathers the slice of the scan
// input at that step (a Gather at a constant index), adds it to the state the
// step before yielded; the scan output is the steps' values stacked
// (Unsqueeze, Concat along scan_output_axes).
func.func @cumsum(%ctx: !hip.context, %s: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %y, %z = "onnx.Scan"(%s, %x) <{num_scan_inputs = 1 : si64}> ({
  ^bb0(%in: tensor<2xf32>, %next: tensor<2xf32>):
    %out = "onnx.Add"(%in, %next) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%out, %out) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) {onnx_node_name = "scan"} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  func.return %y, %z : tensor<2xf32>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func @cumsum
// CHECK-NEXT:    %cst = arith.constant dense<2> : tensor<i64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %cst_2 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %1 = hip.gather(%ctx) ins(%x, %cst_2 : tensor<3x2xf32>, tensor<i64>) outs(%0 : tensor<2xf32>) {axis = 0 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %out = hip.miopen.add(%ctx) ins(%s, %1 : tensor<2xf32>, tensor<2xf32>) outs(%2 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %3 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %4 = hip.gather(%ctx) ins(%x, %cst_1 : tensor<3x2xf32>, tensor<i64>) outs(%3 : tensor<2xf32>) {axis = 0 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %5 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %out_1 = hip.miopen.add(%ctx) ins(%out, %4 : tensor<2xf32>, tensor<2xf32>) outs(%5 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %7 = hip.gather(%ctx) ins(%x, %cst : tensor<3x2xf32>, tensor<i64>) outs(%6 : tensor<2xf32>) {axis = 0 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %8 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %out_2 = hip.miopen.add(%ctx) ins(%out_1, %7 : tensor<2xf32>, tensor<2xf32>) outs(%8 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %9 = tensor.expand_shape %out [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %10 = tensor.expand_shape %out_1 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %11 = tensor.expand_shape %out_2 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %12 = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:    %z = hip.concat(%ctx) ins(%9, %10, %11 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) outs(%12 : tensor<3x2xf32>) {axis = 0 : i64} -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %out_2, %z : tensor<2xf32>, tensor<3x2xf32>

// ROUNDTRIP:      %y, %z = "onnx.Scan"(%s, %x) <{num_scan_inputs = 1 : si64}> ({
// ROUNDTRIP-NEXT: ^bb0(%in: tensor<2xf32>, %next: tensor<2xf32>):
// ROUNDTRIP-NEXT:   %out = "onnx.Add"(%in, %next) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// ROUNDTRIP-NEXT:   "onnx.Yield"(%out, %out) : (tensor<2xf32>, tensor<2xf32>) -> ()
// ROUNDTRIP-NEXT: }) {onnx_node_name = "scan"} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
