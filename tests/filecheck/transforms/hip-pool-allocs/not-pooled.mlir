// RUN: xdsl-opt -p hip-pool-allocs --split-input-file %s | filecheck %s

// A returned alloc outlives the pool and stays; so does an alloc whose size is
// only known after the first alloc (read from memory: the pool could not be
// sized there), and one with a non-identity layout (not a valid `memref.view`
// result).

func.func @left_out(%ctx: !hip.context, %x: memref<?x128xf32>, %sizes: memref<1xindex>) -> memref<?x128xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x128xf32>
  %a = memref.alloc(%n) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x128xf32>) outs(%a : memref<?x128xf32>)
  %m = memref.load %sizes[%c0] : memref<1xindex>
  %late = memref.alloc(%m) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x128xf32>) outs(%late : memref<?x128xf32>)
  %s = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  %r = memref.alloc(%n) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<?x128xf32>) outs(%r : memref<?x128xf32>)
  memref.dealloc %a : memref<?x128xf32>
  memref.dealloc %late : memref<?x128xf32>
  memref.dealloc %s : memref<4x4xf32, strided<[8, 1]>>
  func.return %r : memref<?x128xf32>
}

// CHECK-LABEL: func.func @left_out(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64]}
// CHECK:         %[[POOL:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[POOL]][%c0][%n] : memref<?xi8> to memref<?x128xf32>
// CHECK:         %[[LATE:.*]] = memref.alloc(%m) : memref<?x128xf32>
// CHECK:         %[[S:.*]] = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc(%n) : memref<?x128xf32>
// CHECK-NEXT:    hip.miopen.relu(%ctx) ins(%[[A]] : memref<?x128xf32>) outs(%[[R]] : memref<?x128xf32>)
// CHECK-NEXT:    memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    memref.dealloc %[[LATE]] : memref<?x128xf32>
// CHECK-NEXT:    memref.dealloc %[[S]] : memref<4x4xf32, strided<[8, 1]>>
// CHECK-NEXT:    func.return %[[R]] : memref<?x128xf32>

// -----

// No allocs: nothing changes, and no offsets are stamped.

func.func @none(%ctx: !hip.context, %x: memref<4xf32>, %out: memref<4xf32>) {
  hip.miopen.relu(%ctx) ins(%x : memref<4xf32>) outs(%out : memref<4xf32>)
  func.return
}

// CHECK-LABEL: func.func @none(%ctx: !hip.context, %x: memref<4xf32>, %out: memref<4xf32>) {
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    func.return
