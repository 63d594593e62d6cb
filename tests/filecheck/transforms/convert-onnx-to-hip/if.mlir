// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p hip-add-context-arg | filecheck %s --check-prefix=ROUNDTRIP

// An If with a constant condition is its taken branch, inlined; the other
// branch is dropped. (A condition that is data is specialized on by
// xhip.compile: tests/filecheck/transforms/hip-guard-assumptions.)
func.func @constant(%ctx: !hip.context, %x: tensor<3xf32>) -> tensor<3xf32> {
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %y = "onnx.If"(%c) ({
    %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%t) : (tensor<3xf32>) -> ()
  }, {
    %e = "onnx.Abs"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%e) : (tensor<3xf32>) -> ()
  }) {onnx_node_name = "if"} : (tensor<i1>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %cst = arith.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:    %t = hip.miopen.neg(%ctx) ins(%x : tensor<3xf32>) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %t : tensor<3xf32>

// ROUNDTRIP:      "onnx.If"(%c) ({
// ROUNDTRIP-NEXT:   %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// ROUNDTRIP-NEXT:   "onnx.Yield"(%t) : (tensor<3xf32>) -> ()
// ROUNDTRIP-NEXT: }, {
// ROUNDTRIP-NEXT:   %e = "onnx.Abs"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// ROUNDTRIP-NEXT:   "onnx.Yield"(%e) : (tensor<3xf32>) -> ()
// ROUNDTRIP-NEXT: }) {onnx_node_name = "if"} : (tensor<i1>) -> tensor<3xf32>
