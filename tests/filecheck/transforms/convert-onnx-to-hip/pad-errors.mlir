// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// An unknown Pad mode, channels that do not split
// into the groups and a height that is no multiple of the block are refused
// with the reason.

func.func @f(%ctx: !hip.context, %x: tensor<2x6x5x4xf32>, %pads: tensor<8xi64>, %s: tensor<6xf32>) -> (tensor<?x?x?x?xf32>, tensor<2x6x5x4xf32>, tensor<2x6x5x4xf32>, tensor<2x24x?x2xf32>) {
  %0 = "onnx.Pad"(%x, %pads) {mode = "constant", onnx_node_name = "runtime", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x6x5x4xf32>, tensor<8xi64>) -> tensor<?x?x?x?xf32>
  %zeros = "onnx.Constant"() {value = dense<0> : tensor<8xi64>} : () -> tensor<8xi64>
  %1 = "onnx.Pad"(%x, %zeros) {mode = "mirror", onnx_node_name = "mode", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x6x5x4xf32>, tensor<8xi64>) -> tensor<2x6x5x4xf32>
  %2 = "onnx.GroupNormalization"(%x, %s, %s) {epsilon = 1.000000e-05 : f32, num_groups = 4 : si64, stash_type = 1 : si64, onnx_node_name = "groups"} : (tensor<2x6x5x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5x4xf32>
  %3 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : si64, onnx_node_name = "s2d"} : (tensor<2x6x5x4xf32>) -> tensor<2x24x?x2xf32>
  func.return %0, %1, %2, %3 : tensor<?x?x?x?xf32>, tensor<2x6x5x4xf32>, tensor<2x6x5x4xf32>, tensor<2x24x?x2xf32>
}
// CHECK:      convert-onnx-to-hip: 3 op(s) cannot be converted:
// CHECK-NEXT:   onnx.Pad (node 'mode'): mode 'mirror' is not one of ['constant', 'reflect', 'edge', 'wrap']
// CHECK-NEXT:   onnx.GroupNormalization (node 'groups'): 6 channels do not split into 4 groups
// CHECK-NEXT:   onnx.SpaceToDepth (node 's2d'): the height 5 is not a multiple of 2
