// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// The element types the new ops' formulas take, checked by the conversion:
// the bitwise ops and BitShift take integers, the trigonometric ones floats,
// Shrink numbers (not i1); BitShift's direction is LEFT or RIGHT.

func.func @f(%ctx: !hip.context, %x: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xf32>) {
  %0 = "onnx.BitwiseAnd"(%x, %x) {onnx_node_name = "and_float"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Tan"(%i) {onnx_node_name = "tan_int"} : (tensor<4xi32>) -> tensor<4xi32>
  %2 = "onnx.BitShift"(%u, %u) {direction = "UP", onnx_node_name = "shift_up"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = "onnx.Shrink"(%b) {bias = 0.0 : f32, lambd = 0.5 : f32, onnx_node_name = "shrink_bool"} : (tensor<4xi1>) -> tensor<4xi1>
  %4 = "onnx.BitShift"(%x, %x) {direction = "LEFT", onnx_node_name = "shift_float"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xf32>
}

// CHECK:      convert-onnx-to-hip: 5 op(s) cannot be converted:
// CHECK-NEXT:   onnx.BitwiseAnd (node 'and_float'): hip.miopen.bitwise_and computes in signed integer, unsigned integer types, not f32
// CHECK-NEXT:   onnx.Tan (node 'tan_int'): hip.miopen.tan computes in float types, not i32
// CHECK-NEXT:   onnx.BitShift (node 'shift_up'): direction = 'UP' is not 'LEFT' or 'RIGHT'
// CHECK-NEXT:   onnx.Shrink (node 'shrink_bool'): hip.miopen.shrink computes in float types, not i1
// CHECK-NEXT:   onnx.BitShift (node 'shift_float'): hip.miopen.bit_shift_left computes in signed integer, unsigned integer types, not f32
