// RUN: xdsl-opt %s --verify-diagnostics --split-input-file -p convert-onnx-to-hip | filecheck %s

// An unknown mode, image and block shapes and AffineGrid's spatial sizes that
// are run-time data, and repeated axes are refused with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<1x3x4x5xf32>, %g: tensor<1x6x7x2xf32>, %c: tensor<1x10x12xf32>, %i: tensor<2xi64>, %t: tensor<2x2x3xf32>) -> (tensor<1x3x6x7xf32>, tensor<1x2x4x5xf32>, tensor<1x3x?x?xf32>, tensor<2x2x3x2xf32>) {
  %b = "onnx.Constant"() {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.GridSample"(%x, %g) {mode = "area", onnx_node_name = "mode"} : (tensor<1x3x4x5xf32>, tensor<1x6x7x2xf32>) -> tensor<1x3x6x7xf32>
  %1 = "onnx.Col2Im"(%c, %i, %b) {onnx_node_name = "image"} : (tensor<1x10x12xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x4x5xf32>
  %2 = "onnx.CenterCropPad"(%x, %i) {axes = [2, -2], onnx_node_name = "axes"} : (tensor<1x3x4x5xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  %3 = "onnx.AffineGrid"(%t, %i) {onnx_node_name = "size"} : (tensor<2x2x3xf32>, tensor<2xi64>) -> tensor<2x2x3x2xf32>
  func.return %0, %1, %2, %3 : tensor<1x3x6x7xf32>, tensor<1x2x4x5xf32>, tensor<1x3x?x?xf32>, tensor<2x2x3x2xf32>
}
// CHECK:      convert-onnx-to-hip: 4 op(s) cannot be converted:
// CHECK-NEXT:   onnx.GridSample (node 'mode'): mode 'area' is not one of ['linear', 'nearest', 'cubic']
// CHECK-NEXT:   onnx.Col2Im (node 'image'): image_shape must be known at compile time (a constant); it is run-time data here
// CHECK-NEXT:   onnx.CenterCropPad (node 'axes'): repeated axes [2, -2]
// CHECK-NEXT:   onnx.AffineGrid (node 'size'): the size operand's spatial sizes must be known at compile time (constants or shape values); they are run-time data here

// -----

// MaxUnpool's output sizes, from the input's where they are known only at
// run time, must be positive where they are known.

func.func @g(%ctx: !hip.context, %x: tensor<1x1x2x?xf32>, %i: tensor<1x1x2x?xi64>) -> tensor<1x1x?x?xf32> {
  %0 = "onnx.MaxUnpool"(%x, %i) {kernel_shape = [2, 2], pads = [3, 0, 3, 0], onnx_node_name = "unpool"} : (tensor<1x1x2x?xf32>, tensor<1x1x2x?xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}
// CHECK:      convert-onnx-to-hip: 1 op(s) cannot be converted:
// CHECK-NEXT:   onnx.MaxUnpool (node 'unpool'): output sizes [-3, ?]: 2 positive sizes are needed

// -----

// AffineGrid's N must be theta's batch, as ONNX Runtime checks.

func.func @h(%ctx: !hip.context, %t: tensor<2x2x3xf32>) -> tensor<7x4x5x2xf32> {
  %s = "onnx.Constant"() {value = dense<[7, 1, 4, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.AffineGrid"(%t, %s) {onnx_node_name = "batch"} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<7x4x5x2xf32>
  func.return %0 : tensor<7x4x5x2xf32>
}
// CHECK:      convert-onnx-to-hip: 1 op(s) cannot be converted:
// CHECK-NEXT:   onnx.AffineGrid (node 'batch'): size's N = 7 is not theta's batch 2 (ONNX Runtime refuses it too)
