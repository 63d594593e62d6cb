// RUN: xdsl-opt %s -p hip-fuse-scaled-softmax | filecheck %s

// A scalar mul whose product only the next softmax reads becomes the softmax's
// scale operand; the product's view goes with it.
// CHECK-LABEL: func.func @fused
// CHECK-NOT:     memref.view
// CHECK:         hip.miopen.softmax(%ctx) ins(%x, %s : memref<4x8xf32>, memref<1x1xf32>) outs(%y : memref<4x8xf32>)
// CHECK-NEXT:    func.return
func.func @fused(%ctx: !hip.context, %x: memref<4x8xf32>, %s: memref<1x1xf32>, %pool: memref<?xi8>, %y: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %p = memref.view %pool[%c0][] : memref<?xi8> to memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %s : memref<4x8xf32>, memref<1x1xf32>) outs(%p : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  func.return
}

// The scalar may come first; the product's buffer may still be deallocated.
// CHECK-LABEL: func.func @scalar_first
// CHECK-NEXT:    %p = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    hip.miopen.softmax(%ctx) ins(%x, %s : memref<4x8xf32>, memref<f32>) outs(%y : memref<4x8xf32>) {axis = 0 : i64}
func.func @scalar_first(%ctx: !hip.context, %x: memref<4x8xf32>, %s: memref<f32>, %y: memref<4x8xf32>) {
  %p = memref.alloc() : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%s, %x : memref<f32>, memref<4x8xf32>) outs(%p : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {axis = 0 : i64}
  memref.dealloc %p : memref<4x8xf32>
  func.return
}

// A product read again, or written to an argument, must exist: no fusion.
// CHECK-LABEL: func.func @read_again
// CHECK:         hip.miopen.mul
// CHECK-NEXT:    hip.miopen.softmax(%ctx) ins(%t : memref<4x8xf32>)
// CHECK:         hip.miopen.mul
// CHECK-NEXT:    hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>)
func.func @read_again(%ctx: !hip.context, %x: memref<4x8xf32>, %s: memref<f32>, %p: memref<4x8xf32>, %y: memref<4x8xf32>, %z: memref<4x8xf32>) {
  %t = memref.alloc() : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %s : memref<4x8xf32>, memref<f32>) outs(%t : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%t : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%t, %x : memref<4x8xf32>, memref<4x8xf32>) outs(%z : memref<4x8xf32>)
  memref.dealloc %t : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %s : memref<4x8xf32>, memref<f32>) outs(%p : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  func.return
}

// A mul of two full tensors is no scaling.
// CHECK-LABEL: func.func @not_a_scalar
// CHECK:         hip.miopen.mul
// CHECK-NEXT:    hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>)
func.func @not_a_scalar(%ctx: !hip.context, %x: memref<4x8xf32>, %w: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %p = memref.alloc() : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %w : memref<4x8xf32>, memref<4x8xf32>) outs(%p : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  memref.dealloc %p : memref<4x8xf32>
  func.return
}
