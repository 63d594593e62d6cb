// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Max/Min/Sum/Mean with 1..N inputs: a chain of binary hip ops, left to
// right, each intermediate of the broadcast of the inputs so far; Mean then
// divides by the count (hip.miopen.div_by, divisor 3). One input is itself.

func.func @variadic(%ctx: !hip.context, %a: tensor<?x1xf32>, %b: tensor<4xf32>, %c: tensor<1x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>) {
  %0 = "onnx.Max"(%a, %b, %c) {onnx_node_name = "max"} : (tensor<?x1xf32>, tensor<4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Mean"(%a, %b, %c) {onnx_node_name = "mean"} : (tensor<?x1xf32>, tensor<4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.Sum"(%a) {onnx_node_name = "sum"} : (tensor<?x1xf32>) -> tensor<?x1xf32>
  func.return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>
}

// CHECK-LABEL: func.func @variadic
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %a, %c0 : tensor<?x1xf32>
// CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT: %1 = hip.miopen.max(%ctx) ins(%a, %b : tensor<?x1xf32>, tensor<4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %dim_1 = tensor.dim %1, %c0 : tensor<?x4xf32>
// CHECK-NEXT: %2 = tensor.empty(%dim_1) : tensor<?x4xf32>
// CHECK-NEXT: %3 = hip.miopen.max(%ctx) ins(%1, %c : tensor<?x4xf32>, tensor<1x4xf32>) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %dim_2 = tensor.dim %a, %c0 : tensor<?x1xf32>
// CHECK-NEXT: %4 = tensor.empty(%dim_2) : tensor<?x4xf32>
// CHECK-NEXT: %5 = hip.miopen.add(%ctx) ins(%a, %b : tensor<?x1xf32>, tensor<4xf32>) outs(%4 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %dim_3 = tensor.dim %a, %c0 : tensor<?x1xf32>
// CHECK-NEXT: %6 = tensor.empty(%dim_3) : tensor<?x4xf32>
// CHECK-NEXT: %7 = hip.miopen.add(%ctx) ins(%5, %c : tensor<?x4xf32>, tensor<1x4xf32>) outs(%6 : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %dim_4 = tensor.dim %7, %c0 : tensor<?x4xf32>
// CHECK-NEXT: %8 = tensor.empty(%dim_4) : tensor<?x4xf32>
// CHECK-NEXT: %9 = hip.miopen.div_by(%ctx) ins(%7 : tensor<?x4xf32>) outs(%8 : tensor<?x4xf32>) {divisor = 3.000000e+00 : f64} -> tensor<?x4xf32>
// CHECK-NEXT: func.return %3, %9, %a : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>
