// RUN: xdsl-opt %s -p expand-realloc | filecheck %s

// Static sizes: the sizes are constants and the copy covers the old buffer.
func.func @grow(%m: memref<4xf32>) -> memref<8xf32> {
  %r = memref.realloc %m : memref<4xf32> to memref<8xf32>
  return %r : memref<8xf32>
}
// CHECK-LABEL: func.func @grow(%m: memref<4xf32>) -> memref<8xf32> {
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    [[GROWS:%.*]] = arith.cmpi ult, %c4, %c8 : index
// CHECK-NEXT:    [[R:%.*]] = scf.if [[GROWS]] -> (memref<8xf32>) {
// CHECK-NEXT:      %alloc = memref.alloc() : memref<8xf32>
// CHECK-NEXT:      %subview = memref.subview %alloc[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
// CHECK-NEXT:      "memref.copy"(%m, %subview) : (memref<4xf32>, memref<4xf32, strided<[1]>>) -> ()
// CHECK-NEXT:      memref.dealloc %m : memref<4xf32>
// CHECK-NEXT:      scf.yield %alloc : memref<8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %reinterpret_cast = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [1] : memref<4xf32> to memref<8xf32>
// CHECK-NEXT:      scf.yield %reinterpret_cast : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return [[R]] : memref<8xf32>
