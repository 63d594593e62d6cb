// RUN: xdsl-opt %s --verify-diagnostics -p buffer-results-to-out-params | filecheck %s

// A caller cannot allocate an out parameter whose shape it does not know.

func.func private @callee(%x: memref<?xf32>) -> memref<?xf32>

func.func @caller(%x: memref<?xf32>) -> memref<?xf32> {
  %r = func.call @callee(%x) : (memref<?xf32>) -> memref<?xf32>
  func.return %r : memref<?xf32>
}

// CHECK: buffer-results-to-out-params: call to @callee cannot allocate result 0 of type memref<?xf32>: only static shapes with the identity layout can be allocated
