// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// The windows are onnx's function bodies computed in float64, as ONNX
// Runtime's kernel does: a Range over the size cast to double,
// t = n * (2 pi / N) (N the size, or the size - 1 when not periodic), then
// a0 - a1 cos(t) (+ a2 cos(2t), Blackman) with the float32 coefficients; a
// cast to the output type. A constant size gives a static length; one known
// only at run time is read back (`hip.readback`) for the Range's length.

func.func @hann(%ctx: !hip.context) -> tensor<8xf32> {
  %size = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.HannWindow"(%size) {periodic = 1 : si64, output_datatype = 1 : si64, onnx_node_name = "hann"} : (tensor<i64>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

func.func @blackman(%ctx: !hip.context, %size: tensor<i32>) -> tensor<?xf64> {
  %0 = "onnx.BlackmanWindow"(%size) {periodic = 0 : si64, output_datatype = 11 : si64, onnx_node_name = "blackman"} : (tensor<i32>) -> tensor<?xf64>
  func.return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @hann
// CHECK-NEXT:  %cst = arith.constant dense<5.000000e-01> : tensor<f64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<6.2831853071795862> : tensor<f64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %cst_4 = arith.constant dense<8> : tensor<i64>
// CHECK-NEXT:  %0 = tensor.empty() : tensor<8xi64>
// CHECK-NEXT:  %1 = hip.range(%ctx) ins(%cst_3, %cst_2 : tensor<i64>, tensor<i64>) outs(%0 : tensor<8xi64>) -> tensor<8xi64>
// CHECK-NEXT:  %2 = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  %3 = hip.cast(%ctx) ins(%1 : tensor<8xi64>) outs(%2 : tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:  %4 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %5 = hip.cast(%ctx) ins(%cst_4 : tensor<i64>) outs(%4 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %7 = hip.miopen.div(%ctx) ins(%cst_1, %5 : tensor<f64>, tensor<f64>) outs(%6 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  %9 = hip.miopen.mul(%ctx) ins(%3, %7 : tensor<8xf64>, tensor<f64>) outs(%8 : tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  %11 = hip.miopen.cos(%ctx) ins(%9 : tensor<8xf64>) outs(%10 : tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:  %12 = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  %13 = hip.miopen.mul(%ctx) ins(%cst, %11 : tensor<f64>, tensor<8xf64>) outs(%12 : tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:  %14 = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  %15 = hip.miopen.sub(%ctx) ins(%cst, %13 : tensor<f64>, tensor<8xf64>) outs(%14 : tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:  %16 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:  %17 = hip.cast(%ctx) ins(%15 : tensor<8xf64>) outs(%16 : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:  func.return %17 : tensor<8xf32>
// CHECK-LABEL: func.func @blackman
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %cst = arith.constant dense<0.079999998211860657> : tensor<f64>
// CHECK-NEXT:  %cst_1 = arith.constant dense<2.000000e+00> : tensor<f64>
// CHECK-NEXT:  %cst_2 = arith.constant dense<0.42000001668930054> : tensor<f64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<5.000000e-01> : tensor<f64>
// CHECK-NEXT:  %cst_4 = arith.constant dense<6.2831853071795862> : tensor<f64>
// CHECK-NEXT:  %cst_5 = arith.constant dense<1.000000e+00> : tensor<f64>
// CHECK-NEXT:  %cst_6 = arith.constant dense<1> : tensor<i32>
// CHECK-NEXT:  %cst_7 = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %0 = hip.readback(%ctx) %size : tensor<i32> -> index
// CHECK-NEXT:  %1 = arith.maxsi %0, %c0 : index
// CHECK-NEXT:  %2 = tensor.empty(%1) : tensor<?xi32>
// CHECK-NEXT:  %3 = hip.range(%ctx) ins(%cst_7, %cst_6 : tensor<i32>, tensor<i32>) outs(%2 : tensor<?xi32>) -> tensor<?xi32>
// CHECK-NEXT:  %dim = tensor.dim %3, %c0 : tensor<?xi32>
// CHECK-NEXT:  %4 = tensor.empty(%dim) : tensor<?xf64>
// CHECK-NEXT:  %5 = hip.cast(%ctx) ins(%3 : tensor<?xi32>) outs(%4 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %6 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %7 = hip.cast(%ctx) ins(%size : tensor<i32>) outs(%6 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %8 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %9 = hip.miopen.sub(%ctx) ins(%7, %cst_5 : tensor<f64>, tensor<f64>) outs(%8 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %10 = tensor.empty() : tensor<f64>
// CHECK-NEXT:  %11 = hip.miopen.div(%ctx) ins(%cst_4, %9 : tensor<f64>, tensor<f64>) outs(%10 : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:  %dim_1 = tensor.dim %5, %c0 : tensor<?xf64>
// CHECK-NEXT:  %12 = tensor.empty(%dim_1) : tensor<?xf64>
// CHECK-NEXT:  %13 = hip.miopen.mul(%ctx) ins(%5, %11 : tensor<?xf64>, tensor<f64>) outs(%12 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_2 = tensor.dim %13, %c0 : tensor<?xf64>
// CHECK-NEXT:  %14 = tensor.empty(%dim_2) : tensor<?xf64>
// CHECK-NEXT:  %15 = hip.miopen.cos(%ctx) ins(%13 : tensor<?xf64>) outs(%14 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_3 = tensor.dim %15, %c0 : tensor<?xf64>
// CHECK-NEXT:  %16 = tensor.empty(%dim_3) : tensor<?xf64>
// CHECK-NEXT:  %17 = hip.miopen.mul(%ctx) ins(%cst_3, %15 : tensor<f64>, tensor<?xf64>) outs(%16 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_4 = tensor.dim %17, %c0 : tensor<?xf64>
// CHECK-NEXT:  %18 = tensor.empty(%dim_4) : tensor<?xf64>
// CHECK-NEXT:  %19 = hip.miopen.sub(%ctx) ins(%cst_2, %17 : tensor<f64>, tensor<?xf64>) outs(%18 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_5 = tensor.dim %13, %c0 : tensor<?xf64>
// CHECK-NEXT:  %20 = tensor.empty(%dim_5) : tensor<?xf64>
// CHECK-NEXT:  %21 = hip.miopen.mul(%ctx) ins(%13, %cst_1 : tensor<?xf64>, tensor<f64>) outs(%20 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_6 = tensor.dim %21, %c0 : tensor<?xf64>
// CHECK-NEXT:  %22 = tensor.empty(%dim_6) : tensor<?xf64>
// CHECK-NEXT:  %23 = hip.miopen.cos(%ctx) ins(%21 : tensor<?xf64>) outs(%22 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_7 = tensor.dim %23, %c0 : tensor<?xf64>
// CHECK-NEXT:  %24 = tensor.empty(%dim_7) : tensor<?xf64>
// CHECK-NEXT:  %25 = hip.miopen.mul(%ctx) ins(%cst, %23 : tensor<f64>, tensor<?xf64>) outs(%24 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  %dim_8 = tensor.dim %19, %c0 : tensor<?xf64>
// CHECK-NEXT:  %26 = tensor.empty(%dim_8) : tensor<?xf64>
// CHECK-NEXT:  %27 = hip.miopen.add(%ctx) ins(%19, %25 : tensor<?xf64>, tensor<?xf64>) outs(%26 : tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT:  func.return %27 : tensor<?xf64>
