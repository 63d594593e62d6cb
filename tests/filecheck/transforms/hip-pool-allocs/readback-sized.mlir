// RUN: xdsl-opt -p hip-pool-allocs %s | filecheck %s

// Buffers sized by a value read back (NonZero's count) cannot be in the pool
// made at the first alloc, before the readback: a function that reads back
// gets one more pool at the first alloc left out, sized by the count, and its
// static offsets follow the first pool's in hipdnn.buffer_offsets.

func.func @read_back(%ctx: !hip.context, %x: memref<3x4xf32>, %out: memref<f32>) {
  %count = memref.alloc() : memref<i64>
  hip.count_nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%count : memref<i64>)
  %n = hip.readback(%ctx) %count : memref<i64> -> index
  %rows = memref.alloc(%n) : memref<2x?xi64>
  hip.nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%rows : memref<2x?xi64>)
  %f = memref.alloc(%n) : memref<2x?xf32>
  hip.cast(%ctx) ins(%rows : memref<2x?xi64>) outs(%f : memref<2x?xf32>)
  hip.miopen.reduce_sum(%ctx) ins(%f : memref<2x?xf32>) outs(%out : memref<f32>) {axes = array<i64: 0, 1>}
  memref.dealloc %count : memref<i64>
  memref.dealloc %rows : memref<2x?xi64>
  memref.dealloc %f : memref<2x?xf32>
  func.return
}

// CHECK:      func.func @read_back(%ctx: !hip.context, %x: memref<3x4xf32>, %out: memref<f32>) attributes {hipdnn.buffer_offsets = [0 : i64, 0 : i64, -1 : i64]} {
// CHECK-NEXT:   %c256 = arith.constant 256 : index
// CHECK-NEXT:   %alloc = memref.alloc(%c256) : memref<?xi8>
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %view = memref.view %alloc[%c0][] : memref<?xi8> to memref<i64>
// CHECK-NEXT:   hip.count_nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%view : memref<i64>)
// CHECK-NEXT:   %n = hip.readback(%ctx) %view : memref<i64> -> index
// CHECK-NEXT:   %c16 = arith.constant 16 : index
// CHECK-NEXT:   %0 = arith.muli %n, %c16 : index
// CHECK-NEXT:   %c255 = arith.constant 255 : index
// CHECK-NEXT:   %1 = arith.addi %0, %c255 : index
// CHECK-NEXT:   %2 = arith.divui %1, %c256 : index
// CHECK-NEXT:   %3 = arith.muli %2, %c256 : index
// CHECK-NEXT:   %c8 = arith.constant 8 : index
// CHECK-NEXT:   %4 = arith.muli %n, %c8 : index
// CHECK-NEXT:   %5 = arith.addi %4, %c255 : index
// CHECK-NEXT:   %6 = arith.divui %5, %c256 : index
// CHECK-NEXT:   %7 = arith.muli %6, %c256 : index
// CHECK-NEXT:   %8 = arith.addi %3, %7 : index
// CHECK-NEXT:   %alloc_1 = memref.alloc(%8) : memref<?xi8>
// CHECK-NEXT:   %view_1 = memref.view %alloc_1[%c0][%n] : memref<?xi8> to memref<2x?xi64>
// CHECK-NEXT:   hip.nonzero(%ctx) ins(%x : memref<3x4xf32>) outs(%view_1 : memref<2x?xi64>)
// CHECK-NEXT:   %view_2 = memref.view %alloc_1[%3][%n] : memref<?xi8> to memref<2x?xf32>
// CHECK-NEXT:   hip.cast(%ctx) ins(%view_1 : memref<2x?xi64>) outs(%view_2 : memref<2x?xf32>)
// CHECK-NEXT:   hip.miopen.reduce_sum(%ctx) ins(%view_2 : memref<2x?xf32>) outs(%out : memref<f32>) {axes = array<i64: 0, 1>}
// CHECK-NEXT:   memref.dealloc %alloc : memref<?xi8>
// CHECK-NEXT:   memref.dealloc %alloc_1 : memref<?xi8>
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
