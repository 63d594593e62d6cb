// RUN: xdsl-opt %s --allow-unregistered-dialect -p buffer-deallocation-simplification | filecheck %s

// A returned allocation is retained, so it is not freed; the other allocation
// cannot alias it, so its dealloc retains nothing.
func.func @returned(%c: i1) -> memref<2xf32> {
  %true = arith.constant true
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  "test.use"(%a, %b) : (memref<2xf32>, memref<2xf32>) -> ()
  %0 = bufferization.dealloc (%a, %b : memref<2xf32>, memref<2xf32>) if (%true, %c) retain (%a : memref<2xf32>)
  func.return %a : memref<2xf32>
}
// CHECK-LABEL: func.func @returned
// (The dead `arith.ori` and constants are left for canonicalize.)
// CHECK:         "test.use"(%a, %b)
// CHECK:         bufferization.dealloc (%b : memref<2xf32>) if (%c)
// CHECK-NOT:     bufferization.dealloc
// CHECK:         func.return %a : memref<2xf32>
