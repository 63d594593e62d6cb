// RUN: xdsl-opt -p 'hip-pool-allocs{strategy=reuse}' --split-input-file %s | filecheck %s

// With `strategy=reuse`, buffers whose lifetimes do not overlap share bytes.
// %a..%d are 8 KiB each; %a and %b are live together (op 3 reads %a, writes
// %b), %c is not live with %a so it takes %a's slot, %d takes %b's. %e (1 KiB)
// fits in the free 8 KiB slot of %c; %f (16 KiB) is live with %e, and grows
// the free slot of %d to 16 KiB. Slots: [%a %c %e] 8 KiB, [%b %d %f] 16 KiB.

func.func @chain(%ctx: !hip.context, %x: memref<16x128xf32>, %w1: memref<128x16xf32>, %w2: memref<16x256xf32>, %out: memref<16x256xf32>) {
  %a = memref.alloc() : memref<16x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<16x128xf32>) outs(%a : memref<16x128xf32>)
  %b = memref.alloc() : memref<16x128xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<16x128xf32>) outs(%b : memref<16x128xf32>)
  %c = memref.alloc() : memref<16x128xf32>
  hip.miopen.relu(%ctx) ins(%b : memref<16x128xf32>) outs(%c : memref<16x128xf32>)
  %d = memref.alloc() : memref<16x128xf32>
  hip.miopen.relu(%ctx) ins(%c : memref<16x128xf32>) outs(%d : memref<16x128xf32>)
  %e = memref.alloc() : memref<16x16xf32>
  hip.hipblaslt.matmul(%ctx) ins(%d, %w1 : memref<16x128xf32>, memref<128x16xf32>) outs(%e : memref<16x16xf32>)
  %f = memref.alloc() : memref<16x256xf32>
  hip.hipblaslt.matmul(%ctx) ins(%e, %w2 : memref<16x16xf32>, memref<16x256xf32>) outs(%f : memref<16x256xf32>)
  hip.miopen.relu(%ctx) ins(%f : memref<16x256xf32>) outs(%out : memref<16x256xf32>)
  memref.dealloc %a : memref<16x128xf32>
  memref.dealloc %b : memref<16x128xf32>
  memref.dealloc %c : memref<16x128xf32>
  memref.dealloc %d : memref<16x128xf32>
  memref.dealloc %e : memref<16x16xf32>
  memref.dealloc %f : memref<16x256xf32>
  func.return
}

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, 8192 : i64, 0 : i64, 8192 : i64, 0 : i64, 8192 : i64]}
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 24576 : index
// CHECK-NEXT:    memref.alloc(%[[SIZE]]) : memref<?xi8>

// -----

// Symbolic sizes share only when they are provably equal or ordered: the two
// b*s*128 f32 buffers with disjoint lifetimes share, the b*s*s one does not
// (neither b*s*512 >= b*s*s*4 nor the converse holds for all b, s).

func.func @dynamic(%ctx: !hip.context, %x: memref<?x?x128xf32>, %out: memref<?x?x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = memref.dim %x, %c0 : memref<?x?x128xf32>
  %s = memref.dim %x, %c1 : memref<?x?x128xf32>
  %p = memref.alloc(%b, %s) : memref<?x?x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x?x128xf32>) outs(%p : memref<?x?x128xf32>)
  %t = memref.alloc(%b, %s) : memref<?x128x?xf32>
  hip.transpose(%ctx, %c1, %c2) ins(%p : memref<?x?x128xf32>) outs(%t : memref<?x128x?xf32>)
  %sc = memref.alloc(%b, %s, %s) : memref<?x?x?xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %t : memref<?x?x128xf32>, memref<?x128x?xf32>) outs(%sc : memref<?x?x?xf32>)
  %q = memref.alloc(%b, %s) : memref<?x?x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%sc, %x : memref<?x?x?xf32>, memref<?x?x128xf32>) outs(%q : memref<?x?x128xf32>)
  hip.miopen.relu(%ctx) ins(%q : memref<?x?x128xf32>) outs(%out : memref<?x?x128xf32>)
  memref.dealloc %p : memref<?x?x128xf32>
  memref.dealloc %t : memref<?x128x?xf32>
  memref.dealloc %sc : memref<?x?x?xf32>
  memref.dealloc %q : memref<?x?x128xf32>
  func.return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, 0 : i64]}
