// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// QLinearGlobalAveragePool over spatial dims known only at run time: the
// element count is their product, written by the host (`hip.from_elements`)
// for the zero-point bias and the scale's denominator.

func.func @qlinear_global_average_pool(%ctx: !hip.context, %x: tensor<2x3x?x?xui8>, %sx: tensor<f32>, %zx: tensor<ui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x3x1x1xui8> {
  %0 = "onnx.QLinearGlobalAveragePool"(%x, %sx, %zx, %sy, %zy) {onnx_node_name = "gap"} : (tensor<2x3x?x?xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3x1x1xui8>
  func.return %0 : tensor<2x3x1x1xui8>
}

// CHECK-LABEL: func.func @qlinear_global_average_pool
// CHECK-NEXT:  %cst = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c2 : tensor<2x3x?x?xui8>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c3 : tensor<2x3x?x?xui8>
// CHECK-NEXT:  %0 = arith.muli %dim, %dim_1 : index
// CHECK-NEXT:  %1 = arith.index_cast %0 : index to i32
// CHECK-NEXT:  %2 = tensor.empty() : tensor<i32>
// CHECK-NEXT:  %3 = hip.from_elements(%ctx, %0) ins() outs(%2 : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %5 = hip.cast(%ctx) ins(%3 : tensor<i32>) outs(%4 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %dim_2 = tensor.dim %x, %c2 : tensor<2x3x?x?xui8>
// CHECK-NEXT:  %dim_3 = tensor.dim %x, %c3 : tensor<2x3x?x?xui8>
// CHECK-NEXT:  %6 = tensor.empty(%dim_2, %dim_3) : tensor<2x3x?x?xi32>
// CHECK-NEXT:  %7 = hip.cast(%ctx) ins(%x : tensor<2x3x?x?xui8>) outs(%6 : tensor<2x3x?x?xi32>) -> tensor<2x3x?x?xi32>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<2x3x1x1xi32>
// CHECK-NEXT:  %9 = hip.miopen.reduce_sum(%ctx) ins(%7 : tensor<2x3x?x?xi32>) outs(%8 : tensor<2x3x1x1xi32>) {axes = array<i64: 2, 3>, keepdims} -> tensor<2x3x1x1xi32>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<i32>
// CHECK-NEXT:  %11 = hip.cast(%ctx) ins(%zx : tensor<ui8>) outs(%10 : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:  %12 = tensor.empty() : tensor<i32>
// CHECK-NEXT:  %13 = hip.miopen.mul(%ctx) ins(%11, %3 : tensor<i32>, tensor<i32>) outs(%12 : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:  %14 = tensor.empty() : tensor<2x3x1x1xi32>
// CHECK-NEXT:  %15 = hip.miopen.sub(%ctx) ins(%9, %13 : tensor<2x3x1x1xi32>, tensor<i32>) outs(%14 : tensor<2x3x1x1xi32>) -> tensor<2x3x1x1xi32>
// CHECK-NEXT:  %16 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %17 = hip.miopen.mul(%ctx) ins(%sy, %5 : tensor<f32>, tensor<f32>) outs(%16 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %18 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %19 = hip.miopen.div(%ctx) ins(%sx, %17 : tensor<f32>, tensor<f32>) outs(%18 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %20 = tensor.empty() : tensor<2x3x1x1xf32>
// CHECK-NEXT:  %21 = hip.cast(%ctx) ins(%15 : tensor<2x3x1x1xi32>) outs(%20 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
// CHECK-NEXT:  %22 = tensor.empty() : tensor<2x3x1x1xf32>
// CHECK-NEXT:  %23 = hip.miopen.mul(%ctx) ins(%21, %19 : tensor<2x3x1x1xf32>, tensor<f32>) outs(%22 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
// CHECK-NEXT:  %24 = tensor.empty() : tensor<2x3x1x1xui8>
// CHECK-NEXT:  %25 = hip.quantize_linear(%ctx) ins(%23, %cst, %zy : tensor<2x3x1x1xf32>, tensor<f32>, tensor<ui8>) outs(%24 : tensor<2x3x1x1xui8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x3x1x1xui8>
// CHECK-NEXT:  func.return %25 : tensor<2x3x1x1xui8>

// QLinearSoftmax along a dim known only at run time: ORT's shift
// `max(0, log(FLT_MAX / size) - 5)` in float32 on the device from the size.

func.func @qlinear_softmax(%ctx: !hip.context, %x: tensor<2x?xui8>, %sx: tensor<f32>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x?xui8> {
  %0 = "onnx.QLinearSoftmax"(%x, %sx, %sy, %zy) <{axis = -1 : si64, opset = 13 : si64, operandSegmentSizes = array<i32: 1, 1, 0, 1, 1>}> {onnx_node_name = "sm"} : (tensor<2x?xui8>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x?xui8>
  func.return %0 : tensor<2x?xui8>
}

// CHECK-LABEL: func.func @qlinear_softmax
// CHECK-NEXT:  %c9223372036854775807 = arith.constant 9223372036854775807 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c = arith.constant -1 : index
// CHECK-NEXT:  %cst = arith.constant dense<0> : tensor<ui8>
// CHECK-NEXT:  %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<9223372036854775807> : tensor<1xi64>
// CHECK-NEXT:  %cst_4 = arith.constant dense<-1> : tensor<1xi64>
// CHECK-NEXT:  %cst_5 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:  %cst_6 = arith.constant dense<5.000000e+00> : tensor<f32>
// CHECK-NEXT:  %cst_7 = arith.constant dense<3.40282347e+38> : tensor<f32>
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c1 : tensor<2x?xui8>
// CHECK-NEXT:  %0 = arith.index_cast %dim : index to i64
// CHECK-NEXT:  %1 = tensor.empty() : tensor<i64>
// CHECK-NEXT:  %2 = hip.from_elements(%ctx, %dim) ins() outs(%1 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c1 : tensor<2x?xui8>
// CHECK-NEXT:  %3 = tensor.empty(%dim_1) : tensor<2x?xi32>
// CHECK-NEXT:  %4 = hip.cast(%ctx) ins(%x : tensor<2x?xui8>) outs(%3 : tensor<2x?xi32>) -> tensor<2x?xi32>
// CHECK-NEXT:  %5 = tensor.empty() : tensor<2x1xi32>
// CHECK-NEXT:  %6 = hip.miopen.reduce_max(%ctx) ins(%4 : tensor<2x?xi32>) outs(%5 : tensor<2x1xi32>) {axes = array<i64: 1>, keepdims} -> tensor<2x1xi32>
// CHECK-NEXT:  %7 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %8 = hip.cast(%ctx) ins(%sx : tensor<f32>) outs(%7 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %9 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %10 = hip.cast(%ctx) ins(%2 : tensor<i64>) outs(%9 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %11 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %12 = hip.miopen.div(%ctx) ins(%cst_7, %10 : tensor<f32>, tensor<f32>) outs(%11 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %13 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %14 = hip.miopen.log(%ctx) ins(%12 : tensor<f32>) outs(%13 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %15 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %16 = hip.miopen.sub(%ctx) ins(%14, %cst_6 : tensor<f32>, tensor<f32>) outs(%15 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %17 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %18 = hip.miopen.relu(%ctx) ins(%16 : tensor<f32>) outs(%17 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %19 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %20 = hip.cast(%ctx) ins(%18 : tensor<f32>) outs(%19 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %21 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %22 = hip.miopen.div(%ctx) ins(%20, %8 : tensor<f64>, tensor<f64>) outs(%21 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %dim_2 = tensor.dim %4, %c1 : tensor<2x?xi32>
// CHECK-NEXT:  %23 = tensor.empty(%dim_2) : tensor<2x?xi32>
// CHECK-NEXT:  %24 = hip.miopen.sub(%ctx) ins(%4, %6 : tensor<2x?xi32>, tensor<2x1xi32>) outs(%23 : tensor<2x?xi32>) -> tensor<2x?xi32>
// CHECK-NEXT:  %dim_3 = tensor.dim %24, %c1 : tensor<2x?xi32>
// CHECK-NEXT:  %25 = tensor.empty(%dim_3) : tensor<2x?xf64>
// CHECK-NEXT:  %26 = hip.cast(%ctx) ins(%24 : tensor<2x?xi32>) outs(%25 : tensor<2x?xf64>) -> tensor<2x?xf64>
// CHECK-NEXT:  %dim_4 = tensor.dim %26, %c1 : tensor<2x?xf64>
// CHECK-NEXT:  %27 = tensor.empty(%dim_4) : tensor<2x?xf64>
// CHECK-NEXT:  %28 = hip.miopen.add(%ctx) ins(%26, %22 : tensor<2x?xf64>, tensor<f64>) outs(%27 : tensor<2x?xf64>) -> tensor<2x?xf64>
// CHECK-NEXT:  %dim_5 = tensor.dim %28, %c1 : tensor<2x?xf64>
// CHECK-NEXT:  %29 = tensor.empty(%dim_5) : tensor<2x?xf64>
// CHECK-NEXT:  %30 = hip.miopen.mul(%ctx) ins(%28, %8 : tensor<2x?xf64>, tensor<f64>) outs(%29 : tensor<2x?xf64>) -> tensor<2x?xf64>
// CHECK-NEXT:  %dim_6 = tensor.dim %30, %c1 : tensor<2x?xf64>
// CHECK-NEXT:  %31 = tensor.empty(%dim_6) : tensor<2x?xf64>
// CHECK-NEXT:  %32 = hip.miopen.exp(%ctx) ins(%30 : tensor<2x?xf64>) outs(%31 : tensor<2x?xf64>) -> tensor<2x?xf64>
// CHECK-NEXT:  %dim_7 = tensor.dim %32, %c1 : tensor<2x?xf64>
// CHECK-NEXT:  %33 = tensor.empty(%dim_7) : tensor<2x?xf32>
// CHECK-NEXT:  %34 = hip.cast(%ctx) ins(%32 : tensor<2x?xf64>) outs(%33 : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:  %dim_8 = tensor.dim %34, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %35 = tensor.empty(%dim_8) : tensor<2x?xf32>
// CHECK-NEXT:  %36 = hip.cumsum(%ctx) ins(%34 : tensor<2x?xf32>) outs(%35 : tensor<2x?xf32>) {axis = 1 : i64} -> tensor<2x?xf32>
// CHECK-NEXT:  %dim_9 = tensor.dim %36, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %37 = arith.addi %c, %dim_9 : index
// CHECK-NEXT:  %38 = arith.maxsi %37, %c0 : index
// CHECK-NEXT:  %39 = arith.minsi %38, %dim_9 : index
// CHECK-NEXT:  %40 = arith.minsi %c9223372036854775807, %dim_9 : index
// CHECK-NEXT:  %41 = arith.subi %40, %39 : index
// CHECK-NEXT:  %42 = arith.maxsi %41, %c0 : index
// CHECK-NEXT:  %43 = tensor.empty(%42) : tensor<2x?xf32>
// CHECK-NEXT:  %44 = hip.slice(%ctx, %c0, %39) ins(%36 : tensor<2x?xf32>) outs(%43 : tensor<2x?xf32>) {steps = array<i64: 1, 1>} -> tensor<2x?xf32>
// CHECK-NEXT:  %45 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %46 = hip.miopen.div(%ctx) ins(%cst_1, %sy : tensor<f32>, tensor<f32>) outs(%45 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %47 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %48 = hip.miopen.floor(%ctx) ins(%46 : tensor<f32>) outs(%47 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %dim_10 = tensor.dim %34, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %49 = tensor.empty(%dim_10) : tensor<2x?xf32>
// CHECK-NEXT:  %50 = hip.miopen.mul(%ctx) ins(%34, %48 : tensor<2x?xf32>, tensor<f32>) outs(%49 : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:  %dim_11 = tensor.dim %50, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %51 = tensor.empty(%dim_11) : tensor<2x?xf32>
// CHECK-NEXT:  %52 = hip.miopen.div(%ctx) ins(%50, %44 : tensor<2x?xf32>, tensor<2x?xf32>) outs(%51 : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:  %dim_12 = tensor.dim %52, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %53 = tensor.empty(%dim_12) : tensor<2x?xf32>
// CHECK-NEXT:  %54 = hip.miopen.round(%ctx) ins(%52 : tensor<2x?xf32>) outs(%53 : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:  %55 = tensor.empty() : tensor<f32>
// CHECK-NEXT:  %56 = hip.cast(%ctx) ins(%zy : tensor<ui8>) outs(%55 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %dim_13 = tensor.dim %54, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %57 = tensor.empty(%dim_13) : tensor<2x?xf32>
// CHECK-NEXT:  %58 = hip.miopen.add(%ctx) ins(%54, %56 : tensor<2x?xf32>, tensor<f32>) outs(%57 : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:  %dim_14 = tensor.dim %58, %c1 : tensor<2x?xf32>
// CHECK-NEXT:  %59 = tensor.empty(%dim_14) : tensor<2x?xui8>
// CHECK-NEXT:  %60 = hip.quantize_linear(%ctx) ins(%58, %cst_1, %cst : tensor<2x?xf32>, tensor<f32>, tensor<ui8>) outs(%59 : tensor<2x?xui8>) {axis = 0 : i64, block_size = 0 : i64} -> tensor<2x?xui8>
// CHECK-NEXT:  func.return %60 : tensor<2x?xui8>

// FeatureVectorizer of an input whose width is known only at run time: padded
// with `width` zeros, then cut to `width` (ORT copies the first features).

func.func @feature_vectorizer(%ctx: !hip.context, %a: tensor<?x?xf32>, %b: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %0 = "onnx.FeatureVectorizer"(%a, %b) <{inputdimensions = [3 : si64, 2 : si64]}> {onnx_node_name = "fv"} : (tensor<?x?xf32>, tensor<?x2xf32>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// CHECK-LABEL: func.func @feature_vectorizer
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<3> : tensor<1xi64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[0, 0, 0, 3]> : tensor<4xi64>
// CHECK-NEXT:  %dim = tensor.dim %a, %c0 : tensor<?x?xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %a, %c1 : tensor<?x?xf32>
// CHECK-NEXT:  %0 = arith.addi %dim_1, %c3 : index
// CHECK-NEXT:  %1 = tensor.empty(%dim, %0) : tensor<?x?xf32>
// CHECK-NEXT:  %2 = hip.pad(%ctx, %c0, %c0, %c0, %c3) ins(%a : tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) {mode = "constant"} -> tensor<?x?xf32>
// CHECK-NEXT:  %dim_2 = tensor.dim %2, %c0 : tensor<?x?xf32>
// CHECK-NEXT:  %dim_3 = tensor.dim %2, %c1 : tensor<?x?xf32>
// CHECK-NEXT:  %3 = arith.minsi %c0, %dim_3 : index
// CHECK-NEXT:  %4 = arith.minsi %c3, %dim_3 : index
// CHECK-NEXT:  %5 = arith.subi %4, %3 : index
// CHECK-NEXT:  %6 = arith.maxsi %5, %c0 : index
// CHECK-NEXT:  %7 = tensor.empty(%dim_2) : tensor<?x3xf32>
// CHECK-NEXT:  %8 = hip.slice(%ctx, %c0, %3) ins(%2 : tensor<?x?xf32>) outs(%7 : tensor<?x3xf32>) {steps = array<i64: 1, 1>} -> tensor<?x3xf32>
// CHECK-NEXT:  %dim_4 = tensor.dim %8, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %9 = tensor.empty(%dim_4) : tensor<?x5xf32>
// CHECK-NEXT:  %10 = hip.concat(%ctx) ins(%8, %b : tensor<?x3xf32>, tensor<?x2xf32>) outs(%9 : tensor<?x5xf32>) {axis = 1 : i64} -> tensor<?x5xf32>
// CHECK-NEXT:  func.return %10 : tensor<?x5xf32>

// SplitToSequence along a dim known only at run time: its readers take the
// pieces from the input (a Gather at the position, a Slice for pieces of a
// scalar split, from the back at `(ceil(dim / split) - 1) * split`), its
// length `ceil(dim / split)`, and ConcatFromSequence on a new axis a
// transpose.

func.func @split_to_sequence(%ctx: !hip.context, %x: tensor<?x3xf32>) -> (tensor<3xf32>, tensor<i64>, tensor<3x?xf32>, tensor<?x3xf32>, tensor<i64>, tensor<?x3xf32>) {
  %s = "onnx.SplitToSequence"(%x) <{axis = 0 : si64, keepdims = 0 : si64}> : (tensor<?x3xf32>) -> !onnx.Seq<tensor<3xf32>>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %a = "onnx.SequenceAt"(%s, %last) : (!onnx.Seq<tensor<3xf32>>, tensor<i64>) -> tensor<3xf32>
  %n = "onnx.SequenceLength"(%s) : (!onnx.Seq<tensor<3xf32>>) -> tensor<i64>
  %c = "onnx.ConcatFromSequence"(%s) <{axis = 1 : si64, new_axis = 1 : si64}> : (!onnx.Seq<tensor<3xf32>>) -> tensor<3x?xf32>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %k = "onnx.SplitToSequence"(%x, %two) <{axis = 0 : si64}> : (tensor<?x3xf32>, tensor<i64>) -> !onnx.Seq<tensor<?x3xf32>>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %p = "onnx.SequenceAt"(%k, %one) : (!onnx.Seq<tensor<?x3xf32>>, tensor<i64>) -> tensor<?x3xf32>
  %m = "onnx.SequenceLength"(%k) : (!onnx.Seq<tensor<?x3xf32>>) -> tensor<i64>
  %q = "onnx.SequenceAt"(%k, %last) : (!onnx.Seq<tensor<?x3xf32>>, tensor<i64>) -> tensor<?x3xf32>
  func.return %a, %n, %c, %p, %m, %q : tensor<3xf32>, tensor<i64>, tensor<3x?xf32>, tensor<?x3xf32>, tensor<i64>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @split_to_sequence
// CHECK-NEXT:  %c4 = arith.constant 4 : index
// CHECK-NEXT:  %c2 = arith.constant 2 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<-1> : tensor<i64>
// CHECK-NEXT:  %c = arith.constant -1 : index
// CHECK-NEXT:  %c2_1 = arith.constant 2 : index
// CHECK-NEXT:  %c1_1 = arith.constant 1 : index
// CHECK-NEXT:  %c0_1 = arith.constant 0 : index
// CHECK-NEXT:  %0 = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:  %a = hip.gather(%ctx) ins(%x, %cst : tensor<?x3xf32>, tensor<i64>) outs(%0 : tensor<3xf32>) {axis = 0 : i64} -> tensor<3xf32>
// CHECK-NEXT:  %dim = tensor.dim %x, %c0_1 : tensor<?x3xf32>
// CHECK-NEXT:  %1 = arith.index_cast %dim : index to i64
// CHECK-NEXT:  %2 = tensor.empty() : tensor<i64>
// CHECK-NEXT:  %n = hip.from_elements(%ctx, %dim) ins() outs(%2 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %3 = tensor.empty(%dim_1) : tensor<3x?xf32>
// CHECK-NEXT:  %c_1 = hip.transpose(%ctx, %c0, %c1) ins(%x : tensor<?x3xf32>) outs(%3 : tensor<3x?xf32>) -> tensor<3x?xf32>
// CHECK-NEXT:  %dim_2 = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %4 = arith.minsi %c2, %dim_2 : index
// CHECK-NEXT:  %5 = arith.minsi %c4, %dim_2 : index
// CHECK-NEXT:  %6 = arith.subi %5, %4 : index
// CHECK-NEXT:  %7 = arith.maxsi %6, %c0 : index
// CHECK-NEXT:  %8 = tensor.empty(%7) : tensor<?x3xf32>
// CHECK-NEXT:  %p = hip.slice(%ctx, %4, %c0) ins(%x : tensor<?x3xf32>) outs(%8 : tensor<?x3xf32>) {steps = array<i64: 1, 1>} -> tensor<?x3xf32>
// CHECK-NEXT:  %dim_3 = tensor.dim %x, %c0_1 : tensor<?x3xf32>
// CHECK-NEXT:  %9 = arith.addi %dim_3, %c1_1 : index
// CHECK-NEXT:  %10 = arith.divsi %9, %c2_1 : index
// CHECK-NEXT:  %11 = arith.index_cast %10 : index to i64
// CHECK-NEXT:  %12 = tensor.empty() : tensor<i64>
// CHECK-NEXT:  %m = hip.from_elements(%ctx, %10) ins() outs(%12 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:  %dim_4 = tensor.dim %x, %c0_1 : tensor<?x3xf32>
// CHECK-NEXT:  %13 = arith.addi %dim_4, %c1_1 : index
// CHECK-NEXT:  %14 = arith.divsi %13, %c2_1 : index
// CHECK-NEXT:  %15 = arith.addi %14, %c : index
// CHECK-NEXT:  %16 = arith.muli %15, %c2_1 : index
// CHECK-NEXT:  %17 = arith.addi %16, %c2_1 : index
// CHECK-NEXT:  %dim_5 = tensor.dim %x, %c0 : tensor<?x3xf32>
// CHECK-NEXT:  %18 = arith.cmpi slt, %16, %c0 : index
// CHECK-NEXT:  %19 = arith.select %18, %c1, %c0 : index
// CHECK-NEXT:  %20 = arith.addi %16, %dim_5 : index
// CHECK-NEXT:  %21 = arith.select %18, %20, %16 : index
// CHECK-NEXT:  %22 = arith.cmpi slt, %17, %c0 : index
// CHECK-NEXT:  %23 = arith.select %22, %c1, %c0 : index
// CHECK-NEXT:  %24 = arith.addi %17, %dim_5 : index
// CHECK-NEXT:  %25 = arith.select %22, %24, %17 : index
// CHECK-NEXT:  %26 = arith.maxsi %21, %c0 : index
// CHECK-NEXT:  %27 = arith.minsi %26, %dim_5 : index
// CHECK-NEXT:  %28 = arith.maxsi %25, %c0 : index
// CHECK-NEXT:  %29 = arith.minsi %28, %dim_5 : index
// CHECK-NEXT:  %30 = arith.subi %29, %27 : index
// CHECK-NEXT:  %31 = arith.maxsi %30, %c0 : index
// CHECK-NEXT:  %32 = tensor.empty(%31) : tensor<?x3xf32>
// CHECK-NEXT:  %q = hip.slice(%ctx, %27, %c0) ins(%x : tensor<?x3xf32>) outs(%32 : tensor<?x3xf32>) {steps = array<i64: 1, 1>} -> tensor<?x3xf32>
// CHECK-NEXT:  func.return %a, %n, %c_1, %p, %m, %q : tensor<3xf32>, tensor<i64>, tensor<3x?xf32>, tensor<?x3xf32>, tensor<i64>, tensor<?x3xf32>

// Size-1 pieces that keep the split axis joined along another: the split
// axis moved before that one (a transpose), merged with it (a collapse), and
// the pieces' 1 put back (an expand).

func.func @split_joined(%ctx: !hip.context, %x: tensor<3x?xf32>) -> tensor<?x1xf32> {
  %s = "onnx.SplitToSequence"(%x) <{axis = 1 : si64, keepdims = 1 : si64}> : (tensor<3x?xf32>) -> !onnx.Seq<tensor<3x1xf32>>
  %c = "onnx.ConcatFromSequence"(%s) <{axis = 0 : si64, new_axis = 0 : si64}> : (!onnx.Seq<tensor<3x1xf32>>) -> tensor<?x1xf32>
  func.return %c : tensor<?x1xf32>
}

// CHECK-LABEL: func.func @split_joined
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %dim = tensor.dim %x, %c1 : tensor<3x?xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x3xf32>
// CHECK-NEXT:  %1 = hip.transpose(%ctx, %c0, %c1) ins(%x : tensor<3x?xf32>) outs(%0 : tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:  %2 = tensor.collapse_shape %1 [[0 : i64, 1 : i64]] : tensor<?x3xf32> into tensor<?xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %2, %c0 : tensor<?xf32>
// CHECK-NEXT:  %c = tensor.expand_shape %2 [[0 : i64, 1 : i64]] output_shape [%dim_1, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK-NEXT:  func.return %c : tensor<?x1xf32>