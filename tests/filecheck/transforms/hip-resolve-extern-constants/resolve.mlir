// RUN: xdsl-opt %s -p hip-resolve-extern-constants --split-input-file --allow-unregistered-dialect | filecheck %s

// Every function gets the blob; each read of an external global becomes a view
// at the global's offset, in place (also inside regions, and once per read);
// other globals stay; arg/result attributes go, function attributes stay.
builtin.module attributes {hip.constants_file = "model.constants.bin", keep.me} {
  memref.global "private" constant @small : memref<2xf32> = dense<[1.0, 2.0]>
  memref.global "private" @w : memref<256xf16> {alignment = 64 : i64, hip.external_data = {offset = 1024 : i64, size = 512 : i64}}
  memref.global "private" @b : memref<2x3xi64> {hip.external_data = {offset = 0 : i64, size = 48 : i64}}
  func.func @f(%ctx: !hip.context {test.arg}, %c: i1) -> (memref<256xf16> {test.res}) attributes {test.keep} {
    %s = memref.get_global @small : memref<2xf32>
    scf.if %c {
      %b = memref.get_global @b : memref<2x3xi64>
      "test.use"(%b) : (memref<2x3xi64>) -> ()
      scf.yield
    }
    %w = memref.get_global @w : memref<256xf16>
    %w2 = memref.get_global @w : memref<256xf16>
    "test.use"(%s, %w2) : (memref<2xf32>, memref<256xf16>) -> ()
    func.return %w : memref<256xf16>
  }
  func.func @g() {
    func.return
  }
  func.func private @decl(i32)
}

// CHECK:      builtin.module attributes {keep.me} {
// CHECK-NEXT:   memref.global "private" constant @small : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT:   func.func @f(%ctx: !hip.context, %c: i1, %arg2: memref<?xi8>) -> memref<256xf16> attributes {test.keep} {
// CHECK-NEXT:     %s = memref.get_global @small : memref<2xf32>
// CHECK-NEXT:     scf.if %c {
// CHECK-NEXT:       %c0 = arith.constant 0 : index
// CHECK-NEXT:       %view = memref.view %arg2[%c0][] : memref<?xi8> to memref<2x3xi64>
// CHECK-NEXT:       "test.use"(%view) : (memref<2x3xi64>) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     %c1024 = arith.constant 1024 : index
// CHECK-NEXT:     %[[W:.+]] = memref.view %arg2[%c1024][] : memref<?xi8> to memref<256xf16>
// CHECK-NEXT:     %[[C:.+]] = arith.constant 1024 : index
// CHECK-NEXT:     %[[W2:.+]] = memref.view %arg2[%[[C]]][] : memref<?xi8> to memref<256xf16>
// CHECK-NEXT:     "test.use"(%s, %[[W2]]) : (memref<2xf32>, memref<256xf16>) -> ()
// CHECK-NEXT:     func.return %[[W]] : memref<256xf16>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @g(%arg0: memref<?xi8>) {
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @decl(i32) -> ()
// CHECK-NEXT: }

// -----

// A call to a function that now takes the blob passes the caller's blob on.
func.func @callee(%x: index) -> index {
  func.return %x : index
}
func.func @caller(%x: index) -> index {
  %r = func.call @callee(%x) : (index) -> index
  func.return %r : index
}

// CHECK:      func.func @callee(%x: index, %arg1: memref<?xi8>) -> index {
// CHECK:      func.func @caller(%x: index, %arg1: memref<?xi8>) -> index {
// CHECK-NEXT:   %r = func.call @callee(%x, %arg1) : (index, memref<?xi8>) -> index
