// RUN: xdsl-opt %s -p hip-fuse-conv-relu | filecheck %s

// ResNet's stem as the memory plan leaves it: the Relu's out is a view made
// between the two ops. The view (and its offset) moves up, the conv writes
// it with `relu`, and the Relu is gone; %t stays, unwritten.
// CHECK-LABEL: func.func @stem
// CHECK:         %t = memref.view %pool[%i0][]
// CHECK-NEXT:    %o1 = arith.constant 2048 : index
// CHECK-NEXT:    %u = memref.view %pool[%o1][]
// CHECK-NEXT:    hip.miopen.conv(%ctx) ins(%x, %w, %b : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>, memref<4xf32>) outs(%u, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64, relu}
// CHECK-NEXT:    hip.miopen.max_pool(%ctx) ins(%u : memref<1x4x6x6xf32>) outs(%y : memref<1x4x3x3xf32>)
func.func @stem(%ctx: !hip.context, %x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %b: memref<4xf32>, %ws: memref<972xf32>, %pool: memref<4096xi8>, %y: memref<1x4x3x3xf32>) {
  %i0 = arith.constant 0 : index
  %t = memref.view %pool[%i0][] : memref<4096xi8> to memref<1x4x6x6xf32>
  hip.miopen.conv(%ctx) ins(%x, %w, %b : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>, memref<4xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
  %o1 = arith.constant 2048 : index
  %u = memref.view %pool[%o1][] : memref<4096xi8> to memref<1x4x6x6xf32>
  hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
  hip.miopen.max_pool(%ctx) ins(%u : memref<1x4x6x6xf32>) outs(%y : memref<1x4x3x3xf32>) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, kernel_shape = array<i64: 2, 2>}
  func.return
}

// The conv's result read again after the Relu (a residual), written to a
// function argument, or with an op that writes memory in between: the
// Relu stays an op of its own.
// CHECK-LABEL: func.func @observable
// CHECK:         hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
// CHECK-NEXT:    hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
// CHECK-NEXT:    hip.miopen.add(%ctx) ins(%t, %u : memref<1x4x6x6xf32>, memref<1x4x6x6xf32>) outs(%y : memref<1x4x6x6xf32>)
// CHECK-NEXT:    hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%y, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
// CHECK-NEXT:    hip.miopen.relu(%ctx) ins(%y : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
// CHECK-NEXT:    hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
// CHECK-NEXT:    hip.copy(%ctx) ins(%x2 : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
// CHECK-NEXT:    hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
func.func @observable(%ctx: !hip.context, %x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %ws: memref<972xf32>, %x2: memref<1x4x6x6xf32>, %y: memref<1x4x6x6xf32>) {
  %t = memref.alloc() : memref<1x4x6x6xf32>
  %u = memref.alloc() : memref<1x4x6x6xf32>
  hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
  hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
  hip.miopen.add(%ctx) ins(%t, %u : memref<1x4x6x6xf32>, memref<1x4x6x6xf32>) outs(%y : memref<1x4x6x6xf32>)
  hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%y, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
  hip.miopen.relu(%ctx) ins(%y : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
  hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
  hip.copy(%ctx) ins(%x2 : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
  hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%u : memref<1x4x6x6xf32>)
  memref.dealloc %t : memref<1x4x6x6xf32>
  memref.dealloc %u : memref<1x4x6x6xf32>
  func.return
}

// A Relu in place (its out the conv's own) fuses too; then the version is
// freed.
// CHECK-LABEL: func.func @in_place
// CHECK-NEXT:    %t = memref.alloc()
// CHECK-NEXT:    hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64, relu}
// CHECK-NEXT:    hip.copy(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%y : memref<1x4x6x6xf32>)
// CHECK-NEXT:    memref.dealloc %t
func.func @in_place(%ctx: !hip.context, %x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %ws: memref<972xf32>, %y: memref<1x4x6x6xf32>) {
  %t = memref.alloc() : memref<1x4x6x6xf32>
  hip.miopen.conv(%ctx) ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%t, %ws : memref<1x4x6x6xf32>, memref<972xf32>) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, group = 1 : i64}
  hip.miopen.relu(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%t : memref<1x4x6x6xf32>)
  hip.copy(%ctx) ins(%t : memref<1x4x6x6xf32>) outs(%y : memref<1x4x6x6xf32>)
  memref.dealloc %t : memref<1x4x6x6xf32>
  func.return
}
