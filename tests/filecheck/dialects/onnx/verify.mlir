// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

%x = "test.op"() : () -> tensor<2x3xf32>
%t = "onnx.Transpose"(%x) <{perm = [0, 0]}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: 'onnx.Transpose' perm [0, 0] is not a permutation of the 2 dims of its input

// -----

%x = "test.op"() : () -> tensor<2x3xf32>
%c = "onnx.Concat"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: property 'axis' expected in operation 'onnx.Concat'
