// RUN: xdsl-opt %s --allow-unregistered-dialect -p canonicalize | filecheck %s

// A dim of an alloc (or a view) is its size operand; of a static dim, a
// constant; of a cast, the dim of the cast's source.
func.func @dims(%n: index, %m: index, %x: memref<?x?xf32>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n, %m) : memref<?x4x?xf32>
  %d0 = memref.dim %a, %c0 : memref<?x4x?xf32>
  %d1 = memref.dim %a, %c1 : memref<?x4x?xf32>
  %c2 = arith.constant 2 : index
  %d2 = memref.dim %a, %c2 : memref<?x4x?xf32>
  %cast = memref.cast %x : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %d3 = memref.dim %cast, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  "test.use"(%a) : (memref<?x4x?xf32>) -> ()
  func.return %d0, %d1, %d2, %d3 : index, index, index, index
}
// CHECK-LABEL: func.func @dims
// CHECK:         [[C4:%.*]] = arith.constant 4 : index
// CHECK:         [[D3:%.*]] = memref.dim %x, %c1 : memref<?x?xf32>
// CHECK-NOT:     memref.cast
// CHECK:         func.return %n, [[C4]], %m, [[D3]] : index, index, index, index

// A cast to its own type is its source; casts that nobody uses disappear.
func.func @casts(%x: memref<4xf32>) -> memref<4xf32> {
  %0 = memref.cast %x : memref<4xf32> to memref<4xf32>
  %1 = memref.cast %x : memref<4xf32> to memref<?xf32>
  func.return %0 : memref<4xf32>
}
// CHECK-LABEL: func.func @casts(%x: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT:    func.return %x : memref<4xf32>
