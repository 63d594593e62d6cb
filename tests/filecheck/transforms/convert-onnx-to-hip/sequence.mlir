// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// Sequences are resolved away before the conversion: each op on one reads
// the tensors the ops before put in it, so only tensor ops remain.
func.func @split_insert_concat(%ctx: !hip.context, %x: tensor<4x2xf32>, %y: tensor<1x2xf32>) -> (tensor<4x2xf32>, tensor<i64>, tensor<1x2xf32>) {
  %split = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.SplitToSequence"(%x, %split) <{axis = 0 : si64, keepdims = 1 : si64}> : (tensor<4x2xf32>, tensor<2xi64>) -> !onnx.Seq<tensor<?x2xf32>>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %t = "onnx.SequenceInsert"(%s, %y, %zero) : (!onnx.Seq<tensor<?x2xf32>>, tensor<1x2xf32>, tensor<i64>) -> !onnx.Seq<tensor<?x2xf32>>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %u = "onnx.SequenceErase"(%t, %last) : (!onnx.Seq<tensor<?x2xf32>>, tensor<i64>) -> !onnx.Seq<tensor<?x2xf32>>
  %v = "onnx.SequenceInsert"(%u, %y) : (!onnx.Seq<tensor<?x2xf32>>, tensor<1x2xf32>) -> !onnx.Seq<tensor<?x2xf32>>
  %w = "onnx.SequenceInsert"(%v, %y) : (!onnx.Seq<tensor<?x2xf32>>, tensor<1x2xf32>) -> !onnx.Seq<tensor<?x2xf32>>
  %n = "onnx.SequenceLength"(%w) : (!onnx.Seq<tensor<?x2xf32>>) -> tensor<i64>
  %c = "onnx.ConcatFromSequence"(%w) <{axis = 0 : si64, new_axis = 0 : si64}> : (!onnx.Seq<tensor<?x2xf32>>) -> tensor<4x2xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %a = "onnx.SequenceAt"(%w, %one) : (!onnx.Seq<tensor<?x2xf32>>, tensor<i64>) -> tensor<1x2xf32>
  func.return %c, %n, %a : tensor<4x2xf32>, tensor<i64>, tensor<1x2xf32>
}
// CHECK-LABEL: func.func @split_insert_concat
// CHECK-SAME:  (%ctx: !hip.context, %x: tensor<4x2xf32>, %y: tensor<1x2xf32>) -> (tensor<4x2xf32>, tensor<i64>, tensor<1x2xf32>) {
// CHECK-NEXT:    %cst = arith.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x2xf32>
// CHECK-NEXT:    %a = hip.slice(%ctx, %c0, %c0) ins(%x : tensor<4x2xf32>) outs(%0 : tensor<1x2xf32>) {steps = array<i64: 1, 1>} -> tensor<1x2xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:    %2 = hip.slice(%ctx, %c1, %c0) ins(%x : tensor<4x2xf32>) outs(%1 : tensor<3x2xf32>) {steps = array<i64: 1, 1>} -> tensor<3x2xf32>
// CHECK-NEXT:    %3 = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT:    %c = hip.concat(%ctx) ins(%y, %a, %y, %y : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) outs(%3 : tensor<4x2xf32>) {axis = 0 : i64} -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %c, %cst, %a : tensor<4x2xf32>, tensor<i64>, tensor<1x2xf32>

// SplitToSequence without `split` and keepdims = 0: one Gather per index;
// ConcatFromSequence with new_axis = 1 stacks them (Unsqueeze, Concat).
func.func @unstack_stack(%ctx: !hip.context, %x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = "onnx.SplitToSequence"(%x) <{axis = 1 : si64, keepdims = 0 : si64}> : (tensor<2x3xf32>) -> !onnx.Seq<tensor<2xf32>>
  %c = "onnx.ConcatFromSequence"(%s) <{axis = 0 : si64, new_axis = 1 : si64}> : (!onnx.Seq<tensor<2xf32>>) -> tensor<3x2xf32>
  func.return %c : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @unstack_stack
// CHECK-SAME:  (%ctx: !hip.context, %x: tensor<2x3xf32>) -> tensor<3x2xf32> {
// CHECK-NEXT:    %cst = arith.constant dense<2> : tensor<i64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %cst_2 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %1 = hip.gather(%ctx) ins(%x, %cst_2 : tensor<2x3xf32>, tensor<i64>) outs(%0 : tensor<2xf32>) {axis = 1 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %3 = hip.gather(%ctx) ins(%x, %cst_1 : tensor<2x3xf32>, tensor<i64>) outs(%2 : tensor<2xf32>) {axis = 1 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %5 = hip.gather(%ctx) ins(%x, %cst : tensor<2x3xf32>, tensor<i64>) outs(%4 : tensor<2xf32>) {axis = 1 : i64} -> tensor<2xf32>
// CHECK-NEXT:    %6 = tensor.expand_shape %1 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %7 = tensor.expand_shape %3 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %8 = tensor.expand_shape %5 [[0 : i64, 1 : i64]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT:    %9 = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:    %c = hip.concat(%ctx) ins(%6, %7, %8 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) outs(%9 : tensor<3x2xf32>) {axis = 0 : i64} -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %c : tensor<3x2xf32>

// Optionals: whether one holds a value is a constant, the If it decides is
// inlined, and OptionalGetElement is the value held.
func.func @optional(%ctx: !hip.context, %x: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.Optional"() <{type = tensor<2xf32>}> : () -> !onnx.Opt<tensor<2xf32>>
  %some = "onnx.Optional"(%x) : (tensor<2xf32>) -> !onnx.Opt<tensor<2xf32>>
  %has = "onnx.OptionalHasElement"(%none) : (!onnx.Opt<tensor<2xf32>>) -> tensor<i1>
  %r = "onnx.If"(%has) ({
    %g = "onnx.OptionalGetElement"(%none) : (!onnx.Opt<tensor<2xf32>>) -> tensor<2xf32>
    "onnx.Yield"(%g) : (tensor<2xf32>) -> ()
  }, {
    %g = "onnx.OptionalGetElement"(%some) : (!onnx.Opt<tensor<2xf32>>) -> tensor<2xf32>
    %n = "onnx.Neg"(%g) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @optional
// CHECK-SAME:  (%ctx: !hip.context, %x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %n = hip.miopen.neg(%ctx) ins(%x : tensor<2xf32>) outs(%0 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %n : tensor<2xf32>

// A sequence the loop carries is known step by step: the unrolled steps
// insert into it, SequenceMap's body runs once per element, and the
// function's sequence result is its elements, named `name[i]`.
func.func @loop_map(%ctx: !hip.context, %x: tensor<2xf32>) -> (!onnx.Seq<tensor<2xf32>> {onnx.name = "out"}) {
  %m = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %e = "onnx.SequenceEmpty"() <{dtype = 1 : si64}> : () -> !onnx.Seq<tensor<2xf32>>
  %s = "onnx.Loop"(%m, %c, %e) <{operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %in: !onnx.Seq<tensor<2xf32>>):
    %out = "onnx.SequenceInsert"(%in, %x) : (!onnx.Seq<tensor<2xf32>>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    "onnx.Yield"(%cond, %out) : (tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> ()
  }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  %r = "onnx.SequenceMap"(%s) ({
  ^bb0(%el: tensor<2xf32>):
    %n = "onnx.Neg"(%el) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }) : (!onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  func.return %r : !onnx.Seq<tensor<2xf32>>
}
// CHECK-LABEL: func.func @loop_map
// CHECK-SAME:  (%ctx: !hip.context, %x: tensor<2xf32>) -> (tensor<2xf32> {onnx.name = "out[0]"}, tensor<2xf32> {onnx.name = "out[1]"}) {
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %n = hip.miopen.neg(%ctx) ins(%x : tensor<2xf32>) outs(%0 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %n_1 = hip.miopen.neg(%ctx) ins(%x : tensor<2xf32>) outs(%1 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %n, %n_1 : tensor<2xf32>, tensor<2xf32>
