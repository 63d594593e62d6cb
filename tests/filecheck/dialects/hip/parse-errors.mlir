// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @missing_context(%a: memref<4xf32>, %c: memref<4xf32>) {
  hip.miopen.relu() ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}
// CHECK: 'hip.miopen.relu' expects the context in parentheses, got 0 operands

// -----

func.func @transpose_needs_dims(%ctx: !hip.context, %a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  hip.transpose(%ctx) ins(%a : memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  func.return
}
// CHECK: 'hip.transpose' expects the context and 2 index operands in parentheses, got 1 operands

// -----

func.func @types_and_operands(%ctx: !hip.context, %a: memref<4xf32>, %c: memref<4xf32>) {
  hip.miopen.relu(%ctx) ins(%a, %a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}
// CHECK: ins: number of operands and types differ
