// RUN: xdsl-opt %s --verify-diagnostics --split-input-file -p convert-onnx-to-hip | filecheck %s

// A split along a dim known only at run time has as many pieces as that dim
// decides, so only readers that need no list of them are converted; the
// others are refused with the reason. Pieces of a scalar split (the last
// may be shorter) joined along another axis:

func.func @scalar_split_joined_elsewhere(%ctx: !hip.context, %x: tensor<?x3xf32>) -> tensor<2x?xf32> {
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %s = "onnx.SplitToSequence"(%x, %two) <{axis = 0 : si64}> {onnx_node_name = "split"} : (tensor<?x3xf32>, tensor<i64>) -> !onnx.Seq<tensor<?x3xf32>>
  %c = "onnx.ConcatFromSequence"(%s) <{axis = 1 : si64, new_axis = 0 : si64}> {onnx_node_name = "join"} : (!onnx.Seq<tensor<?x3xf32>>) -> tensor<2x?xf32>
  func.return %c : tensor<2x?xf32>
}

// CHECK:      convert-onnx-to-hip: 2 op(s) cannot be converted:
// CHECK-NEXT:   onnx.SplitToSequence (node 'split'): its length is the size of a dim known only at run time; only SequenceAt at a known position, SequenceLength and ConcatFromSequence read such a sequence
// CHECK-NEXT:   onnx.ConcatFromSequence (node 'join'): the pieces of a split by a scalar along a dim known only at run time are joined only back along the split axis

// -----

// A reader that needs the list: SequenceInsert.

func.func @insert(%ctx: !hip.context, %x: tensor<?x3xf32>, %y: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %s = "onnx.SplitToSequence"(%x) <{axis = 0 : si64}> {onnx_node_name = "split"} : (tensor<?x3xf32>) -> !onnx.Seq<tensor<1x3xf32>>
  %t = "onnx.SequenceInsert"(%s, %y) {onnx_node_name = "insert"} : (!onnx.Seq<tensor<1x3xf32>>, tensor<1x3xf32>) -> !onnx.Seq<tensor<1x3xf32>>
  %c = "onnx.ConcatFromSequence"(%t) <{axis = 0 : si64, new_axis = 0 : si64}> {onnx_node_name = "join"} : (!onnx.Seq<tensor<1x3xf32>>) -> tensor<?x3xf32>
  func.return %c : tensor<?x3xf32>
}

// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.SplitToSequence (node 'split'): its length is the size of a dim known only at run time; only SequenceAt at a known position, SequenceLength and ConcatFromSequence read such a sequence
// CHECK-NEXT:   onnx.SequenceInsert (node 'insert'): sequences and optionals are resolved at compile time; this one's structure (its length, a position, or whether it holds a value) is not known then
// CHECK-NEXT:   onnx.ConcatFromSequence (node 'join'): sequences and optionals are resolved at compile time
