// RUN: xdsl-opt %s --allow-unregistered-dialect -p buffer-results-to-out-params | filecheck %s

// A call to a rewritten function allocates each out parameter and uses it where
// the result was used.

func.func private @callee(%x: memref<4xf32>) -> (memref<4xf32>, index)

func.func @caller(%x: memref<4xf32>) -> index {
  %r:2 = func.call @callee(%x) : (memref<4xf32>) -> (memref<4xf32>, index)
  "test.use"(%r#0) : (memref<4xf32>) -> ()
  func.return %r#1 : index
}

// CHECK:      func.func private @callee(memref<4xf32>, memref<4xf32>) -> index
// CHECK:      func.func @caller(%x: memref<4xf32>) -> index {
// CHECK-NEXT:   %r = memref.alloc() : memref<4xf32>
// CHECK-NEXT:   %r_1 = func.call @callee(%x, %r) : (memref<4xf32>, memref<4xf32>) -> index
// CHECK-NEXT:   "test.use"(%r) : (memref<4xf32>) -> ()
// CHECK-NEXT:   func.return %r_1 : index
