// RUN: xdsl-opt %s -p hip-add-context-arg,hip-guard-assumptions | filecheck %s
// RUN: xdsl-opt %s -p hip-add-context-arg,hip-guard-assumptions,convert-onnx-to-hip,one-shot-bufferize | filecheck %s --check-prefix=HIP

// A specialization of a ReduceSum whose axes are a graph input: the op takes
// the assumed axes as a constant, and the input is read back and guarded.
func.func @reduce(%x: tensor<3x4x5xf32>, %axes: tensor<1xi64>) -> tensor<3x1x5xf32> {
  %y = "onnx.ReduceSum"(%x, %axes) <{keepdims = 1 : si64}> {xhip.assume = {axes_input = dense<1> : tensor<1xi64>}} : (tensor<3x4x5xf32>, tensor<1xi64>) -> tensor<3x1x5xf32>
  func.return %y : tensor<3x1x5xf32>
}
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT:    %0 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:    %1 = hip.readback(%arg0) %axes : tensor<1xi64> -> index
// CHECK-NEXT:    hip.guard %1 expects [1]
// CHECK-NEXT:    %y = "onnx.ReduceSum"(%x, %0) <{keepdims = 1 : si64}> : (tensor<3x4x5xf32>, tensor<1xi64>) -> tensor<3x1x5xf32>

// HIP-LABEL: func.func @reduce
// HIP-NEXT:    %0 = hip.readback(%arg0) %axes : memref<1xi64, strided<[?], offset: ?>> -> index
// HIP-NEXT:    hip.guard %0 expects [1]
// HIP:         hip.miopen.reduce_sum(%arg0) ins(%x : {{.*}}) outs(%alloc : memref<3x1x5xf32>) {axes = array<i64: 1>, keepdims}

// A float operand is compared on the device with the constant it is assumed
// to equal, and the comparison's 0/1 results are guarded.
func.func @resize(%x: tensor<1x1x2x2xf32>, %scales: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %y = "onnx.Resize"(%x, %scales) <{mode = "nearest", operandSegmentSizes = array<i32: 1, 0, 1, 0>}> {xhip.assume = {scales = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
  func.return %y : tensor<1x1x4x4xf32>
}
// CHECK-LABEL: func.func @resize
// CHECK:         %[[C:.*]] = "onnx.Constant"() {value = dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:    %[[EQ:.*]] = "onnx.Equal"(%scales, %[[C]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = hip.readback(%arg0) %[[EQ]] : tensor<4xi1> -> index, index, index, index
// CHECK-NEXT:    hip.guard %{{.*}} expects [1, 1, 1, 1]
// CHECK-NEXT:    %y = "onnx.Resize"(%x, %[[C]])

// An If whose condition is assumed: the constant condition's branch is
// inlined, the condition itself guarded.
func.func @branch(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %y = "onnx.If"(%c) ({
    %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%t) : (tensor<3xf32>) -> ()
  }, {
    %e = "onnx.Abs"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%e) : (tensor<3xf32>) -> ()
  }) {xhip.assume = {cond = dense<false> : tensor<i1>}} : (tensor<i1>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @branch
// CHECK-NEXT:    %0 = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK-NEXT:    %1 = hip.readback(%arg0) %c : tensor<i1> -> index
// CHECK-NEXT:    hip.guard %1 expects [0]
// CHECK-NEXT:    %e = "onnx.Abs"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %e : tensor<3xf32>
