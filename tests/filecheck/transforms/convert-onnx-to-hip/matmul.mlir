// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// MatMul of any rank becomes hip.hipblaslt.matmul; each dynamic result dim is
// sized from the operand that decides it: batch dims from the operand that is
// not broadcast (size 1 or missing), M from A, N from B.

func.func @batched_b(%ctx: !hip.context, %a: tensor<?x8xf32>, %b: tensor<?x8x?xf32>) -> tensor<?x?x?xf32> {
  %0 = "onnx.MatMul"(%a, %b) {onnx_node_name = "mm"} : (tensor<?x8xf32>, tensor<?x8x?xf32>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}
// CHECK-LABEL: func.func @batched_b
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %b, %c0 : tensor<?x8x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %a, %c0 : tensor<?x8xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %b, %c2 : tensor<?x8x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1, %dim_2) : tensor<?x?x?xf32>
// CHECK-NEXT:    %1 = hip.hipblaslt.matmul(%ctx) ins(%a, %b : tensor<?x8xf32>, tensor<?x8x?xf32>) outs(%0 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x?x?xf32>

func.func @broadcast_batch(%ctx: !hip.context, %a: tensor<1x?x4x8xf32>, %b: tensor<?x1x8x16xf32>) -> tensor<?x?x4x16xf32> {
  %0 = "onnx.MatMul"(%a, %b) {onnx_node_name = "mm"} : (tensor<1x?x4x8xf32>, tensor<?x1x8x16xf32>) -> tensor<?x?x4x16xf32>
  func.return %0 : tensor<?x?x4x16xf32>
}
// CHECK-LABEL: func.func @broadcast_batch
// CHECK:         %dim = tensor.dim %b, %c0 : tensor<?x1x8x16xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %a, %c1 : tensor<1x?x4x8xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim, %dim_1) : tensor<?x?x4x16xf32>

func.func @vectors(%ctx: !hip.context, %a: tensor<?xf32>, %m: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = "onnx.MatMul"(%a, %m) {onnx_node_name = "vm"} : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK-LABEL: func.func @vectors
// CHECK:         %dim = tensor.dim %m, %c1 : tensor<?x?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?xf32>
// CHECK-NEXT:    %1 = hip.hipblaslt.matmul(%ctx) ins(%a, %m : tensor<?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?xf32>) -> tensor<?xf32>

func.func @static(%ctx: !hip.context, %a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = "onnx.MatMul"(%a, %b) {onnx_node_name = "mm"} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK-LABEL: func.func @static
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT:    %1 = hip.hipblaslt.matmul(%ctx) ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%0 : tensor<4x2xf32>) -> tensor<4x2xf32>
