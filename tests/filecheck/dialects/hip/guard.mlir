// RUN: xdsl-opt %s --split-input-file --verify-diagnostics -p canonicalize,cse | filecheck %s

// `hip.guard` may stop the call: neither canonicalize nor cse erases or merges
// it, though it has no results.
func.func @kept(%ctx: !hip.context, %axes: memref<2xi64>) {
  %0, %1 = hip.readback(%ctx) %axes : memref<2xi64> -> index, index
  hip.guard %0, %1 expects [0, 2]
  hip.guard %0, %1 expects [0, 2]
  func.return
}
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %0, %1 = hip.readback(%ctx) %axes : memref<2xi64> -> index, index
// CHECK-NEXT:    hip.guard %0, %1 expects [0, 2]
// CHECK-NEXT:    hip.guard %0, %1 expects [0, 2]
// CHECK-NEXT:    func.return

// -----

func.func @count(%ctx: !hip.context, %axes: memref<2xi64>) {
  %0, %1 = hip.readback(%ctx) %axes : memref<2xi64> -> index, index
  hip.guard %0, %1 expects [0]
  func.return
}
// CHECK: 'hip.guard' compares 2 values with 1 expected ones
