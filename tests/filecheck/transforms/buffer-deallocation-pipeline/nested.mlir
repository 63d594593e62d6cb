// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

// Allocations inside scf.if / scf.for are freed at the end of their block;
// the outer one at the end of the function, after its last use in the loop.
func.func @nested(%ctx: !hip.context, %c: i1, %n: index, %x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %outer = memref.alloc() : memref<4xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4xf32>) outs(%outer : memref<4xf32>)
  scf.if %c {
    %a = memref.alloc() : memref<4xf32>
    hip.miopen.relu(%ctx) ins(%outer : memref<4xf32>) outs(%a : memref<4xf32>)
    hip.miopen.relu(%ctx) ins(%a : memref<4xf32>) outs(%y : memref<4xf32>)
  }
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloc() : memref<4xf32>
    hip.miopen.relu(%ctx) ins(%outer : memref<4xf32>) outs(%b : memref<4xf32>)
  }
  func.return
}
// CHECK-LABEL: func.func @nested
// CHECK:         scf.if %c {
// CHECK:           hip.miopen.relu(%ctx) ins(%a : memref<4xf32>) outs(%y : memref<4xf32>)
// CHECK-NEXT:      memref.dealloc %a : memref<4xf32>
// CHECK-NEXT:    }
// CHECK:         scf.for
// CHECK:           hip.miopen.relu(%ctx) ins(%outer : memref<4xf32>) outs(%b : memref<4xf32>)
// CHECK-NEXT:      memref.dealloc %b : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %outer : memref<4xf32>
// CHECK-NEXT:    func.return
