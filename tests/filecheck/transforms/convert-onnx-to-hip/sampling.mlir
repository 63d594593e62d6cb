// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// GridSample (opset 16's bicubic is cubic) and Col2Im (constant image and
// block shapes) become hip.grid_sample and hip.col2im; CenterCropPad a slice
// (about the centre) then a zero pad, sized by index arithmetic; AffineGrid
// the constant base grid times theta transposed, reshaped; MaxUnpool and
// TensorScatter a scatter_elements.

func.func @grid_sample(%ctx: !hip.context, %x: tensor<?x3x4x5xf32>, %g: tensor<?x6x7x2xf32>) -> tensor<?x3x6x7xf32> {
  %0 = "onnx.GridSample"(%x, %g) {mode = "bicubic", padding_mode = "reflection", align_corners = 1 : si64, onnx_node_name = "gs"} : (tensor<?x3x4x5xf32>, tensor<?x6x7x2xf32>) -> tensor<?x3x6x7xf32>
  func.return %0 : tensor<?x3x6x7xf32>
}
// CHECK-LABEL: func.func @grid_sample
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x3x4x5xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x3x6x7xf32>
// CHECK-NEXT:    %1 = hip.grid_sample(%ctx) ins(%x, %g : tensor<?x3x4x5xf32>, tensor<?x6x7x2xf32>) outs(%0 : tensor<?x3x6x7xf32>) {mode = "cubic", padding_mode = "reflection", align_corners} -> tensor<?x3x6x7xf32>
// CHECK-NEXT:    func.return %1 : tensor<?x3x6x7xf32>

func.func @col2im(%ctx: !hip.context, %x: tensor<1x10x12xf32>) -> tensor<1x2x4x5xf32> {
  %i = "onnx.Constant"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "onnx.Constant"() {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Col2Im"(%x, %i, %b) {pads = [0, 1, 0, 1], onnx_node_name = "c"} : (tensor<1x10x12xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x4x5xf32>
  func.return %0 : tensor<1x2x4x5xf32>
}
// CHECK-LABEL: func.func @col2im
// CHECK-NEXT:    %cst = arith.constant dense<[1, 5]> : tensor<2xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<[4, 5]> : tensor<2xi64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<1x2x4x5xf32>
// CHECK-NEXT:    %1 = hip.col2im(%ctx) ins(%x : tensor<1x10x12xf32>) outs(%0 : tensor<1x2x4x5xf32>) {block = array<i64: 1, 5>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 1, 0, 1>} -> tensor<1x2x4x5xf32>
// CHECK-NEXT:    func.return %1 : tensor<1x2x4x5xf32>

// C * prod(block) known only at run time: C is the input's dim 1 over it.
func.func @col2im_run_time_channels(%ctx: !hip.context, %x: tensor<?x?x12xf32>) -> tensor<?x?x3x4xf32> {
  %i = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Col2Im"(%x, %i, %b) {dilations = [1, 2], pads = [0, 1, 0, 1], onnx_node_name = "c"} : (tensor<?x?x12xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x3x4xf32>
  func.return %0 : tensor<?x?x3x4xf32>
}
// CHECK-LABEL: func.func @col2im_run_time_channels
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x?x12xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c1 : tensor<?x?x12xf32>
// CHECK-NEXT:    %0 = arith.divsi %dim_1, %c2 : index
// CHECK-NEXT:    %1 = tensor.empty(%dim, %0) : tensor<?x?x3x4xf32>
// CHECK-NEXT:    %2 = hip.col2im(%ctx) ins(%x : tensor<?x?x12xf32>) outs(%1 : tensor<?x?x3x4xf32>) {block = array<i64: 1, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 1>} -> tensor<?x?x3x4xf32>
// CHECK-NEXT:    func.return %2 : tensor<?x?x3x4xf32>

func.func @center_crop_pad(%ctx: !hip.context, %x: tensor<5x4x3xf32>) -> tensor<3x4x6xf32> {
  %s = "onnx.Constant"() {value = dense<[3, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.CenterCropPad"(%x, %s) {axes = [0, -1], onnx_node_name = "ccp"} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<3x4x6xf32>
  func.return %0 : tensor<3x4x6xf32>
}
// CHECK-LABEL: func.func @center_crop_pad
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %cst = arith.constant dense<[3, 6]> : tensor<2xi64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<3x4x3xf32>
// CHECK-NEXT:    %1 = hip.slice(%ctx, %c1, %c0, %c0) ins(%x : tensor<5x4x3xf32>) outs(%0 : tensor<3x4x3xf32>) {steps = array<i64: 1, 1, 1>} -> tensor<3x4x3xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<3x4x6xf32>
// CHECK-NEXT:    %3 = hip.pad(%ctx, %c0, %c0, %c1, %c0, %c0, %c2) ins(%1 : tensor<3x4x3xf32>) outs(%2 : tensor<3x4x6xf32>) {mode = "constant"} -> tensor<3x4x6xf32>
// CHECK-NEXT:    func.return %3 : tensor<3x4x6xf32>

func.func @affine_grid(%ctx: !hip.context, %theta: tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32> {
  %s = "onnx.Constant"() {value = dense<[2, 1, 2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.AffineGrid"(%theta, %s) {align_corners = 1 : si64, onnx_node_name = "ag"} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x2x3x2xf32>
  func.return %0 : tensor<2x2x3x2xf32>
}
// CHECK-LABEL: func.func @affine_grid
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %cst = arith.constant dense<[-1, 2, 3, 2]> : tensor<4xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<[[-1.000000e+00, -1.000000e+00, 1.000000e+00], [0.000000e+00, -1.000000e+00, 1.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00], [-1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<6x3xf32>
// CHECK-NEXT:    %cst_2 = arith.constant dense<[2, 1, 2, 3]> : tensor<4xi64>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x3x2xf32>
// CHECK-NEXT:    %1 = hip.transpose(%ctx, %c1, %c2) ins(%theta : tensor<2x2x3xf32>) outs(%0 : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT:    %2 = tensor.empty() : tensor<2x6x2xf32>
// CHECK-NEXT:    %3 = hip.hipblaslt.matmul(%ctx) ins(%cst_1, %1 : tensor<6x3xf32>, tensor<2x3x2xf32>) outs(%2 : tensor<2x6x2xf32>) -> tensor<2x6x2xf32>
// CHECK-NEXT:    %4 = tensor.expand_shape %3 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 2] : tensor<2x6x2xf32> into tensor<2x2x3x2xf32>
// CHECK-NEXT:    func.return %4 : tensor<2x2x3x2xf32>

// The sizes as run-time data: read back, the slice and the pad sized by
// index arithmetic on them.
func.func @center_crop_pad_run_time(%ctx: !hip.context, %x: tensor<5x4xf32>, %s: tensor<1xi64>) -> tensor<?x4xf32> {
  %0 = "onnx.CenterCropPad"(%x, %s) {axes = [0], onnx_node_name = "ccp"} : (tensor<5x4xf32>, tensor<1xi64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @center_crop_pad_run_time
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %0 = hip.readback(%ctx) %s : tensor<1xi64> -> index
// CHECK-NEXT:    %1 = arith.minsi %c5, %0 : index
// CHECK-NEXT:    %2 = arith.subi %c5, %0 : index
// CHECK-NEXT:    %3 = arith.maxsi %2, %c0 : index
// CHECK-NEXT:    %4 = arith.floordivsi %3, %c2 : index
// CHECK-NEXT:    %5 = arith.subi %0, %c5 : index
// CHECK-NEXT:    %6 = arith.maxsi %5, %c0 : index
// CHECK-NEXT:    %7 = arith.floordivsi %6, %c2 : index
// CHECK-NEXT:    %8 = arith.subi %0, %1 : index
// CHECK-NEXT:    %9 = arith.subi %8, %7 : index
// CHECK-NEXT:    %10 = tensor.empty(%1) : tensor<?x4xf32>
// CHECK-NEXT:    %11 = hip.slice(%ctx, %4, %c0) ins(%x : tensor<5x4xf32>) outs(%10 : tensor<?x4xf32>) {steps = array<i64: 1, 1>} -> tensor<?x4xf32>
// CHECK-NEXT:    %12 = tensor.empty(%0) : tensor<?x4xf32>
// CHECK-NEXT:    %13 = hip.pad(%ctx, %7, %c0, %9, %c0) ins(%11 : tensor<?x4xf32>) outs(%12 : tensor<?x4xf32>) {mode = "constant"} -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %13 : tensor<?x4xf32>

// MaxUnpool: zeros (N, C, P), the indices modulo P, a scatter along P, a reshape.
func.func @max_unpool(%ctx: !hip.context, %x: tensor<?x2x2x2xf32>, %i: tensor<?x2x2x2xi64>) -> tensor<?x2x4x4xf32> {
  %0 = "onnx.MaxUnpool"(%x, %i) {kernel_shape = [2, 2], strides = [2, 2], onnx_node_name = "mu"} : (tensor<?x2x2x2xf32>, tensor<?x2x2x2xi64>) -> tensor<?x2x4x4xf32>
  func.return %0 : tensor<?x2x4x4xf32>
}
// CHECK-LABEL: func.func @max_unpool
// CHECK-NEXT:    %cst = arith.constant dense<[0, 0, 4, 4]> : tensor<4xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<16> : tensor<i64>
// CHECK-NEXT:    %cst_2 = arith.constant dense<[0, 0, -1]> : tensor<3xi64>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?x2x2x2xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x2x16xf32>
// CHECK-NEXT:    %1 = hip.fill(%ctx) ins() outs(%0 : tensor<?x2x16xf32>) {value = 0.000000e+00 : f32} -> tensor<?x2x16xf32>
// CHECK-NEXT:    %2 = tensor.collapse_shape %x [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x2x2x2xf32> into tensor<?x2x4xf32>
// CHECK-NEXT:    %3 = tensor.collapse_shape %i [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x2x2x2xi64> into tensor<?x2x4xi64>
// CHECK-NEXT:    %dim_1 = tensor.dim %3, %c0 : tensor<?x2x4xi64>
// CHECK-NEXT:    %4 = tensor.empty(%dim_1) : tensor<?x2x4xi64>
// CHECK-NEXT:    %5 = hip.miopen.mod(%ctx) ins(%3, %cst_1 : tensor<?x2x4xi64>, tensor<i64>) outs(%4 : tensor<?x2x4xi64>) -> tensor<?x2x4xi64>
// CHECK-NEXT:    %dim_2 = tensor.dim %1, %c0 : tensor<?x2x16xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_2) : tensor<?x2x16xf32>
// CHECK-NEXT:    %7 = hip.scatter_elements(%ctx) ins(%1, %5, %2 : tensor<?x2x16xf32>, tensor<?x2x4xi64>, tensor<?x2x4xf32>) outs(%6 : tensor<?x2x16xf32>) {axis = 2 : i64, reduction = "none"} -> tensor<?x2x16xf32>
// CHECK-NEXT:    %dim_3 = tensor.dim %7, %c0 : tensor<?x2x16xf32>
// CHECK-NEXT:    %8 = tensor.expand_shape %7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_3, 2, 4, 4] : tensor<?x2x16xf32> into tensor<?x2x4x4xf32>
// CHECK-NEXT:    func.return %8 : tensor<?x2x4x4xf32>

// Without output_shape, spatial sizes known only at run time: the output's
// are (in - 1) * stride - pads + kernel, index arithmetic.
func.func @max_unpool_run_time_spatial(%ctx: !hip.context, %x: tensor<?x2x?x?xf32>, %i: tensor<?x2x?x?xi64>) -> tensor<?x2x?x?xf32> {
  %0 = "onnx.MaxUnpool"(%x, %i) {kernel_shape = [3, 2], strides = [2, 1], pads = [1, 0, 1, 1], onnx_node_name = "mu"} : (tensor<?x2x?x?xf32>, tensor<?x2x?x?xi64>) -> tensor<?x2x?x?xf32>
  func.return %0 : tensor<?x2x?x?xf32>
}
// CHECK-LABEL: func.func @max_unpool_run_time_spatial
// CHECK-NEXT:    %cst = arith.constant dense<[0, 0, -1]> : tensor<3xi64>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c2 : tensor<?x2x?x?xf32>
// CHECK-NEXT:    %0 = arith.subi %dim, %c1 : index
// CHECK-NEXT:    %1 = arith.muli %0, %c2 : index
// CHECK-NEXT:    %2 = arith.addi %1, %c1 : index
// CHECK-NEXT:    %dim_1 = tensor.dim %x, %c3 : tensor<?x2x?x?xf32>
// CHECK-NEXT:    %3 = arith.subi %dim_1, %c1 : index
// CHECK-NEXT:    %4 = arith.addi %3, %c1 : index
// CHECK-NEXT:    %5 = arith.muli %2, %4 : index
// CHECK-NEXT:    %dim_2 = tensor.dim %x, %c0 : tensor<?x2x?x?xf32>
// CHECK-NEXT:    %6 = tensor.empty(%dim_2, %5) : tensor<?x2x?xf32>
// CHECK-NEXT:    %7 = hip.fill(%ctx) ins() outs(%6 : tensor<?x2x?xf32>) {value = 0.000000e+00 : f32} -> tensor<?x2x?xf32>
// CHECK-NEXT:    %8 = arith.index_cast %5 : index to i64
// CHECK-NEXT:    %9 = tensor.empty() : tensor<i64>
// CHECK-NEXT:    %10 = hip.from_elements(%ctx, %5) ins() outs(%9 : tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %11 = tensor.collapse_shape %x [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x2x?x?xf32> into tensor<?x2x?xf32>
// CHECK-NEXT:    %12 = tensor.collapse_shape %i [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<?x2x?x?xi64> into tensor<?x2x?xi64>
// CHECK-NEXT:    %dim_3 = tensor.dim %12, %c0 : tensor<?x2x?xi64>
// CHECK-NEXT:    %dim_4 = tensor.dim %12, %c2 : tensor<?x2x?xi64>
// CHECK-NEXT:    %13 = tensor.empty(%dim_3, %dim_4) : tensor<?x2x?xi64>
// CHECK-NEXT:    %14 = hip.miopen.mod(%ctx) ins(%12, %10 : tensor<?x2x?xi64>, tensor<i64>) outs(%13 : tensor<?x2x?xi64>) -> tensor<?x2x?xi64>
// CHECK-NEXT:    %dim_5 = tensor.dim %7, %c0 : tensor<?x2x?xf32>
// CHECK-NEXT:    %dim_6 = tensor.dim %7, %c2 : tensor<?x2x?xf32>
// CHECK-NEXT:    %15 = tensor.empty(%dim_5, %dim_6) : tensor<?x2x?xf32>
// CHECK-NEXT:    %16 = hip.scatter_elements(%ctx) ins(%7, %14, %11 : tensor<?x2x?xf32>, tensor<?x2x?xi64>, tensor<?x2x?xf32>) outs(%15 : tensor<?x2x?xf32>) {axis = 2 : i64, reduction = "none"} -> tensor<?x2x?xf32>
// CHECK-NEXT:    %17 = tensor.collapse_shape %16 [[0 : i64, 1 : i64, 2 : i64]] : tensor<?x2x?xf32> into tensor<?xf32>
// CHECK-NEXT:    %18 = tensor.expand_shape %17 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_2, 2, %2, %4] : tensor<?xf32> into tensor<?x2x?x?xf32>
// CHECK-NEXT:    func.return %18 : tensor<?x2x?x?xf32>
// CHECK-NEXT:    }

// TensorScatter: positions write_indices[b] + s, modulo the cache length
// (circular), expanded to the update's shape, a scatter along the axis.
func.func @tensor_scatter(%ctx: !hip.context, %past: tensor<2x3x6x4xf32>, %u: tensor<2x3x2x4xf32>, %w: tensor<2xi64>) -> tensor<2x3x6x4xf32> {
  %0 = "onnx.TensorScatter"(%past, %u, %w) {mode = "circular", onnx_node_name = "ts"} : (tensor<2x3x6x4xf32>, tensor<2x3x2x4xf32>, tensor<2xi64>) -> tensor<2x3x6x4xf32>
  func.return %0 : tensor<2x3x6x4xf32>
}
// CHECK-LABEL: func.func @tensor_scatter
// CHECK-NEXT:    %cst = arith.constant dense<[2, 3, 2, 4]> : tensor<4xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<6> : tensor<i64>
// CHECK-NEXT:    %cst_2 = arith.constant dense<[-1, 1, 1, 1]> : tensor<4xi64>
// CHECK-NEXT:    %cst_3 = arith.constant dense<[[[[0], [1]]]]> : tensor<1x1x2x1xi64>
// CHECK-NEXT:    %0 = tensor.expand_shape %w [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [2, 1, 1, 1] : tensor<2xi64> into tensor<2x1x1x1xi64>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<2x1x2x1xi64>
// CHECK-NEXT:    %2 = hip.miopen.add(%ctx) ins(%0, %cst_3 : tensor<2x1x1x1xi64>, tensor<1x1x2x1xi64>) outs(%1 : tensor<2x1x2x1xi64>) -> tensor<2x1x2x1xi64>
// CHECK-NEXT:    %3 = tensor.empty() : tensor<2x1x2x1xi64>
// CHECK-NEXT:    %4 = hip.miopen.mod(%ctx) ins(%2, %cst_1 : tensor<2x1x2x1xi64>, tensor<i64>) outs(%3 : tensor<2x1x2x1xi64>) -> tensor<2x1x2x1xi64>
// CHECK-NEXT:    %5 = tensor.empty() : tensor<2x3x2x4xi64>
// CHECK-NEXT:    %6 = hip.expand(%ctx) ins(%4 : tensor<2x1x2x1xi64>) outs(%5 : tensor<2x3x2x4xi64>) -> tensor<2x3x2x4xi64>
// CHECK-NEXT:    %7 = tensor.empty() : tensor<2x3x6x4xf32>
// CHECK-NEXT:    %8 = hip.scatter_elements(%ctx) ins(%past, %6, %u : tensor<2x3x6x4xf32>, tensor<2x3x2x4xi64>, tensor<2x3x2x4xf32>) outs(%7 : tensor<2x3x6x4xf32>) {axis = 2 : i64, reduction = "none"} -> tensor<2x3x6x4xf32>
// CHECK-NEXT:    func.return %8 : tensor<2x3x6x4xf32>

// Dynamic steps and cache length: 0..S-1 is a hip.range of the update's dim,
// the modulus the cache's dim.
func.func @tensor_scatter_dynamic(%ctx: !hip.context, %past: tensor<2x3x?x4xf32>, %u: tensor<2x3x?x4xf32>, %w: tensor<2xi64>) -> tensor<2x3x?x4xf32> {
  %0 = "onnx.TensorScatter"(%past, %u, %w) {mode = "circular", onnx_node_name = "ts"} : (tensor<2x3x?x4xf32>, tensor<2x3x?x4xf32>, tensor<2xi64>) -> tensor<2x3x?x4xf32>
  func.return %0 : tensor<2x3x?x4xf32>
}
// CHECK-LABEL: func.func @tensor_scatter_dynamic
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant dense<[-1, 1, 1, 1]> : tensor<4xi64>
// CHECK-NEXT:    %cst_1 = arith.constant dense<[1, 1, -1, 1]> : tensor<4xi64>
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %cst_2 = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %cst_3 = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %dim = tensor.dim %u, %c2 : tensor<2x3x?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?xi64>
// CHECK-NEXT:    %1 = hip.range(%ctx) ins(%cst_3, %cst_2 : tensor<i64>, tensor<i64>) outs(%0 : tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:    %dim_1 = tensor.dim %1, %c0 : tensor<?xi64>
// CHECK-NEXT:    %2 = tensor.expand_shape %1 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : tensor<?xi64> into tensor<1x1x?x1xi64>
// CHECK-NEXT:    %3 = tensor.expand_shape %w [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [2, 1, 1, 1] : tensor<2xi64> into tensor<2x1x1x1xi64>
// CHECK-NEXT:    %dim_2 = tensor.dim %2, %c2 : tensor<1x1x?x1xi64>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<2x1x?x1xi64>
// CHECK-NEXT:    %5 = hip.miopen.add(%ctx) ins(%3, %2 : tensor<2x1x1x1xi64>, tensor<1x1x?x1xi64>) outs(%4 : tensor<2x1x?x1xi64>) -> tensor<2x1x?x1xi64>
// CHECK-NEXT:    %dim_3 = tensor.dim %past, %c2 : tensor<2x3x?x4xf32>
// CHECK-NEXT:    %6 = tensor.empty() : tensor<1xi64>
// CHECK-NEXT:    %7 = hip.from_elements(%ctx, %dim_3) ins() outs(%6 : tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:    %dim_4 = tensor.dim %5, %c2 : tensor<2x1x?x1xi64>
// CHECK-NEXT:    %8 = tensor.empty(%dim_4) : tensor<2x1x?x1xi64>
// CHECK-NEXT:    %9 = hip.miopen.mod(%ctx) ins(%5, %7 : tensor<2x1x?x1xi64>, tensor<1xi64>) outs(%8 : tensor<2x1x?x1xi64>) -> tensor<2x1x?x1xi64>
// CHECK-NEXT:    %dim_5 = tensor.dim %u, %c2 : tensor<2x3x?x4xf32>
// CHECK-NEXT:    %10 = tensor.empty() : tensor<4xi64>
// CHECK-NEXT:    %11 = hip.from_elements(%ctx, %c2, %c3, %dim_5, %c4) ins() outs(%10 : tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT:    %12, %13, %14, %15 = hip.readback(%ctx) %11 : tensor<4xi64> -> index, index, index, index
// CHECK-NEXT:    %dim_6 = tensor.dim %9, %c2 : tensor<2x1x?x1xi64>
// CHECK-NEXT:    %16 = arith.cmpi eq, %dim_6, %c1 : index
// CHECK-NEXT:    %17 = arith.select %16, %14, %dim_6 : index
// CHECK-NEXT:    %18 = tensor.empty(%17) : tensor<2x3x?x4xi64>
// CHECK-NEXT:    %19 = hip.expand(%ctx) ins(%9 : tensor<2x1x?x1xi64>) outs(%18 : tensor<2x3x?x4xi64>) -> tensor<2x3x?x4xi64>
// CHECK-NEXT:    %dim_7 = tensor.dim %past, %c2 : tensor<2x3x?x4xf32>
// CHECK-NEXT:    %20 = tensor.empty(%dim_7) : tensor<2x3x?x4xf32>
// CHECK-NEXT:    %21 = hip.scatter_elements(%ctx) ins(%past, %19, %u : tensor<2x3x?x4xf32>, tensor<2x3x?x4xi64>, tensor<2x3x?x4xf32>) outs(%20 : tensor<2x3x?x4xf32>) {axis = 2 : i64, reduction = "none"} -> tensor<2x3x?x4xf32>
// CHECK-NEXT:    func.return %21 : tensor<2x3x?x4xf32>
