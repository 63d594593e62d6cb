// RUN: xdsl-opt %s -p one-shot-bufferize | filecheck %s

// A result's buffer is not reused as the next op's init while a view of it is
// alive: the view still reads the first op's values.

func.func @f(%ctx: !hip.context, %x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> (tensor<8xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %0 = hip.miopen.relu(%ctx) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %v = tensor.collapse_shape %0 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %1 = hip.miopen.relu(%ctx) ins(%y : tensor<2x4xf32>) outs(%0 : tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %v, %1 : tensor<8xf32>, tensor<2x4xf32>
}
// CHECK:      %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%x : {{.*}}) outs(%alloc : memref<2x4xf32>)
// CHECK-NEXT: %collapse_shape = memref.collapse_shape %alloc
// CHECK-NEXT: %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-NEXT: hip.miopen.relu(%ctx) ins(%y : {{.*}}) outs(%alloc_1 : memref<2x4xf32>)
// CHECK:      func.return %collapse_shape, %alloc_1
