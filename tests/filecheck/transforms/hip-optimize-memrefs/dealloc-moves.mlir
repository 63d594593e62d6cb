// RUN: xdsl-opt -p hip-optimize-memrefs %s | filecheck %s

// The taken buffer was freed right after its last use; that dealloc would now
// come before the new last use, so it goes, and the taker's dealloc (after the
// new last use) frees the buffer instead. i32 buffers, static shapes.

func.func @early_free(%ctx: !hip.context, %x: memref<8x128xi32>, %out: memref<8x128xi32>) {
  %a = memref.alloc() : memref<8x128xi32>
  hip.miopen.relu(%ctx) ins(%x : memref<8x128xi32>) outs(%a : memref<8x128xi32>)
  %b = memref.alloc() : memref<8x128xi32>
  hip.miopen.relu(%ctx) ins(%a : memref<8x128xi32>) outs(%b : memref<8x128xi32>)
  memref.dealloc %a : memref<8x128xi32>
  %c = memref.alloc() : memref<8x128xi32>
  hip.miopen.relu(%ctx) ins(%b : memref<8x128xi32>) outs(%c : memref<8x128xi32>)
  memref.dealloc %b : memref<8x128xi32>
  hip.miopen.relu(%ctx) ins(%c : memref<8x128xi32>) outs(%out : memref<8x128xi32>)
  memref.dealloc %c : memref<8x128xi32>
  func.return
}

// CHECK-LABEL: func.func @early_free(
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<8x128xi32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%{{.*}} : memref<8x128xi32>) outs(%[[A]] : memref<8x128xi32>)
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<8x128xi32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[A]] : memref<8x128xi32>) outs(%[[B]] : memref<8x128xi32>)
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[B]] : memref<8x128xi32>) outs(%[[A]] : memref<8x128xi32>)
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<8x128xi32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[A]] : memref<8x128xi32>) outs(%{{.*}} : memref<8x128xi32>)
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<8x128xi32>
// CHECK-NEXT:    func.return
