// RUN: xdsl-opt %s --verify-diagnostics --split-input-file -p convert-onnx-to-hip | filecheck %s

// What cannot be resolved at compile time is refused with the reason: a
// position that is data (xhip.compile specializes on it; this pass alone
// does not), a sequence given as an argument (XhipBackend compiles per
// length), a position out of range.

func.func @data_position(%ctx: !hip.context, %x: tensor<2xf32>, %p: tensor<i64>) -> tensor<2xf32> {
  %s = "onnx.SequenceConstruct"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
  %a = "onnx.SequenceAt"(%s, %p) {onnx_node_name = "at"} : (!onnx.Seq<tensor<2xf32>>, tensor<i64>) -> tensor<2xf32>
  func.return %a : tensor<2xf32>
}

// CHECK:      convert-onnx-to-hip: 2 op(s) cannot be converted:
// CHECK-NEXT:   onnx.SequenceConstruct (unnamed node): builds a value that an op which is not resolved reads
// CHECK-NEXT:   onnx.SequenceAt (node 'at'): sequences and optionals are resolved at compile time; this one's structure (its length, a position, or whether it holds a value) is not known then: it comes from a graph input, a loop that is not unrolled, or data (docs/sequences.md)

// -----

func.func @argument(%ctx: !hip.context, %s: !onnx.Seq<tensor<2xf32>>) -> tensor<i64> {
  %n = "onnx.SequenceLength"(%s) {onnx_node_name = "length"} : (!onnx.Seq<tensor<2xf32>>) -> tensor<i64>
  func.return %n : tensor<i64>
}

// CHECK:      convert-onnx-to-hip: 1 op(s) cannot be converted:
// CHECK-NEXT:   onnx.SequenceLength (node 'length'): sequences and optionals are resolved at compile time; this one's structure

// -----

func.func @out_of_range(%ctx: !hip.context, %x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "onnx.SequenceConstruct"(%x) : (tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %a = "onnx.SequenceAt"(%s, %two) {onnx_node_name = "at"} : (!onnx.Seq<tensor<2xf32>>, tensor<i64>) -> tensor<2xf32>
  func.return %a : tensor<2xf32>
}

// CHECK:      convert-onnx-to-hip: 2 op(s) cannot be converted:
// CHECK-NEXT:   onnx.SequenceConstruct (unnamed node): builds a value that an op which is not resolved reads
// CHECK-NEXT:   onnx.SequenceAt (node 'at'): position 2 is out of range for a sequence of 1
