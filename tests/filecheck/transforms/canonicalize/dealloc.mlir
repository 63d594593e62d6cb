// RUN: xdsl-opt %s --allow-unregistered-dialect -p canonicalize --split-input-file | filecheck %s

// The dealloc of an allocation names the allocation, not its base buffer;
// memrefs under `false` go; duplicates are freed once under the disjunction.
func.func @simplify(%c: i1, %d: i1, %arg: memref<2xf32>) {
  %false = arith.constant false
  %a = memref.alloc() : memref<2x3xf32>
  "test.use"(%a) : (memref<2x3xf32>) -> ()
  %b = memref.alloc() : memref<4xf32>
  "test.use"(%b) : (memref<4xf32>) -> ()
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<2x3xf32> -> memref<f32>, index, index, index, index, index
  bufferization.dealloc (%base, %arg, %b, %b : memref<f32>, memref<2xf32>, memref<4xf32>, memref<4xf32>) if (%c, %false, %c, %d)
  func.return
}
// CHECK-LABEL: func.func @simplify
// CHECK-NOT:     memref.extract_strided_metadata
// CHECK:         [[OR:%.*]] = arith.ori %c, %d : i1
// CHECK-NEXT:    bufferization.dealloc (%a, %b : memref<2x3xf32>, memref<4xf32>) if (%c, [[OR]])
// CHECK-NEXT:    func.return

// -----

// Freeing nothing hands on no ownership; an allocation used only by its
// dealloc is not needed at all.
func.func @erase(%c: i1, %r: memref<2xf32>) -> i1 {
  %false = arith.constant false
  %a = memref.alloc() : memref<2xf32>
  %0 = bufferization.dealloc (%r : memref<2xf32>) if (%false) retain (%r : memref<2xf32>)
  bufferization.dealloc (%a : memref<2xf32>) if (%c)
  func.return %0 : i1
}
// CHECK-LABEL: func.func @erase
// CHECK-NEXT:    [[F:%.*]] = arith.constant false
// CHECK-NEXT:    func.return [[F]] : i1

// -----

// A memref retained twice is retained once; both results are the one result.
func.func @retained(%c: i1, %m: memref<2xf32>, %r: memref<2xf32>) -> (i1, i1) {
  %0:2 = bufferization.dealloc (%m : memref<2xf32>) if (%c) retain (%r, %r : memref<2xf32>, memref<2xf32>)
  func.return %0#0, %0#1 : i1, i1
}
// CHECK-LABEL: func.func @retained
// CHECK-NEXT:    [[R:%.*]] = bufferization.dealloc (%m : memref<2xf32>) if (%c) retain (%r : memref<2xf32>)
// CHECK-NEXT:    func.return [[R]], [[R]] : i1, i1
