// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Add/Sub/Mul/Div broadcast as numpy does; a dynamic result dim is sized from
// an operand whose dim is dynamic there, never from a broadcast size-1 dim.

func.func @binary(%ctx: !hip.context, %a: tensor<?x1xf32>, %b: tensor<1x?xf32>, %s: tensor<f32>) -> tensor<?x?xf32> {
  %0 = "onnx.Add"(%a, %b) {onnx_node_name = "add"} : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.Sub"(%s, %0) {onnx_node_name = "sub"} : (tensor<f32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "onnx.Mul"(%1, %1) {onnx_node_name = "mul"} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = "onnx.Div"(%2, %s) {onnx_node_name = "div"} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %3 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @binary
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x1xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %b, %c1 : tensor<1x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?xf32>
// CHECK-NEXT:    %1 = hip.miopen.add(%ctx) ins(%a, %b : tensor<?x1xf32>, tensor<1x?xf32>) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %1, %c0 : tensor<?x?xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %1, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim_2, %dim_3) : tensor<?x?xf32>
// CHECK-NEXT:    %3 = hip.miopen.sub(%ctx) ins(%s, %1 : tensor<f32>, tensor<?x?xf32>) outs(%2 : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         %5 = hip.miopen.mul(%ctx) ins(%3, %3 : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK:         %7 = hip.miopen.div(%ctx) ins(%5, %s : tensor<?x?xf32>, tensor<f32>)
// CHECK-NEXT:    func.return %7 : tensor<?x?xf32>

// The unary functions keep the shape: dynamic sizes come from the input. Pow
// broadcasts like the binary ops; an exponent of another element type is cast
// (see @pow_types below).
func.func @functions(%ctx: !hip.context, %x: tensor<?x4xf32>, %p: tensor<f32>) -> tensor<?x4xf32> {
  %0 = "onnx.Exp"(%x) {onnx_node_name = "exp"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Neg"(%0) {onnx_node_name = "neg"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.Sigmoid"(%1) {onnx_node_name = "sigmoid"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = "onnx.Sqrt"(%2) {onnx_node_name = "sqrt"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = "onnx.Tanh"(%3) {onnx_node_name = "tanh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %5 = "onnx.Pow"(%4, %p) {onnx_node_name = "pow"} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  func.return %5 : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @functions
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    %1 = hip.miopen.exp(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:         %3 = hip.miopen.neg(%ctx) ins(%1 : tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:         %5 = hip.miopen.sigmoid(%ctx) ins(%3 : tensor<?x4xf32>) outs(%4 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:         %7 = hip.miopen.sqrt(%ctx) ins(%5 : tensor<?x4xf32>) outs(%6 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:         %9 = hip.miopen.tanh(%ctx) ins(%7 : tensor<?x4xf32>) outs(%8 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_5 = tensor.dim %9, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %10 = tensor.empty(%dim_5) : tensor<?x4xf32>
// CHECK-NEXT:    %11 = hip.miopen.pow(%ctx) ins(%9, %p : tensor<?x4xf32>, tensor<f32>) outs(%10 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %11 : tensor<?x4xf32>

// Abs: one line of compute.ELEMENTWISE, the worked example of
// docs/adding-an-op.md. Integer tensors convert as float ones do.
func.func @abs(%ctx: !hip.context, %x: tensor<?x4xf32>, %i: tensor<3xi32>) -> (tensor<?x4xf32>, tensor<3xi32>) {
  %0 = "onnx.Abs"(%x) {onnx_node_name = "abs"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Abs"(%i) {onnx_node_name = "abs_int"} : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0, %1 : tensor<?x4xf32>, tensor<3xi32>
}
// CHECK-LABEL: func.func @abs
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    %1 = hip.miopen.abs(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<3xi32>
// CHECK-NEXT:    %3 = hip.miopen.abs(%ctx) ins(%i : tensor<3xi32>) outs(%2 : tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:    func.return %1, %3 : tensor<?x4xf32>, tensor<3xi32>

// Cast -> hip.cast into an init of the new element type; a cast to the
// input's own type is its input.
func.func @cast(%ctx: !hip.context, %x: tensor<?x4xf32>) -> (tensor<?x4xi64>, tensor<?x4xf32>) {
  %0 = "onnx.Cast"(%x) <{saturate = 1 : si64, to = i64}> {onnx_node_name = "cast"} : (tensor<?x4xf32>) -> tensor<?x4xi64>
  %1 = "onnx.Cast"(%x) <{saturate = 1 : si64, to = f32}> {onnx_node_name = "same"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0, %1 : tensor<?x4xi64>, tensor<?x4xf32>
}
// CHECK-LABEL: func.func @cast
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xi64>
// CHECK-NEXT:    %1 = hip.cast(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<?x4xi64>) -> tensor<?x4xi64>
// CHECK-NEXT:    func.return %1, %x : tensor<?x4xi64>, tensor<?x4xf32>

// Pow with an exponent of another type: the exponent is cast to the base's
// type; an integer base with a float exponent computes in the float type and
// casts the result back, as ONNX does.
func.func @pow_types(%ctx: !hip.context, %f: tensor<?x4xf32>, %i: tensor<4xi64>, %n: tensor<?x4xi32>, %e: tensor<f32>) -> (tensor<?x4xf32>, tensor<?x4xi32>) {
  %0 = "onnx.Pow"(%f, %i) {onnx_node_name = "pow_f32_i64"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x4xf32>
  %1 = "onnx.Pow"(%n, %e) {onnx_node_name = "pow_i32_f32"} : (tensor<?x4xi32>, tensor<f32>) -> tensor<?x4xi32>
  func.return %0, %1 : tensor<?x4xf32>, tensor<?x4xi32>
}
// CHECK-LABEL: func.func @pow_types
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %1 = hip.cast(%ctx) ins(%i : tensor<4xi64>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %dim = tensor.dim %f, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %2 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    %3 = hip.miopen.pow(%ctx) ins(%f, %1 : tensor<?x4xf32>, tensor<4xf32>) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %n, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_1) : tensor<?x4xf32>
// CHECK-NEXT:    %5 = hip.cast(%ctx) ins(%n : tensor<?x4xi32>) outs(%4 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %n, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_2) : tensor<?x4xf32>
// CHECK-NEXT:    %7 = hip.miopen.pow(%ctx) ins(%5, %e : tensor<?x4xf32>, tensor<f32>) outs(%6 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %n, %c0 : tensor<?x4xi32>
// CHECK-NEXT:    %8 = tensor.empty(%dim_3) : tensor<?x4xi32>
// CHECK-NEXT:    %9 = hip.cast(%ctx) ins(%7 : tensor<?x4xf32>) outs(%8 : tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK-NEXT:    func.return %3, %9 : tensor<?x4xf32>, tensor<?x4xi32>

// Concat -> hip.concat with the axis in [0, rank); a dynamic size along the
// axis is the sum of the inputs' sizes there, any other is the first input's.
func.func @concat(%ctx: !hip.context, %a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?x6xf32>) {
  %0 = "onnx.Concat"(%a, %b, %a) <{axis = -2 : si64}> {onnx_node_name = "rows"} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = "onnx.Concat"(%a, %a) <{axis = 1 : si64}> {onnx_node_name = "cols"} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x6xf32>
  func.return %0, %1 : tensor<?x3xf32>, tensor<?x6xf32>
}
// CHECK-LABEL: func.func @concat
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %a, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %a, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %0 = arith.addi %dim, %c2 : index
// CHECK-NEXT:    %1 = arith.addi %0, %dim_1 : index
// CHECK-NEXT:    %2 = tensor.empty(%1) : tensor<?x3xf32>
// CHECK-NEXT:    %3 = hip.concat(%ctx) ins(%a, %b, %a : tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) outs(%2 : tensor<?x3xf32>) {axis = 0 : i64} -> tensor<?x3xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %a, %c0 : tensor<?x3xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?x6xf32>
// CHECK-NEXT:    %5 = hip.concat(%ctx) ins(%a, %a : tensor<?x3xf32>, tensor<?x3xf32>) outs(%4 : tensor<?x6xf32>) {axis = 1 : i64} -> tensor<?x6xf32>
// CHECK-NEXT:    func.return %3, %5 : tensor<?x3xf32>, tensor<?x6xf32>
