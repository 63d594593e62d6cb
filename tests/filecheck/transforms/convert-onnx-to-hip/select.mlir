// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// NonZero: the count on the device, read back, sizes the [rank, n] result
// that hip.nonzero writes.

func.func @nonzero(%ctx: !hip.context, %x: tensor<?x4xf32>) -> tensor<2x?xi64> {
  %0 = "onnx.NonZero"(%x) {onnx_node_name = "nz"} : (tensor<?x4xf32>) -> tensor<2x?xi64>
  func.return %0 : tensor<2x?xi64>
}

// CHECK-LABEL: func.func @nonzero
// CHECK-NEXT:    %0 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %1 = hip.count_nonzero(%ctx) ins(%x : tensor<?x4xf32>) outs(%0 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %2 = hip.readback(%ctx) %1 : tensor<i64> -> index
// CHECK-NEXT:    %3 = tensor.empty(%2) : tensor<2x?xi64>
// CHECK-NEXT:    %4 = hip.nonzero(%ctx) ins(%x : tensor<?x4xf32>) outs(%3 : tensor<2x?xi64>) -> tensor<2x?xi64>
// CHECK-NEXT:    func.return %4 : tensor<2x?xi64>

// Compress along an axis (negative: from the end), with a condition shorter
// than the axis: the positions of the true conditions (NonZero, collapsed to
// 1-D) gather the kept slices.

func.func @compress_axis(%ctx: !hip.context, %x: tensor<3x5xf32>, %c: tensor<4xi1>) -> tensor<3x?xf32> {
  %0 = "onnx.Compress"(%x, %c) {axis = -1 : si64, onnx_node_name = "compress"} : (tensor<3x5xf32>, tensor<4xi1>) -> tensor<3x?xf32>
  func.return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @compress_axis
// CHECK-NEXT:    %0 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %1 = hip.count_nonzero(%ctx) ins(%c : tensor<4xi1>) outs(%0 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %2 = hip.readback(%ctx) %1 : tensor<i64> -> index
// CHECK-NEXT:    %3 = tensor.empty(%2) : tensor<1x?xi64>
// CHECK-NEXT:    %4 = hip.nonzero(%ctx) ins(%c : tensor<4xi1>) outs(%3 : tensor<1x?xi64>) -> tensor<1x?xi64>
// CHECK-NEXT:    %5 = tensor.collapse_shape %4 [[0 : i64, 1 : i64]] : tensor<1x?xi64> into tensor<?xi64>
// CHECK-NEXT:    %6 = tensor.empty(%2) : tensor<3x?xf32>
// CHECK-NEXT:    %7 = hip.gather(%ctx) ins(%x, %5 : tensor<3x5xf32>, tensor<?xi64>) outs(%6 : tensor<3x?xf32>) {axis = 1 : i64} -> tensor<3x?xf32>
// CHECK-NEXT:    func.return %7 : tensor<3x?xf32>

// A condition longer than the axis: ONNX Runtime ignores the entries past
// it, so only its first 3 are read (a hip.slice).

func.func @compress_long(%ctx: !hip.context, %x: tensor<3x5xf32>, %c: tensor<7xi1>) -> tensor<?x5xf32> {
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : si64, onnx_node_name = "compress"} : (tensor<3x5xf32>, tensor<7xi1>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// CHECK-LABEL: func.func @compress_long
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3xi1>
// CHECK-NEXT:    %1 = hip.slice(%ctx, %c0) ins(%c : tensor<7xi1>) outs(%0 : tensor<3xi1>) {steps = array<i64: 1>} -> tensor<3xi1>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %3 = hip.count_nonzero(%ctx) ins(%1 : tensor<3xi1>) outs(%2 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %4 = hip.readback(%ctx) %3 : tensor<i64> -> index
// CHECK-NEXT:    %5 = tensor.empty(%4) : tensor<1x?xi64>
// CHECK-NEXT:    %6 = hip.nonzero(%ctx) ins(%1 : tensor<3xi1>) outs(%5 : tensor<1x?xi64>) -> tensor<1x?xi64>
// CHECK-NEXT:    %7 = tensor.collapse_shape %6 [[0 : i64, 1 : i64]] : tensor<1x?xi64> into tensor<?xi64>
// CHECK-NEXT:    %8 = tensor.empty(%4) : tensor<?x5xf32>
// CHECK-NEXT:    %9 = hip.gather(%ctx) ins(%x, %7 : tensor<3x5xf32>, tensor<?xi64>) outs(%8 : tensor<?x5xf32>) {axis = 0 : i64} -> tensor<?x5xf32>
// CHECK-NEXT:    func.return %9 : tensor<?x5xf32>

// Compress without an axis: the input flattened to 1-D (a view); a condition
// of unknown length is cut to at most the 15 elements at run time.

func.func @compress_flat(%ctx: !hip.context, %x: tensor<3x5xf32>, %c: tensor<?xi1>) -> tensor<?xf32> {
  %0 = "onnx.Compress"(%x, %c) {onnx_node_name = "compress"} : (tensor<3x5xf32>, tensor<?xi1>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @compress_flat
// CHECK-NEXT:    %c15 = arith.constant 15 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = tensor.collapse_shape %x [[0 : i64, 1 : i64]] : tensor<3x5xf32> into tensor<15xf32>
// CHECK-NEXT:    %dim = tensor.dim %c, %c0 : tensor<?xi1>
// CHECK-NEXT:    %1 = arith.minsi %dim, %c15 : index
// CHECK-NEXT:    %2 = tensor.empty(%1) : tensor<?xi1>
// CHECK-NEXT:    %3 = hip.slice(%ctx, %c0) ins(%c : tensor<?xi1>) outs(%2 : tensor<?xi1>) {steps = array<i64: 1>} -> tensor<?xi1>
// CHECK-NEXT:    %4 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %5 = hip.count_nonzero(%ctx) ins(%3 : tensor<?xi1>) outs(%4 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %6 = hip.readback(%ctx) %5 : tensor<i64> -> index
// CHECK-NEXT:    %7 = tensor.empty(%6) : tensor<1x?xi64>
// CHECK-NEXT:    %8 = hip.nonzero(%ctx) ins(%3 : tensor<?xi1>) outs(%7 : tensor<1x?xi64>) -> tensor<1x?xi64>
// CHECK-NEXT:    %9 = tensor.collapse_shape %8 [[0 : i64, 1 : i64]] : tensor<1x?xi64> into tensor<?xi64>
// CHECK-NEXT:    %10 = tensor.empty(%6) : tensor<?xf32>
// CHECK-NEXT:    %11 = hip.gather(%ctx) ins(%0, %9 : tensor<15xf32>, tensor<?xi64>) outs(%10 : tensor<?xf32>) {axis = 0 : i64} -> tensor<?xf32>
// CHECK-NEXT:    func.return %11 : tensor<?xf32>

// Unique flattened (sorted, all four outputs) and along an axis (unsorted:
// the `unsorted` unit; Y and inverse_indices only, the others unused). The
// inverse indices have a static size: cast back to the declared type.

func.func @unique(%ctx: !hip.context, %x: tensor<4x6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<4x?xf32>, tensor<?xi64>) {
  %0, %1, %2, %3 = "onnx.Unique"(%x) {sorted = 1 : si64, operandSegmentSizes = array<i32: 1>, resultSegmentSizes = array<i32: 1, 1, 1, 1>, onnx_node_name = "u"} : (tensor<4x6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %4, %5 = "onnx.Unique"(%x) {axis = 1 : si64, sorted = 0 : si64, resultSegmentSizes = array<i32: 1, 0, 1, 0>, onnx_node_name = "v"} : (tensor<4x6xf32>) -> (tensor<4x?xf32>, tensor<?xi64>)
  func.return %0, %1, %2, %3, %4, %5 : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<4x?xf32>, tensor<?xi64>
}

// CHECK-LABEL: func.func @unique
// CHECK-NEXT:    %0 = tensor.collapse_shape %x [[0 : i64, 1 : i64]] : tensor<4x6xf32> into tensor<24xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %2 = hip.unique_count(%ctx) ins(%0 : tensor<24xf32>) outs(%1 : tensor<i64>) {axis = 0 : i64} -> tensor<i64>
// CHECK-NEXT:    %3 = hip.readback(%ctx) %2 : tensor<i64> -> index
// CHECK-NEXT:    %4 = tensor.empty(%3) : tensor<?xf32>
// CHECK-NEXT:    %5 = tensor.empty(%3) : tensor<?xi64>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<24xi64>
// CHECK-NEXT:    %7 = tensor.empty(%3) : tensor<?xi64>
// CHECK-NEXT:    %8, %9, %10, %11 = hip.unique(%ctx) ins(%0 : tensor<24xf32>) outs(%4, %5, %6, %7 : tensor<?xf32>, tensor<?xi64>, tensor<24xi64>, tensor<?xi64>) {axis = 0 : i64} -> (tensor<?xf32>, tensor<?xi64>, tensor<24xi64>, tensor<?xi64>)
// CHECK-NEXT:    %12 = tensor.cast %10 : tensor<24xi64> to tensor<?xi64>
// CHECK-NEXT:    %13 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %14 = hip.unique_count(%ctx) ins(%x : tensor<4x6xf32>) outs(%13 : tensor<i64>) {axis = 1 : i64} -> tensor<i64>
// CHECK-NEXT:    %15 = hip.readback(%ctx) %14 : tensor<i64> -> index
// CHECK-NEXT:    %16 = tensor.empty(%15) : tensor<4x?xf32>
// CHECK-NEXT:    %17 = tensor.empty(%15) : tensor<?xi64>
// CHECK-NEXT:    %18 = tensor.empty() : tensor<6xi64>
// CHECK-NEXT:    %19 = tensor.empty(%15) : tensor<?xi64>
// CHECK-NEXT:    %20, %21, %22, %23 = hip.unique(%ctx) ins(%x : tensor<4x6xf32>) outs(%16, %17, %18, %19 : tensor<4x?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>) {axis = 1 : i64, unsorted} -> (tensor<4x?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
// CHECK-NEXT:    %24 = tensor.cast %22 : tensor<6xi64> to tensor<?xi64>
// CHECK-NEXT:    func.return %8, %9, %12, %11, %20, %24 : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<4x?xf32>, tensor<?xi64>

// NonMaxSuppression with center_point_box = 1 and no score threshold, and
// with none of the optional operands: the unit attributes say which are absent.

func.func @nms(%ctx: !hip.context, %boxes: tensor<2x6x4xf32>, %scores: tensor<2x3x6xf32>, %max: tensor<1xi64>, %iou: tensor<1xf32>) -> (tensor<?x3xi64>, tensor<?x3xi64>) {
  %0 = "onnx.NonMaxSuppression"(%boxes, %scores, %max, %iou) {center_point_box = 1 : si64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, onnx_node_name = "nms"} : (tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  %1 = "onnx.NonMaxSuppression"(%boxes, %scores) {center_point_box = 0 : si64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, onnx_node_name = "nms0"} : (tensor<2x6x4xf32>, tensor<2x3x6xf32>) -> tensor<?x3xi64>
  func.return %0, %1 : tensor<?x3xi64>, tensor<?x3xi64>
}
// CHECK-LABEL: func.func @nms
// CHECK-NEXT:    %0 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %1 = hip.nms_count(%ctx) ins(%boxes, %scores, %max, %iou : tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<1xf32>) outs(%0 : tensor<i64>) {center_point_box, no_score} -> tensor<i64>
// CHECK-NEXT:    %2 = hip.readback(%ctx) %1 : tensor<i64> -> index
// CHECK-NEXT:    %3 = tensor.empty(%2) : tensor<?x3xi64>
// CHECK-NEXT:    %4 = hip.nms(%ctx) ins(%boxes, %scores, %max, %iou : tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<1xf32>) outs(%3 : tensor<?x3xi64>) {center_point_box, no_score} -> tensor<?x3xi64>
// CHECK-NEXT:    %5 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %6 = hip.nms_count(%ctx) ins(%boxes, %scores : tensor<2x6x4xf32>, tensor<2x3x6xf32>) outs(%5 : tensor<i64>) {no_max, no_iou, no_score} -> tensor<i64>
// CHECK-NEXT:    %7 = hip.readback(%ctx) %6 : tensor<i64> -> index
// CHECK-NEXT:    %8 = tensor.empty(%7) : tensor<?x3xi64>
// CHECK-NEXT:    %9 = hip.nms(%ctx) ins(%boxes, %scores : tensor<2x6x4xf32>, tensor<2x3x6xf32>) outs(%8 : tensor<?x3xi64>) {no_max, no_iou, no_score} -> tensor<?x3xi64>
// CHECK-NEXT:    func.return %4, %9 : tensor<?x3xi64>, tensor<?x3xi64>
