// RUN: xdsl-opt %s -p hip-lower-allocs --split-input-file --verify-diagnostics | filecheck %s

func.func @no_ctx(%n: index) {
  %a = memref.alloc(%n) : memref<?xi8>
  memref.dealloc %a : memref<?xi8>
  func.return
}

// CHECK: hip-lower-allocs: function @no_ctx has a 'memref.alloc' but no !hip.context argument to allocate on (run hip-add-context-arg first)

// -----

func.func @free_only(%m: memref<4xi8>) {
  memref.dealloc %m : memref<4xi8>
  func.return
}

// CHECK: hip-lower-allocs: function @free_only has a 'memref.dealloc' but no !hip.context argument

// -----

func.func @over_aligned(%ctx: !hip.context) {
  %a = memref.alloc() {alignment = 512 : i64} : memref<4xi8>
  func.return
}

// CHECK: hip-lower-allocs: alignment 512 exceeds the 256 bytes hip.alloc guarantees
