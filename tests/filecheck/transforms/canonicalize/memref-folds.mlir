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

// A cast of a cast casts the source directly, printed in the custom form
// (xDSL's `CastOp.get` built xDSL's own class, which printed generically).
func.func @cast_of_cast(%x: memref<?xf32>) -> memref<4xf32> {
  %0 = memref.cast %x : memref<?xf32> to memref<4xf32, strided<[?], offset: ?>>
  %1 = memref.cast %0 : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
  func.return %1 : memref<4xf32>
}
// CHECK-LABEL: func.func @cast_of_cast(%x: memref<?xf32>) -> memref<4xf32> {
// CHECK-NEXT:    %{{.*}} = memref.cast %x : memref<?xf32> to memref<4xf32>
// CHECK-NEXT:    func.return

// A dim of an expand_shape is its output_shape operand (or constant); a dim of
// a collapse_shape is the product of its group's source dims, which fold too.
func.func @reshape_dims(%n: index, %m: index, %k: index) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc(%n, %m, %k) : memref<?x?x4x?xf32>
  %e = memref.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [%n, %m, 2, 2, %k] : memref<?x?x4x?xf32> into memref<?x?x2x2x?xf32>
  %d0 = memref.dim %e, %c1 : memref<?x?x2x2x?xf32>
  %d1 = memref.dim %e, %c2 : memref<?x?x2x2x?xf32>
  %c = memref.collapse_shape %a [[0, 1], [2, 3]] : memref<?x?x4x?xf32> into memref<?x?xf32>
  %d2 = memref.dim %c, %c0 : memref<?x?xf32>
  %d3 = memref.dim %c, %c1 : memref<?x?xf32>
  %one = memref.collapse_shape %a [[0], [1], [2, 3]] : memref<?x?x4x?xf32> into memref<?x?x?xf32>
  %d4 = memref.dim %one, %c1 : memref<?x?x?xf32>
  "test.use"(%e, %c, %one) : (memref<?x?x2x2x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) -> ()
  func.return %d0, %d1, %d2, %d3, %d4 : index, index, index, index, index
}
// CHECK-LABEL: func.func @reshape_dims
// CHECK-NOT:     memref.dim
// CHECK-DAG:     [[C2:%.*]] = arith.constant 2 : index
// CHECK-DAG:     [[C4:%.*]] = arith.constant 4 : index
// CHECK-DAG:     [[NM:%.*]] = arith.muli %n, %m : index
// CHECK-DAG:     [[K4:%.*]] = arith.muli %k, [[C4]] : index
// CHECK-NOT:     memref.dim
// CHECK:         func.return %m, [[C2]], [[NM]], [[K4]], %m : index, index, index, index, index
