// RUN: xdsl-opt %s -p hip-lower-allocs --allow-unregistered-dialect | filecheck %s

// Static and dynamic allocs, any element type; the alignment goes (hip.alloc
// memory is 256-byte aligned); the context need not be argument 0.
func.func @static_and_dynamic(%n: index, %ctx: !hip.context) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?x16xf16>
  "test.use"(%a, %b) : (memref<4x8xf32>, memref<?x16xf16>) -> ()
  memref.dealloc %b : memref<?x16xf16>
  memref.dealloc %a : memref<4x8xf32>
  func.return
}

// CHECK-LABEL: func.func @static_and_dynamic(%n: index, %ctx: !hip.context) {
// CHECK-NEXT:    %a = hip.alloc(%ctx) : memref<4x8xf32>
// CHECK-NEXT:    %b = hip.alloc(%ctx, %n) : memref<?x16xf16>
// CHECK-NEXT:    "test.use"(%a, %b) : (memref<4x8xf32>, memref<?x16xf16>) -> ()
// CHECK-NEXT:    hip.free(%ctx, %b) : memref<?x16xf16>
// CHECK-NEXT:    hip.free(%ctx, %a) : memref<4x8xf32>
// CHECK-NEXT:    func.return

// Allocs in nested regions use the context of the function around them, and
// each function its own.
func.func @nested(%ctx: !hip.context, %c: i1) {
  scf.if %c {
    %a = memref.alloc() : memref<2xi8>
    memref.dealloc %a : memref<2xi8>
  }
  func.return
}

func.func @other(%ctx2: !hip.context) {
  %a = memref.alloc() : memref<2xi8>
  memref.dealloc %a : memref<2xi8>
  func.return
}

// CHECK-LABEL: func.func @nested(%ctx: !hip.context, %c: i1) {
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      %a = hip.alloc(%ctx) : memref<2xi8>
// CHECK-NEXT:      hip.free(%ctx, %a) : memref<2xi8>
// CHECK-NEXT:    }
// CHECK-LABEL: func.func @other(%ctx2: !hip.context) {
// CHECK-NEXT:    %a = hip.alloc(%ctx2) : memref<2xi8>
// CHECK-NEXT:    hip.free(%ctx2, %a) : memref<2xi8>

// A function without allocs needs no context.
func.func @no_allocs(%m: memref<2xi8>) {
  func.return
}

// CHECK-LABEL: func.func @no_allocs(%m: memref<2xi8>) {
// CHECK-NEXT:    func.return

// Dead code is not this pass's business: it stays.
func.func @dead(%ctx: !hip.context, %n: index) {
  %unused = arith.addi %n, %n : index
  %a = memref.alloc() : memref<2xi8>
  func.return
}

// CHECK-LABEL: func.func @dead(%ctx: !hip.context, %n: index) {
// CHECK-NEXT:    %unused = arith.addi %n, %n : index
// CHECK-NEXT:    %a = hip.alloc(%ctx) : memref<2xi8>
