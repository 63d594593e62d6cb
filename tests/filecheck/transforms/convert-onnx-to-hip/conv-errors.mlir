// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// SAME_UPPER with a stride above 1 on a dynamic spatial dim (the pads would
// depend on its size), a weight of dynamic kernel size, and channels that do
// not match the weight's groups are refused with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<1x4x?x8xf32>, %w: tensor<2x4x3x3xf32>, %v: tensor<2x4x?x3xf32>, %g: tensor<2x3x3x3xf32>) -> (tensor<1x2x?x4xf32>, tensor<1x2x?x6xf32>, tensor<1x2x?x6xf32>) {
  %0 = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER", group = 1 : si64, strides = [2, 2], onnx_node_name = "same"} : (tensor<1x4x?x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x?x4xf32>
  %1 = "onnx.Conv"(%x, %v) {auto_pad = "NOTSET", group = 1 : si64, onnx_node_name = "dynamic"} : (tensor<1x4x?x8xf32>, tensor<2x4x?x3xf32>) -> tensor<1x2x?x6xf32>
  %2 = "onnx.Conv"(%x, %g) {auto_pad = "NOTSET", group = 1 : si64, onnx_node_name = "groups"} : (tensor<1x4x?x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x?x6xf32>
  func.return %0, %1, %2 : tensor<1x2x?x4xf32>, tensor<1x2x?x6xf32>, tensor<1x2x?x6xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Conv (node 'same'): auto_pad SAME_UPPER with stride 2 along the dynamic spatial dim 2: the pads depend on its size
// CHECK-NEXT:   onnx.Conv (node 'dynamic'): weight type tensor<2x4x?x3xf32>: static sizes are needed
// CHECK-NEXT:   onnx.Conv (node 'groups'): 4 input channels do not match the weight's 3 per group times group 1
