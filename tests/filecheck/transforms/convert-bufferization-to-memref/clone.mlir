// RUN: xdsl-opt %s -p convert-bufferization-to-memref | filecheck %s

// A clone is a fresh identity-layout buffer, sized like its source, filled by a
// copy; a clone of a strided memref is cast back to the strided type.
func.func @clones(%a: memref<?x4x?xf32>, %b: memref<2x?xf32, strided<[?, 1], offset: ?>>, %c: memref<3xi8>) -> (memref<?x4x?xf32>, memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<3xi8>) {
  %0 = bufferization.clone %a : memref<?x4x?xf32> to memref<?x4x?xf32>
  %1 = bufferization.clone %b : memref<2x?xf32, strided<[?, 1], offset: ?>> to memref<2x?xf32, strided<[?, 1], offset: ?>>
  %2 = bufferization.clone %c : memref<3xi8> to memref<3xi8>
  func.return %0, %1, %2 : memref<?x4x?xf32>, memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<3xi8>
}

// CHECK-LABEL: func.func @clones(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?x4x?xf32>
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %[[D2:.+]] = memref.dim %a, %c2 : memref<?x4x?xf32>
// CHECK-NEXT:    %alloc = memref.alloc(%dim, %[[D2]]) : memref<?x4x?xf32>
// CHECK-NEXT:    "memref.copy"(%a, %alloc) : (memref<?x4x?xf32>, memref<?x4x?xf32>) -> ()
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[D1:.+]] = memref.dim %b, %c1 : memref<2x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:    %[[B:.+]] = memref.alloc(%[[D1]]) : memref<2x?xf32>
// CHECK-NEXT:    %cast = memref.cast %[[B]] : memref<2x?xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:    "memref.copy"(%b, %cast) : (memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<2x?xf32, strided<[?, 1], offset: ?>>) -> ()
// CHECK-NEXT:    %[[C:.+]] = memref.alloc() : memref<3xi8>
// CHECK-NEXT:    "memref.copy"(%c, %[[C]]) : (memref<3xi8>, memref<3xi8>) -> ()
// CHECK-NEXT:    func.return %alloc, %cast, %[[C]] : memref<?x4x?xf32>, memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<3xi8>

// A dealloc left over is lowered as bufferization-lower-deallocations does.
func.func @dealloc(%a: memref<4xf32>, %c: i1) {
  bufferization.dealloc (%a : memref<4xf32>) if (%c)
  func.return
}

// CHECK-LABEL: func.func @dealloc(
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      memref.dealloc %a : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
