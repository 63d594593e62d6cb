// RUN: xdsl-opt %s | xdsl-opt | filecheck %s

// Every op of the onnx dialect, in the generic form onnx-mlir prints:
// op-specific attributes are properties, onnx_node_name is an attribute.
func.func @ops(%x: tensor<?x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>, %i: tensor<2x3xi64>) -> tensor<?x4xf32> {
  %c = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.Constant"() {value = dense<2.0> : tensor<f32>, onnx_node_name = "two"} : () -> tensor<f32>
  %g = "onnx.Gemm"(%x, %w, %b) <{alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : si64, transB = 1 : si64}> {onnx_node_name = "fc"} : (tensor<?x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %g2 = "onnx.Gemm"(%x, %w) <{transB = 1 : si64}> : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  %m = "onnx.MatMul"(%g, %g2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x?xf32>
  %a = "onnx.Add"(%g, %g2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %su = "onnx.Sub"(%a, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %mu = "onnx.Mul"(%su, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %d = "onnx.Div"(%mu, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %p = "onnx.Pow"(%d, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %r = "onnx.Relu"(%p) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %sg = "onnx.Sigmoid"(%r) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %t = "onnx.Tanh"(%sg) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %e = "onnx.Exp"(%t) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %q = "onnx.Sqrt"(%e) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %n = "onnx.Neg"(%q) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %id = "onnx.Identity"(%n) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %sm = "onnx.Softmax"(%id) <{axis = -1 : si64}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %tr = "onnx.Transpose"(%sm) <{perm = [1, 0]}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %tr2 = "onnx.Transpose"(%tr) : (tensor<4x?xf32>) -> tensor<?x4xf32>
  %rs = "onnx.Reshape"(%tr2, %c) <{allowzero = 0 : si64}> : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<1x?xf32>
  %f = "onnx.Flatten"(%rs) <{axis = 1 : si64}> : (tensor<1x?xf32>) -> tensor<1x?xf32>
  %ax = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %sq = "onnx.Squeeze"(%f, %ax) : (tensor<1x?xf32>, tensor<1xi64>) -> tensor<?xf32>
  %sq2 = "onnx.Squeeze"(%f) : (tensor<1x?xf32>) -> tensor<?xf32>
  %un = "onnx.Unsqueeze"(%sq, %ax) : (tensor<?xf32>, tensor<1xi64>) -> tensor<1x?xf32>
  %cc = "onnx.Concat"(%un, %f, %f) <{axis = 0 : si64}> : (tensor<1x?xf32>, tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<3x?xf32>
  %ca = "onnx.Cast"(%i) <{saturate = 1 : si64, to = f32}> : (tensor<2x3xi64>) -> tensor<2x3xf32>
  %ca2 = "onnx.Cast"(%i) <{round_mode = "up", saturate = 1 : si64, to = f16}> : (tensor<2x3xi64>) -> tensor<2x3xf16>
  func.return %g : tensor<?x4xf32>
}
"onnx.EntryPoint"() <{func = @ops}> : () -> ()

// CHECK:      %c = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT: %s = "onnx.Constant"() {value = dense<2.000000e+00> : tensor<f32>, onnx_node_name = "two"} : () -> tensor<f32>
// CHECK-NEXT: %g = "onnx.Gemm"(%x, %w, %b) <{alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transA = 0 : si64, transB = 1 : si64}> {onnx_node_name = "fc"} : (tensor<?x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %g2 = "onnx.Gemm"(%x, %w) <{transB = 1 : si64}> : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %m = "onnx.MatMul"(%g, %g2)
// CHECK-NEXT: %a = "onnx.Add"(%g, %g2)
// CHECK-NEXT: %su = "onnx.Sub"(%a, %s)
// CHECK-NEXT: %mu = "onnx.Mul"(%su, %s)
// CHECK-NEXT: %d = "onnx.Div"(%mu, %s)
// CHECK-NEXT: %p = "onnx.Pow"(%d, %s)
// CHECK-NEXT: %r = "onnx.Relu"(%p)
// CHECK-NEXT: %sg = "onnx.Sigmoid"(%r)
// CHECK-NEXT: %t = "onnx.Tanh"(%sg)
// CHECK-NEXT: %e = "onnx.Exp"(%t)
// CHECK-NEXT: %q = "onnx.Sqrt"(%e)
// CHECK-NEXT: %n = "onnx.Neg"(%q)
// CHECK-NEXT: %id = "onnx.Identity"(%n)
// CHECK-NEXT: %sm = "onnx.Softmax"(%id) <{axis = -1 : si64}>
// CHECK-NEXT: %tr = "onnx.Transpose"(%sm) <{perm = [1 : i64, 0 : i64]}>
// CHECK-NEXT: %tr2 = "onnx.Transpose"(%tr) : (tensor<4x?xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %rs = "onnx.Reshape"(%tr2, %c) <{allowzero = 0 : si64}>
// CHECK-NEXT: %f = "onnx.Flatten"(%rs) <{axis = 1 : si64}>
// CHECK-NEXT: %ax = "onnx.Constant"()
// CHECK-NEXT: %sq = "onnx.Squeeze"(%f, %ax) : (tensor<1x?xf32>, tensor<1xi64>) -> tensor<?xf32>
// CHECK-NEXT: %sq2 = "onnx.Squeeze"(%f) : (tensor<1x?xf32>) -> tensor<?xf32>
// CHECK-NEXT: %un = "onnx.Unsqueeze"(%sq, %ax)
// CHECK-NEXT: %cc = "onnx.Concat"(%un, %f, %f) <{axis = 0 : si64}>
// CHECK-NEXT: %ca = "onnx.Cast"(%i) <{saturate = 1 : si64, to = f32}>
// CHECK-NEXT: %ca2 = "onnx.Cast"(%i) <{round_mode = "up", saturate = 1 : si64, to = f16}>
// CHECK:      "onnx.EntryPoint"() <{func = @ops}> : () -> ()
