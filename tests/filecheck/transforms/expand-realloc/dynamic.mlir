// RUN: xdsl-opt %s -p expand-realloc | filecheck %s
// RUN: xdsl-opt %s -p 'expand-realloc{emit_deallocs=false}' | filecheck %s --check-prefix=KEEP

// Dynamic sizes: the old size is read with memref.dim; the alignment is kept.
func.func @dyn(%m: memref<?xf32>, %n: index) -> memref<?xf32> {
  %r = memref.realloc %m(%n) {alignment = 8} : memref<?xf32> to memref<?xf32>
  return %r : memref<?xf32>
}
// CHECK-LABEL: func.func @dyn(%m: memref<?xf32>, %n: index) -> memref<?xf32> {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = memref.dim %m, %c0 : memref<?xf32>
// CHECK-NEXT:    [[GROWS:%.*]] = arith.cmpi ult, %dim, %n : index
// CHECK-NEXT:    [[R:%.*]] = scf.if [[GROWS]] -> (memref<?xf32>) {
// CHECK-NEXT:      %alloc = memref.alloc(%n) {alignment = 8 : i64} : memref<?xf32>
// CHECK-NEXT:      %subview = memref.subview %alloc[0] [%dim] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
// CHECK-NEXT:      "memref.copy"(%m, %subview) : (memref<?xf32>, memref<?xf32, strided<[1]>>) -> ()
// CHECK-NEXT:      memref.dealloc %m : memref<?xf32>
// CHECK-NEXT:      scf.yield %alloc : memref<?xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %reinterpret_cast = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32>
// CHECK-NEXT:      scf.yield %reinterpret_cast : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return [[R]] : memref<?xf32>

// With emit_deallocs=false the old buffer is left to the deallocation pass.
// KEEP:     "memref.copy"
// KEEP-NOT: memref.dealloc
// KEEP:     scf.yield %alloc
