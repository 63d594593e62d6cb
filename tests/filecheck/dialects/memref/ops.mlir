// RUN: xdsl-opt %s | xdsl-opt | filecheck %s

func.func @cast(%m: memref<?x?x64xf32>) -> memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>> {
  %0 = memref.cast %m : memref<?x?x64xf32> to memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
  func.return %0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
}
// CHECK: %0 = memref.cast %m : memref<?x?x64xf32> to memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>

func.func @realloc(%m: memref<?xf32>, %n: index) -> memref<?xf32> {
  %0 = memref.realloc %m(%n) : memref<?xf32> to memref<?xf32>
  %1 = memref.realloc %0 : memref<?xf32> to memref<8xf32>
  func.return %0 : memref<?xf32>
}
// CHECK:      %0 = memref.realloc %m(%n) : memref<?xf32> to memref<?xf32>
// CHECK-NEXT: %1 = memref.realloc %0 : memref<?xf32> to memref<8xf32>

func.func @view(%pool: memref<?xi8>, %off: index, %d: index) {
  %0 = memref.view %pool[%off][%d] : memref<?xi8> to memref<?x64xf32>
  func.return
}
// CHECK: %0 = memref.view %pool[%off][%d] : memref<?xi8> to memref<?x64xf32>
