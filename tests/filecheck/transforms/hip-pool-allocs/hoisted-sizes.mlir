// RUN: xdsl-opt -p hip-pool-allocs --split-input-file %s | filecheck %s

// A size computed after the first alloc from values known before it (here the
// rows of a reshaped buffer) is computed before the pool instead, operands
// first, so its alloc joins the pool.

func.func @hoisted(%ctx: !hip.context, %x: memref<?x?x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?x6xf32>
  %m = memref.dim %x, %c1 : memref<?x?x6xf32>
  %a = memref.alloc(%n, %m) : memref<?x?x6xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x?x6xf32>) outs(%a : memref<?x?x6xf32>)
  %nm = arith.muli %n, %m : index
  %c6 = arith.constant 6 : index
  %elements = arith.muli %nm, %c6 : index
  %c4 = arith.constant 4 : index
  %rows = arith.divui %elements, %c4 : index
  %b = memref.alloc(%rows) : memref<?x4xf32>
  %flat = memref.collapse_shape %a [[0, 1, 2]] : memref<?x?x6xf32> into memref<?xf32>
  %a4 = memref.expand_shape %flat [[0, 1]] output_shape [%rows, 4] : memref<?xf32> into memref<?x4xf32>
  hip.miopen.relu(%ctx) ins(%a4 : memref<?x4xf32>) outs(%b : memref<?x4xf32>)
  memref.dealloc %a : memref<?x?x6xf32>
  memref.dealloc %b : memref<?x4xf32>
  func.return
}

// CHECK-LABEL: func.func @hoisted(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64]}
// CHECK:         %m = memref.dim %x, %c1
// CHECK-NEXT:    %nm = arith.muli %n, %m : index
// CHECK-NEXT:    %c6 = arith.constant 6 : index
// CHECK-NEXT:    %elements = arith.muli %nm, %c6 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %rows = arith.divui %elements, %c4 : index
// CHECK:         %[[POOL:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK-NEXT:    memref.view %[[POOL]][%c0][%n, %m] : memref<?xi8> to memref<?x?x6xf32>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    memref.view %[[POOL]][%{{.*}}][%rows] : memref<?xi8> to memref<?x4xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    func.return

// -----

// A size that needs a value only known later (read from memory) stays where it
// is, and nothing it uses moves either.

func.func @not_hoisted(%ctx: !hip.context, %x: memref<?xf32>, %extra: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?xf32>) outs(%a : memref<?xf32>)
  %twice = arith.addi %n, %n : index
  %k = memref.load %extra[%c0] : memref<1xindex>
  %size = arith.addi %twice, %k : index
  %b = memref.alloc(%size) : memref<?xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  func.return
}

// CHECK-LABEL: func.func @not_hoisted(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64]}
// CHECK:         memref.view
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    %twice = arith.addi %n, %n : index
// CHECK-NEXT:    %k = memref.load
// CHECK-NEXT:    %size = arith.addi %twice, %k : index
// CHECK-NEXT:    %b = memref.alloc(%size) : memref<?xf32>
