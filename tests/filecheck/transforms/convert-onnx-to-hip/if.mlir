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
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:    %t = hip.miopen.neg(%ctx) ins(%x : tensor<3xf32>) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %t : tensor<3xf32>

// An If whose condition is a shape another If picks (an expanded function's
// `If` on the sizes an `If` chose): decided once the first is inlined and the
// shapes folded again, before the conversion.
func.func @nested(%ctx: !hip.context, %x: tensor<3xf32>) -> tensor<3xf32> {
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %n = "onnx.If"(%c) ({
    %s = "onnx.Shape"(%x) {start = 0 : si64} : (tensor<3xf32>) -> tensor<1xi64>
    "onnx.Yield"(%s) : (tensor<1xi64>) -> ()
  }, {
    %k = "onnx.Constant"() {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
    "onnx.Yield"(%k) : (tensor<1xi64>) -> ()
  }) {onnx_node_name = "sizes"} : (tensor<i1>) -> tensor<1xi64>
  %three = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Equal"(%n, %three) {onnx_node_name = "is3"} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %y = "onnx.If"(%e) ({
    %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%t) : (tensor<3xf32>) -> ()
  }, {
    %a = "onnx.Abs"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%a) : (tensor<3xf32>) -> ()
  }) {onnx_node_name = "if"} : (tensor<1xi1>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @nested
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
