// RUN: xdsl-opt %s -p canonicalize | filecheck %s
// RUN: xdsl-opt %s -p cse | filecheck %s --check-prefix=CSE

// The compute ops' memory effects follow their mode: in tensor mode none, so an
// unused op goes and equal ops merge; in memref mode they read `ins` and write
// `outs`, so they stay and are never merged, not even when they write the
// same buffer twice.

func.func @tensor_mode(%ctx: !hip.context, %x: tensor<4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %unused = hip.miopen.exp(%ctx) ins(%x : tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  %a = hip.miopen.relu(%ctx) ins(%x : tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  %b = hip.miopen.relu(%ctx) ins(%x : tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  %c = hip.miopen.add(%ctx) ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}
// CHECK-LABEL: func.func @tensor_mode
// CHECK-NOT:     hip.miopen.exp
// CHECK:         hip.miopen.relu
// CHECK:         hip.miopen.add

// CSE-LABEL: func.func @tensor_mode
// CSE-NEXT:    %a = hip.miopen.relu(%ctx) ins(%x : tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
// CSE-NEXT:    %c = hip.miopen.add(%ctx) ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>) -> tensor<4xf32>
// CSE-NEXT:    func.return %c

func.func @memref_mode(%ctx: !hip.context, %x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
  hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
  func.return
}
// CHECK-LABEL: func.func @memref_mode
// CHECK-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
// CHECK-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
// CHECK-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
// CHECK-NEXT:    func.return

// CSE-LABEL: func.func @memref_mode
// CSE-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
// CSE-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
// CSE-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<4xf32>) outs(%z : memref<4xf32>)
// CSE-NEXT:    func.return
