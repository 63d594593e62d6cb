// RUN: xdsl-opt -p hip-plan-memory %s | filecheck %s

// Static shapes: a chain of 1 KiB buffers (each read once by the next op) and a
// 64-byte one %view_1 live to the end. `hip-pool-allocs` gave each its own
// 256-aligned slot (4352 bytes); live at once are at most two 1 KiB buffers
// and %view_1 (256 bytes aligned), so the planner's pool is 2304 bytes: the
// chain alternates between offsets 0 and 1024 and %view_1 sits above them.

func.func @chain(%ctx: !hip.context, %x: memref<16x16xf32>, %y: memref<1x16xf32>, %out: memref<16x16xf32>) attributes {hipdnn.buffer_offsets = [0 : i64, 1024 : i64, 1280 : i64, 2304 : i64, 3328 : i64]} {
  %c4352 = arith.constant 4352 : index
  %alloc = memref.alloc(%c4352) : memref<?xi8>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c1280 = arith.constant 1280 : index
  %c2304 = arith.constant 2304 : index
  %c3328 = arith.constant 3328 : index
  %view = memref.view %alloc[%c0][] : memref<?xi8> to memref<16x16xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<16x16xf32>) outs(%view : memref<16x16xf32>)
  %view_1 = memref.view %alloc[%c1024][] : memref<?xi8> to memref<1x16xf32>
  hip.miopen.relu(%ctx) ins(%y : memref<1x16xf32>) outs(%view_1 : memref<1x16xf32>)
  %view_2 = memref.view %alloc[%c1280][] : memref<?xi8> to memref<16x16xf32>
  hip.miopen.relu(%ctx) ins(%view : memref<16x16xf32>) outs(%view_2 : memref<16x16xf32>)
  %view_3 = memref.view %alloc[%c2304][] : memref<?xi8> to memref<16x16xf32>
  hip.miopen.relu(%ctx) ins(%view_2 : memref<16x16xf32>) outs(%view_3 : memref<16x16xf32>)
  %view_4 = memref.view %alloc[%c3328][] : memref<?xi8> to memref<16x16xf32>
  hip.miopen.relu(%ctx) ins(%view_3 : memref<16x16xf32>) outs(%view_4 : memref<16x16xf32>)
  hip.miopen.add(%ctx) ins(%view_4, %view_1 : memref<16x16xf32>, memref<1x16xf32>) outs(%out : memref<16x16xf32>)
  memref.dealloc %alloc : memref<?xi8>
  func.return
}

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, 2048 : i64, 1024 : i64, 0 : i64, 1024 : i64]}
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 2304 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C2048:.*]] = arith.constant 2048 : index
// CHECK-NEXT:    %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[POOL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[POOL]][%[[C0]]][] : memref<?xi8> to memref<16x16xf32>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    %[[S:.*]] = memref.view %[[POOL]][%[[C2048]]][] : memref<?xi8> to memref<1x16xf32>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[POOL]][%[[C1024]]][] : memref<?xi8> to memref<16x16xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[A]] : memref<16x16xf32>) outs(%[[B]] : memref<16x16xf32>)
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[POOL]][%[[C0]]][] : memref<?xi8> to memref<16x16xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[B]] : memref<16x16xf32>) outs(%[[C]] : memref<16x16xf32>)
// CHECK-NEXT:    %[[D:.*]] = memref.view %[[POOL]][%[[C1024]]][] : memref<?xi8> to memref<16x16xf32>
// CHECK-NEXT:    hip.miopen.relu(%{{.*}}) ins(%[[C]] : memref<16x16xf32>) outs(%[[D]] : memref<16x16xf32>)
// CHECK-NEXT:    hip.miopen.add(%{{.*}}) ins(%[[D]], %[[S]] : memref<16x16xf32>, memref<1x16xf32>)
// CHECK-NEXT:    memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    func.return
