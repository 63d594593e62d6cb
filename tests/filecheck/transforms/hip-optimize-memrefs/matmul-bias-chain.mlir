// RUN: xdsl-opt -p hip-optimize-memrefs %s | filecheck %s

// Two linear layers, x @ w1 + b1 then @ w2 + b2, with head dim 128. The second
// matmul's output takes the first matmul's buffer (dead after the first add),
// and the second add's output takes the first add's (dead after the second
// matmul). The taken allocs and their deallocs go.

func.func @mlp(%ctx: !hip.context, %x: memref<?x?x128xf32>, %w1: memref<128x128xf32>, %b1: memref<128xf32>, %w2: memref<128x128xf32>, %b2: memref<128xf32>, %out: memref<?x?x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.dim %x, %c0 : memref<?x?x128xf32>
  %s = memref.dim %x, %c1 : memref<?x?x128xf32>
  %mm1 = memref.alloc(%b, %s) {alignment = 64 : i64} : memref<?x?x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %w1 : memref<?x?x128xf32>, memref<128x128xf32>) outs(%mm1 : memref<?x?x128xf32>)
  %add1 = memref.alloc(%b, %s) {alignment = 64 : i64} : memref<?x?x128xf32>
  hip.miopen.add(%ctx) ins(%mm1, %b1 : memref<?x?x128xf32>, memref<128xf32>) outs(%add1 : memref<?x?x128xf32>)
  %mm2 = memref.alloc(%b, %s) {alignment = 64 : i64} : memref<?x?x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%add1, %w2 : memref<?x?x128xf32>, memref<128x128xf32>) outs(%mm2 : memref<?x?x128xf32>)
  %add2 = memref.alloc(%b, %s) {alignment = 64 : i64} : memref<?x?x128xf32>
  hip.miopen.add(%ctx) ins(%mm2, %b2 : memref<?x?x128xf32>, memref<128xf32>) outs(%add2 : memref<?x?x128xf32>)
  hip.miopen.relu(%ctx) ins(%add2 : memref<?x?x128xf32>) outs(%out : memref<?x?x128xf32>)
  memref.dealloc %mm1 : memref<?x?x128xf32>
  memref.dealloc %add1 : memref<?x?x128xf32>
  memref.dealloc %mm2 : memref<?x?x128xf32>
  memref.dealloc %add2 : memref<?x?x128xf32>
  func.return
}

// CHECK-LABEL: func.func @mlp(
// CHECK:         %[[MM1:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?x128xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%{{.*}}) ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[MM1]] : memref<?x?x128xf32>)
// CHECK-NEXT:    %[[ADD1:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?x128xf32>
// CHECK-NEXT:    hip.miopen.add(%{{.*}}) ins(%[[MM1]], %{{.*}} : {{.*}}) outs(%[[ADD1]] : memref<?x?x128xf32>)
// CHECK-NEXT:    hip.hipblaslt.matmul(%{{.*}}) ins(%[[ADD1]], %{{.*}} : {{.*}}) outs(%[[MM1]] : memref<?x?x128xf32>)
// CHECK-NEXT:    hip.miopen.add(%{{.*}}) ins(%[[MM1]], %{{.*}} : {{.*}}) outs(%[[ADD1]] : memref<?x?x128xf32>)
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[ADD1]] : memref<?x?x128xf32>) outs(%{{.*}} : memref<?x?x128xf32>)
// CHECK-NEXT:    memref.dealloc %[[MM1]] : memref<?x?x128xf32>
// CHECK-NEXT:    memref.dealloc %[[ADD1]] : memref<?x?x128xf32>
// CHECK-NEXT:    func.return
