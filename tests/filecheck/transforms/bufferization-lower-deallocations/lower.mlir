// RUN: xdsl-opt %s -p bufferization-lower-deallocations | filecheck %s

// One memref, nothing retained: free it under its condition.
func.func @one(%m: memref<2xf32>, %c: i1) {
  bufferization.dealloc (%m : memref<2xf32>) if (%c)
  func.return
}
// CHECK-LABEL: func.func @one
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      memref.dealloc %m : memref<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// With retained memrefs, free it only if it is none of them (compared by
// pointer); each result says whether ownership passed to that retained memref.
func.func @retained(%m: memref<2xf32>, %r0: memref<2xf32>, %r1: memref<?xf32>, %c: i1) -> (i1, i1) {
  %0:2 = bufferization.dealloc (%m : memref<2xf32>) if (%c) retain (%r0, %r1 : memref<2xf32>, memref<?xf32>)
  func.return %0#0, %0#1 : i1, i1
}
// CHECK-LABEL: func.func @retained
// CHECK-NEXT:    %intptr = "memref.extract_aligned_pointer_as_index"(%m) : (memref<2xf32>) -> index
// CHECK-NEXT:    %intptr_1 = "memref.extract_aligned_pointer_as_index"(%r0) : (memref<2xf32>) -> index
// CHECK-NEXT:    [[NE0:%.*]] = arith.cmpi ne, %intptr, %intptr_1 : index
// CHECK-NEXT:    %intptr_2 = "memref.extract_aligned_pointer_as_index"(%r1) : (memref<?xf32>) -> index
// CHECK-NEXT:    [[NE1:%.*]] = arith.cmpi ne, %intptr, %intptr_2 : index
// CHECK-NEXT:    [[BOTH:%.*]] = arith.andi [[NE0]], [[NE1]] : i1
// CHECK-NEXT:    [[FREE:%.*]] = arith.andi [[BOTH]], %c : i1
// CHECK-NEXT:    scf.if [[FREE]] {
// CHECK-NEXT:      memref.dealloc %m : memref<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    [[S0:%.*]] = arith.xori [[NE0]], %true : i1
// CHECK-NEXT:    [[O0:%.*]] = arith.andi [[S0]], %c : i1
// CHECK-NEXT:    [[S1:%.*]] = arith.xori [[NE1]], %true : i1
// CHECK-NEXT:    [[O1:%.*]] = arith.andi [[S1]], %c : i1
// CHECK-NEXT:    func.return [[O0]], [[O1]] : i1, i1

// Nothing to free: every result is false.
func.func @empty(%r: memref<2xf32>) -> i1 {
  %0 = bufferization.dealloc retain (%r : memref<2xf32>)
  func.return %0 : i1
}
// CHECK-LABEL: func.func @empty
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    func.return %false : i1
