// RUN: xdsl-opt %s -p buffer-results-to-out-params | filecheck %s

// Each memref result becomes a trailing `bufferize.result` argument with the
// result's attributes (sorted, as MLIR keeps them); other results stay. A
// returned alloc, static or dynamic, is replaced by its argument; an alloc
// returned twice is written once and copied into the second argument.
func.func @several(%ctx: !hip.context, %x: memref<?x4xf32>, %n: index) -> (memref<?x4xf32> {onnx.name = "A"}, index, memref<2xf32> {onnx.name = "B"}, memref<?x4xf32> {onnx.name = "C"}) {
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x4xf32>) outs(%a : memref<?x4xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
  func.return %a, %n, %b, %a : memref<?x4xf32>, index, memref<2xf32>, memref<?x4xf32>
}
// CHECK:      func.func @several(%ctx: !hip.context, %x: memref<?x4xf32>, %n: index, %arg3: memref<?x4xf32> {bufferize.result, onnx.name = "A"}, %arg4: memref<2xf32> {bufferize.result, onnx.name = "B"}, %arg5: memref<?x4xf32> {bufferize.result, onnx.name = "C"}) -> index {
// CHECK-NEXT:   hip.miopen.relu(%ctx) ins(%x : memref<?x4xf32>) outs(%arg3 : memref<?x4xf32>)
// CHECK-NEXT:   hip.copy(%ctx) ins(%arg3 : memref<?x4xf32>) outs(%arg5 : memref<?x4xf32>)
// CHECK-NEXT:   func.return %n : index

// A returned argument or global is copied: hip.copy with a context,
// memref.copy without.
func.func @argument(%ctx: !hip.context, %x: memref<4xf32>) -> memref<4xf32> {
  func.return %x : memref<4xf32>
}
// CHECK:      func.func @argument(%ctx: !hip.context, %x: memref<4xf32>, %arg2: memref<4xf32> {bufferize.result}) {
// CHECK-NEXT:   hip.copy(%ctx) ins(%x : memref<4xf32>) outs(%arg2 : memref<4xf32>)
// CHECK-NEXT:   func.return

memref.global "private" constant @c : memref<4xf32> = dense<1.0>
func.func @global() -> memref<4xf32> {
  %g = memref.get_global @c : memref<4xf32>
  func.return %g : memref<4xf32>
}
// CHECK:      func.func @global(%arg0: memref<4xf32> {bufferize.result}) {
// CHECK-NEXT:   %g = memref.get_global @c : memref<4xf32>
// CHECK-NEXT:   "memref.copy"(%g, %arg0) : (memref<4xf32>, memref<4xf32>) -> ()

// An alloc returned through a cast is replaced by the argument cast back to the
// alloc's type: the producer still writes the argument.
func.func @through_cast(%ctx: !hip.context, %x: memref<4x4xf32>) -> memref<?x?xf32> {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  %c = memref.cast %a : memref<4x4xf32> to memref<?x?xf32>
  func.return %c : memref<?x?xf32>
}
// CHECK:      func.func @through_cast(%ctx: !hip.context, %x: memref<4x4xf32>, %arg2: memref<?x?xf32> {bufferize.result}) {
// CHECK-NEXT:   %cast = memref.cast %arg2 : memref<?x?xf32> to memref<4x4xf32>
// CHECK-NEXT:   hip.miopen.relu(%ctx) ins(%x : memref<4x4xf32>) outs(%cast : memref<4x4xf32>)
// CHECK-NEXT:   %c = memref.cast %cast : memref<4x4xf32> to memref<?x?xf32>
// CHECK-NEXT:   func.return

// A returned reshape view of an alloc: the alloc becomes the inverse view of
// the argument, so the producer writes the argument without a copy.
func.func @through_view(%ctx: !hip.context, %x: memref<?x4x8xf32>, %n: index) -> memref<?x32xf32> {
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4x8xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<?x4x8xf32>) outs(%a : memref<?x4x8xf32>)
  %v = memref.collapse_shape %a [[0], [1, 2]] : memref<?x4x8xf32> into memref<?x32xf32>
  func.return %v : memref<?x32xf32>
}
// CHECK:      func.func @through_view(%ctx: !hip.context, %x: memref<?x4x8xf32>, %n: index, %arg3: memref<?x32xf32> {bufferize.result}) {
// CHECK-NEXT:   %expand_shape = memref.expand_shape %arg3 {{\[\[}}0 : i64], [1 : i64, 2 : i64]] output_shape [%n, 4, 8] : memref<?x32xf32> into memref<?x4x8xf32>
// CHECK-NEXT:   hip.miopen.relu(%ctx) ins(%x : memref<?x4x8xf32>) outs(%expand_shape : memref<?x4x8xf32>)
// CHECK-NEXT:   %v = memref.collapse_shape %expand_shape {{\[\[}}0 : i64], [1 : i64, 2 : i64]] : memref<?x4x8xf32> into memref<?x32xf32>
// CHECK-NEXT:   func.return
