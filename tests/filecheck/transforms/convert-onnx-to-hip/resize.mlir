// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Constant scales: the output size is floor(in * scale), index arithmetic for
// an integer scale of a dynamic dim; the scales go to hip.resize.

func.func @resize_scales(%ctx: !hip.context, %x: tensor<?x3x4x?xf32>) -> tensor<?x3x6x?xf32> {
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 1.5, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", onnx_node_name = "r"} : (tensor<?x3x4x?xf32>, tensor<4xf32>) -> tensor<?x3x6x?xf32>
  func.return %0 : tensor<?x3x6x?xf32>
}
// CHECK-LABEL: func.func @resize_scales
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x4x?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c3 : tensor<?x3x4x?xf32>
// CHECK-NEXT:    %0 = arith.muli %dim_1, %c2 : index
// CHECK-NEXT:    %1 = tensor.empty(%dim, %0) : tensor<?x3x6x?xf32>
// CHECK-NEXT:    %2 = hip.resize(%ctx) ins(%x : tensor<?x3x4x?xf32>) outs(%1 : tensor<?x3x6x?xf32>) {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", cubic_coeff_a = -7.500000e-01 : f64, extrapolation_value = 0.000000e+00 : f64, scales = array<f64: 1.000000e+00, 1.000000e+00, 1.500000e+00, 2.000000e+00>} -> tensor<?x3x6x?xf32>
// CHECK-NEXT:    func.return %2 : tensor<?x3x6x?xf32>

// sizes with axes (opset 18): spread over the rank; no scales (out / in at
// run time); cubic's a, exclude_outside and antialias as properties.

func.func @resize_sizes_axes(%ctx: !hip.context, %x: tensor<2x3x4x5xf32>) -> tensor<2x3x9x7xf32> {
  %s = "onnx.Constant"() {value = dense<[7, 9]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 0, 1>, axes = [3, 2], mode = "cubic", cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : si64, antialias = 1 : si64, onnx_node_name = "r"} : (tensor<2x3x4x5xf32>, tensor<2xi64>) -> tensor<2x3x9x7xf32>
  func.return %0 : tensor<2x3x9x7xf32>
}
// CHECK-LABEL: func.func @resize_sizes_axes
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x3x9x7xf32>
// CHECK-NEXT:    %1 = hip.resize(%ctx) ins(%x : tensor<2x3x4x5xf32>) outs(%0 : tensor<2x3x9x7xf32>) {mode = "cubic", coordinate_transformation_mode = "half_pixel", nearest_mode = "round_prefer_floor", cubic_coeff_a = -5.000000e-01 : f64, extrapolation_value = 0.000000e+00 : f64, exclude_outside, antialias} -> tensor<2x3x9x7xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x3x9x7xf32>

// tf_crop_and_resize: the roi, begins then ends over the full rank.

func.func @resize_tf_crop(%ctx: !hip.context, %x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %roi = "onnx.Constant"() {value = dense<[0.0, 0.0, 0.4, 0.6, 1.0, 1.0, 0.6, 0.8]> : tensor<8xf32>} : () -> tensor<8xf32>
  %s = "onnx.Constant"() {value = dense<[1, 1, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.Resize"(%x, %roi, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 1>, mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+01 : f32, onnx_node_name = "r"} : (tensor<1x1x4x4xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x1x3x3xf32>
  func.return %0 : tensor<1x1x3x3xf32>
}
// CHECK-LABEL: func.func @resize_tf_crop
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x1x3x3xf32>
// CHECK-NEXT:    %1 = hip.resize(%ctx) ins(%x : tensor<1x1x4x4xf32>) outs(%0 : tensor<1x1x3x3xf32>) {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", nearest_mode = "round_prefer_floor", cubic_coeff_a = -7.500000e-01 : f64, extrapolation_value = 1.000000e+01 : f64, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.40000000596046448, 0.60000002384185791, 1.000000e+00, 1.000000e+00, 0.60000002384185791, 0.80000001192092896>} -> tensor<1x1x3x3xf32>
// CHECK-NEXT:    func.return %1 : tensor<1x1x3x3xf32>
