// RUN: xdsl-opt %s --allow-unregistered-dialect -p buffer-deallocation-simplification | filecheck %s

// Allocations never alias each other nor function arguments: each gets its
// own dealloc. Arguments may alias each other and stay together.
func.func @split(%x: memref<2xf32>, %y: memref<2xf32>, %c: i1, %d: i1) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  "test.use"(%a, %b) : (memref<2xf32>, memref<2xf32>) -> ()
  bufferization.dealloc (%x, %a, %y, %b : memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>) if (%c, %d, %c, %d)
  func.return
}
// CHECK-LABEL: func.func @split
// CHECK:         bufferization.dealloc (%a : memref<2xf32>) if (%d)
// CHECK-NEXT:    bufferization.dealloc (%b : memref<2xf32>) if (%d)
// CHECK-NEXT:    bufferization.dealloc (%x, %y : memref<2xf32>, memref<2xf32>) if (%c, %c)
// CHECK-NEXT:    func.return

// A memref that may alias an unknown buffer cannot be split off.
func.func @unknown(%c: i1) {
  %a = memref.alloc() : memref<2xf32>
  %u = "test.make"() : () -> memref<2xf32>
  "test.use"(%a) : (memref<2xf32>) -> ()
  bufferization.dealloc (%a, %u : memref<2xf32>, memref<2xf32>) if (%c, %c)
  func.return
}
// CHECK-LABEL: func.func @unknown
// CHECK:         bufferization.dealloc (%a, %u : memref<2xf32>, memref<2xf32>) if (%c, %c)
// CHECK-NEXT:    func.return
