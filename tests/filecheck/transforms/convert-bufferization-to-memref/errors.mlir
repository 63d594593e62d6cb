// RUN: xdsl-opt %s -p convert-bufferization-to-memref --split-input-file --verify-diagnostics | filecheck %s

// An identity-layout buffer cannot become a transposed one.
func.func @transposed(%a: memref<4x4xf32, strided<[1, 4]>>) -> memref<4x4xf32, strided<[1, 4]>> {
  %0 = bufferization.clone %a : memref<4x4xf32, strided<[1, 4]>> to memref<4x4xf32, strided<[1, 4]>>
  func.return %0 : memref<4x4xf32, strided<[1, 4]>>
}

// CHECK: convert-bufferization-to-memref: an identity-layout buffer cannot be cast to memref<4x4xf32, strided<[1, 4]>>

// -----

// Like upstream, no other bufferization op may be left.
func.func @to_tensor(%a: memref<4xf32>) -> tensor<4xf32> {
  %0 = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK: convert-bufferization-to-memref: cannot lower 'bufferization.to_tensor'
