// RUN: xdsl-opt -p hip-optimize-memrefs --split-input-file %s | filecheck %s

// An op's own input is never its output, even when the input dies there.

func.func @own_input(%ctx: !hip.context, %x: memref<4x128xf32>, %out: memref<4x128xf32>) {
  %a = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x128xf32>) outs(%a : memref<4x128xf32>)
  %b = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<4x128xf32>) outs(%b : memref<4x128xf32>)
  hip.miopen.relu(%ctx) ins(%b : memref<4x128xf32>) outs(%out : memref<4x128xf32>)
  memref.dealloc %a : memref<4x128xf32>
  memref.dealloc %b : memref<4x128xf32>
  func.return
}

// CHECK-LABEL: func.func @own_input(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[A]] : memref<4x128xf32>) outs(%[[B]] : memref<4x128xf32>)

// -----

// A buffer still read later is not dead.

func.func @still_live(%ctx: !hip.context, %x: memref<4x128xf32>, %out: memref<4x128xf32>) {
  %a = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x128xf32>) outs(%a : memref<4x128xf32>)
  %b = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x128xf32>) outs(%b : memref<4x128xf32>)
  hip.miopen.add(%ctx) ins(%a, %b : memref<4x128xf32>, memref<4x128xf32>) outs(%out : memref<4x128xf32>)
  memref.dealloc %a : memref<4x128xf32>
  memref.dealloc %b : memref<4x128xf32>
  func.return
}

// CHECK-LABEL: func.func @still_live(
// CHECK-COUNT-2: memref.alloc()
// CHECK-COUNT-2: memref.dealloc

// -----

// Same type but other size operands, or other element type: no reuse.

func.func @other_sizes(%ctx: !hip.context, %x: memref<?x128xf32>, %y: memref<?x128xf32>, %h: memref<?x128xf16>, %out: memref<?x128xf16>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x128xf32>
  %m = memref.dim %y, %c0 : memref<?x128xf32>
  %a = memref.alloc(%n) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x128xf32>) outs(%a : memref<?x128xf32>)
  hip.miopen.relu(%ctx) ins(%a : memref<?x128xf32>) outs(%x : memref<?x128xf32>)
  %b = memref.alloc(%m) : memref<?x128xf32>
  hip.miopen.relu(%ctx) ins(%y : memref<?x128xf32>) outs(%b : memref<?x128xf32>)
  hip.miopen.relu(%ctx) ins(%b : memref<?x128xf32>) outs(%y : memref<?x128xf32>)
  %c = memref.alloc(%n) : memref<?x128xf16>
  hip.miopen.relu(%ctx) ins(%h : memref<?x128xf16>) outs(%c : memref<?x128xf16>)
  hip.miopen.relu(%ctx) ins(%c : memref<?x128xf16>) outs(%out : memref<?x128xf16>)
  memref.dealloc %a : memref<?x128xf32>
  memref.dealloc %b : memref<?x128xf32>
  memref.dealloc %c : memref<?x128xf16>
  func.return
}

// CHECK-LABEL: func.func @other_sizes(
// CHECK-COUNT-3: memref.alloc(
// CHECK-COUNT-3: memref.dealloc

// -----

// Arguments, out-params and globals are never taken, and a buffer that is
// returned is neither taken nor given.

memref.global "private" constant @g : memref<4x128xf32> = dense<1.0>

func.func @not_local(%ctx: !hip.context, %x: memref<4x128xf32>, %out: memref<4x128xf32>) -> memref<4x128xf32> {
  %g = memref.get_global @g : memref<4x128xf32>
  hip.miopen.add(%ctx) ins(%x, %g : memref<4x128xf32>, memref<4x128xf32>) outs(%out : memref<4x128xf32>)
  %r = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%out : memref<4x128xf32>) outs(%r : memref<4x128xf32>)
  %a = memref.alloc() : memref<4x128xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x128xf32>) outs(%a : memref<4x128xf32>)
  memref.dealloc %a : memref<4x128xf32>
  func.return %r : memref<4x128xf32>
}

// CHECK-LABEL: func.func @not_local(
// CHECK:         %[[R:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%{{.*}} : memref<4x128xf32>) outs(%[[R]] : memref<4x128xf32>)
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%{{.*}} : memref<4x128xf32>) outs(%[[A]] : memref<4x128xf32>)
