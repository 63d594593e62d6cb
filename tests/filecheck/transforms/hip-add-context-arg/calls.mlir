// RUN: xdsl-opt %s -p hip-add-context-arg | filecheck %s

// A call to a function that now takes the context passes the caller's, also
// from inside a nested region; a call to a declaration is left alone.

func.func private @extern(tensor<4xf32>) -> tensor<4xf32>

func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @extern(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = scf.execute_region -> tensor<4xf32> {
    %3 = func.call @callee(%1) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %3 : tensor<4xf32>
  }
  func.return %2 : tensor<4xf32>
}
// CHECK:      func.func @caller(%arg0: !hip.context, %x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %0 = func.call @callee(%arg0, %x) : (!hip.context, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %1 = func.call @extern(%0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %2 = scf.execute_region -> (tensor<4xf32>) {
// CHECK-NEXT:     %3 = func.call @callee(%arg0, %1) : (!hip.context, tensor<4xf32>) -> tensor<4xf32>
