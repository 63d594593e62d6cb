// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// CumProd is `hip.cumprod`, CumSum's scan with a product: the constant axis
// counted from the end, `exclusive` and `reverse` as unit attributes.

func.func @cumprod(%ctx: !hip.context, %x: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?x5xf32>) {
  %axis = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.CumProd"(%x, %axis) {onnx_node_name = "plain"} : (tensor<?x5xf32>, tensor<i64>) -> tensor<?x5xf32>
  %1 = "onnx.CumProd"(%x, %axis) {exclusive = 1 : si64, reverse = 1 : si64, onnx_node_name = "flags"} : (tensor<?x5xf32>, tensor<i64>) -> tensor<?x5xf32>
  func.return %0, %1 : tensor<?x5xf32>, tensor<?x5xf32>
}

// CHECK-LABEL: func.func @cumprod
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<-1> : tensor<i64>
// CHECK-NEXT:  %dim = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:  %0 = tensor.empty(%dim) : tensor<?x5xf32>
// CHECK-NEXT:  %1 = hip.cumprod(%ctx) ins(%x : tensor<?x5xf32>) outs(%0 : tensor<?x5xf32>) {axis = 1 : i64} -> tensor<?x5xf32>
// CHECK-NEXT:  %dim_1 = tensor.dim %x, %c0 : tensor<?x5xf32>
// CHECK-NEXT:  %2 = tensor.empty(%dim_1) : tensor<?x5xf32>
// CHECK-NEXT:  %3 = hip.cumprod(%ctx) ins(%x : tensor<?x5xf32>) outs(%2 : tensor<?x5xf32>) {axis = 1 : i64, exclusive, reverse} -> tensor<?x5xf32>
// CHECK-NEXT:  func.return %1, %3 : tensor<?x5xf32>, tensor<?x5xf32>
