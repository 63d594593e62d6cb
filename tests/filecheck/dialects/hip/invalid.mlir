// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @k_mismatch(%ctx: !hip.context, %a: memref<?x32xf32>, %b: memref<64x64xf32>, %c: memref<?x64xf32>) {
  hip.hipblaslt.matmul(%ctx) ins(%a, %b : memref<?x32xf32>, memref<64x64xf32>) outs(%c : memref<?x64xf32>)
  func.return
}
// CHECK: 'hip.hipblaslt.matmul' K mismatch: ins operand 0 (?x32) has K = 32 but ins operand 1 (64x64) has K = 64

// -----

func.func @wrong_operand_count(%ctx: !hip.context, %a: memref<?x64xf32>, %c: memref<?x64xf32>) {
  hip.hipblaslt.matmul(%ctx) ins(%a : memref<?x64xf32>) outs(%c : memref<?x64xf32>)
  func.return
}
// CHECK: 'hip.hipblaslt.matmul' expects 2 ins operands, got 1

// -----

func.func @mixed_modes(%ctx: !hip.context, %a: tensor<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  hip.miopen.add(%ctx) ins(%a, %b : tensor<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  func.return
}
// CHECK: 'hip.miopen.add' mixes tensors and memrefs: ins operand 0 is tensor<4x4xf32> but outs operand 0 is memref<4x4xf32>

// -----

func.func @result_differs_from_init(%ctx: !hip.context, %a: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x?xf32> {
  %0 = hip.miopen.relu(%ctx) ins(%a : tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x?xf32>
  func.return %0 : tensor<4x?xf32>
}
// CHECK: 'hip.miopen.relu' result 0 has type tensor<4x?xf32> but its init (outs operand 0) has type tensor<4x4xf32>

// -----

func.func @memref_mode_has_no_results(%ctx: !hip.context, %a: memref<4xf32>, %c: memref<4xf32>) {
  %0 = hip.miopen.relu(%ctx) ins(%a : memref<4xf32>) outs(%c : memref<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'hip.miopen.relu' in memref mode has no results, got 1

// -----

func.func @element_type(%ctx: !hip.context, %a: memref<4xf16>, %b: memref<4xf32>, %c: memref<4xf32>) {
  hip.miopen.mul(%ctx) ins(%a, %b : memref<4xf16>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}
// CHECK: 'hip.miopen.mul' ins operand 0 has element type f16 but outs operand 0 has f32

// -----

func.func @no_broadcast(%ctx: !hip.context, %a: memref<4x3xf32>, %b: memref<4x5xf32>, %c: memref<4x5xf32>) {
  hip.miopen.sub(%ctx) ins(%a, %b : memref<4x3xf32>, memref<4x5xf32>) outs(%c : memref<4x5xf32>)
  func.return
}
// CHECK: 'hip.miopen.sub' ins operands do not broadcast: 4x3 and 4x5

// -----

func.func @broadcast_result_shape(%ctx: !hip.context, %a: memref<4x1xf32>, %b: memref<5xf32>, %c: memref<4x4xf32>) {
  hip.miopen.div(%ctx) ins(%a, %b : memref<4x1xf32>, memref<5xf32>) outs(%c : memref<4x4xf32>)
  func.return
}
// CHECK: 'hip.miopen.div' outs operand 0 has shape 4x4 but the broadcast of the ins operands is 4x5

// -----

func.func @transpose_shape(%ctx: !hip.context, %a: memref<2x3x4xf32>, %c: memref<2x3x4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  hip.transpose(%ctx, %c1, %c2) ins(%a : memref<2x3x4xf32>) outs(%c : memref<2x3x4xf32>)
  func.return
}
// CHECK: 'hip.transpose' outs operand 0 has shape 2x3x4 but swapping dims 1 and 2 of 2x3x4 gives 2x4x3

// -----

func.func @permute_not_a_permutation(%ctx: !hip.context, %a: memref<2x3x4xf32>, %c: memref<2x3x4xf32>) {
  hip.permute(%ctx) ins(%a : memref<2x3x4xf32>) outs(%c : memref<2x3x4xf32>) {perm = array<i64: 0, 0, 1>}
  func.return
}
// CHECK: 'hip.permute' perm [0, 0, 1] is not a permutation of the 3 dims of ins operand 0 into outs operand 0

// -----

func.func @gemm_k(%ctx: !hip.context, %a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>) {
  hip.hipblaslt.gemm(%ctx) ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>)
  func.return
}
// CHECK: 'hip.hipblaslt.gemm' K mismatch: A gives K = 8 but B gives K = 16

// -----

func.func @alloc_sizes(%ctx: !hip.context, %n: index) {
  %0 = hip.alloc(%ctx) : memref<?xi8>
  func.return
}
// CHECK: 'hip.alloc' result memref<?xi8> has 1 dynamic dims but 0 size operands were given

// -----

func.func @softmax_axis(%ctx: !hip.context, %a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  hip.miopen.softmax(%ctx) ins(%a : memref<2x3xf32>) outs(%c : memref<2x3xf32>) {axis = 2 : i64}
  func.return
}
// CHECK: 'hip.miopen.softmax' axis 2 is out of range for rank 2

// -----

// hip.cast may change the element type, not the shape.
func.func @cast_shape(%ctx: !hip.context, %a: memref<4xf32>, %c: memref<5xi32>) {
  hip.cast(%ctx) ins(%a : memref<4xf32>) outs(%c : memref<5xi32>)
  func.return
}
// CHECK: 'hip.cast' ins operand 0 has shape 4 but outs operand 0 has shape 5

// -----

func.func @concat_sizes(%ctx: !hip.context, %a: memref<2x3xf32>, %c: memref<2x7xf32>) {
  hip.concat(%ctx) ins(%a, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2x7xf32>) {axis = 1 : i64}
  func.return
}
// CHECK: 'hip.concat' outs operand 0 has size 7 in dim 1 but the ins operands add up to 6

// -----

func.func @concat_other_dim(%ctx: !hip.context, %a: memref<2x3xf32>, %b: memref<3x3xf32>, %c: memref<2x6xf32>) {
  hip.concat(%ctx) ins(%a, %b : memref<2x3xf32>, memref<3x3xf32>) outs(%c : memref<2x6xf32>) {axis = 1 : i64}
  func.return
}
// CHECK: 'hip.concat' ins operand 1 has shape 3x3 but outs operand 0 has shape 2x6 (they may differ in dim 1 only)

// -----

func.func @concat_axis(%ctx: !hip.context, %a: memref<3xf32>, %c: memref<3xf32>) {
  hip.concat(%ctx) ins(%a : memref<3xf32>) outs(%c : memref<3xf32>) {axis = 1 : i64}
  func.return
}
// CHECK: 'hip.concat' axis 1 is out of range for rank 1

// -----

func.func @concat_no_ins(%ctx: !hip.context, %c: memref<3xf32>) {
  "hip.concat"(%ctx, %c) <{axis = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hip.context, memref<3xf32>) -> ()
  func.return
}
// CHECK: 'hip.concat' expects 1 or more ins operands, got 0
