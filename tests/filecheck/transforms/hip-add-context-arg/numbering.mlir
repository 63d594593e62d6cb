// RUN: xdsl-opt %s -p hip-add-context-arg | filecheck %s

// Arguments named by position (`%argN`, as MLIR prints them) are renumbered so
// the context is `%arg0`; arguments with other names keep them.

func.func @f(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  func.return %arg1 : tensor<2xf32>
}

// CHECK: func.func @f(%arg0: !hip.context, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: func.return %arg2 : tensor<2xf32>
