// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

// Two returned allocations are not freed; the temporary is. A returned
// argument is cloned (the caller owns what it gets back).
func.func @two_outputs(%ctx: !hip.context, %x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %a = memref.alloc() : memref<4xf32>
  hip.miopen.add(%ctx) ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  hip.miopen.mul(%ctx) ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  func.return %a, %b : memref<4xf32>, memref<4xf32>
}
// CHECK-LABEL: func.func @two_outputs
// CHECK:         hip.miopen.mul
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return %a, %b : memref<4xf32>, memref<4xf32>

func.func @returned_argument(%x: memref<4xf32>) -> memref<4xf32> {
  func.return %x : memref<4xf32>
}
// CHECK-LABEL: func.func @returned_argument
// CHECK-NEXT:    [[C:%.*]] = bufferization.clone %x : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    func.return [[C]] : memref<4xf32>
