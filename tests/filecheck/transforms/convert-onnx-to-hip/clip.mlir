// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Clip (opset 13): max with `min`, then min with `max`, each only if given;
// with neither, the input itself. Integer types convert as float ones do.

func.func @clip(%ctx: !hip.context, %x: tensor<?x4xi8>, %lo: tensor<i8>, %hi: tensor<i8>) -> (tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>) {
  %0 = "onnx.Clip"(%x, %lo, %hi) {onnx_node_name = "both", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<?x4xi8>, tensor<i8>, tensor<i8>) -> tensor<?x4xi8>
  %1 = "onnx.Clip"(%x, %hi) {onnx_node_name = "max_only", operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<?x4xi8>, tensor<i8>) -> tensor<?x4xi8>
  %2 = "onnx.Clip"(%x, %lo) {onnx_node_name = "min_only", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?x4xi8>, tensor<i8>) -> tensor<?x4xi8>
  %3 = "onnx.Clip"(%x) {onnx_node_name = "none", operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<?x4xi8>) -> tensor<?x4xi8>
  func.return %0, %1, %2, %3 : tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>
}

// CHECK-LABEL: func.func @clip
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %x, %c0 : tensor<?x4xi8>
// CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x4xi8>
// CHECK-NEXT: %1 = hip.miopen.max(%ctx) ins(%x, %lo : tensor<?x4xi8>, tensor<i8>) outs(%0 : tensor<?x4xi8>) -> tensor<?x4xi8>
// CHECK-NEXT: %dim_1 = tensor.dim %1, %c0 : tensor<?x4xi8>
// CHECK-NEXT: %2 = tensor.empty(%dim_1) : tensor<?x4xi8>
// CHECK-NEXT: %3 = hip.miopen.min(%ctx) ins(%1, %hi : tensor<?x4xi8>, tensor<i8>) outs(%2 : tensor<?x4xi8>) -> tensor<?x4xi8>
// CHECK-NEXT: %dim_2 = tensor.dim %x, %c0 : tensor<?x4xi8>
// CHECK-NEXT: %4 = tensor.empty(%dim_2) : tensor<?x4xi8>
// CHECK-NEXT: %5 = hip.miopen.min(%ctx) ins(%x, %hi : tensor<?x4xi8>, tensor<i8>) outs(%4 : tensor<?x4xi8>) -> tensor<?x4xi8>
// CHECK-NEXT: %dim_3 = tensor.dim %x, %c0 : tensor<?x4xi8>
// CHECK-NEXT: %6 = tensor.empty(%dim_3) : tensor<?x4xi8>
// CHECK-NEXT: %7 = hip.miopen.max(%ctx) ins(%x, %lo : tensor<?x4xi8>, tensor<i8>) outs(%6 : tensor<?x4xi8>) -> tensor<?x4xi8>
// CHECK-NEXT: func.return %3, %5, %7, %x : tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>, tensor<?x4xi8>
