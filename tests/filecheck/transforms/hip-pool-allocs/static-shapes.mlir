// RUN: xdsl-opt -p hip-pool-allocs %s | filecheck %s

// Static shapes, head dim 128: every size and offset is a constant, so the
// pass emits only constants and all of `hipdnn.buffer_offsets` is known.
// 2x16x128xf32 = 16384 bytes; 2x16x16xf16 = 1024 bytes; 3x5xi8 = 15 bytes,
// rounded to 256. Offsets 0, 16384, 17408, 17664; pool 34048.

func.func @heads(%ctx: !hip.context, %x: memref<2x16x128xf32>, %w: memref<128x128xf32>, %s: memref<2x16x16xf16>, %t: memref<3x5xi8>, %out: memref<2x16x128xf32>) {
  %q = memref.alloc() {alignment = 64 : i64} : memref<2x16x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%x, %w : memref<2x16x128xf32>, memref<128x128xf32>) outs(%q : memref<2x16x128xf32>)
  %h = memref.alloc() {alignment = 64 : i64} : memref<2x16x16xf16>
  hip.miopen.relu(%ctx) ins(%s : memref<2x16x16xf16>) outs(%h : memref<2x16x16xf16>)
  %b = memref.alloc() : memref<3x5xi8>
  hip.miopen.relu(%ctx) ins(%t : memref<3x5xi8>) outs(%b : memref<3x5xi8>)
  %k = memref.alloc() {alignment = 64 : i64} : memref<2x16x128xf32>
  hip.hipblaslt.matmul(%ctx) ins(%q, %w : memref<2x16x128xf32>, memref<128x128xf32>) outs(%k : memref<2x16x128xf32>)
  hip.miopen.relu(%ctx) ins(%k : memref<2x16x128xf32>) outs(%out : memref<2x16x128xf32>)
  memref.dealloc %q : memref<2x16x128xf32>
  memref.dealloc %h : memref<2x16x16xf16>
  memref.dealloc %b : memref<3x5xi8>
  memref.dealloc %k : memref<2x16x128xf32>
  func.return
}

// CHECK-LABEL: func.func @heads(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, 16384 : i64, 17408 : i64, 17664 : i64]}
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 34048 : index
// CHECK-NEXT:    %[[POOL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[O1:.*]] = arith.constant 16384 : index
// CHECK-NEXT:    %[[O2:.*]] = arith.constant 17408 : index
// CHECK-NEXT:    %[[O3:.*]] = arith.constant 17664 : index
// CHECK-NEXT:    %[[Q:.*]] = memref.view %[[POOL]][%[[O0]]][] : memref<?xi8> to memref<2x16x128xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul
// CHECK-NEXT:    %[[H:.*]] = memref.view %[[POOL]][%[[O1]]][] : memref<?xi8> to memref<2x16x16xf16>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[POOL]][%[[O2]]][] : memref<?xi8> to memref<3x5xi8>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    %[[K:.*]] = memref.view %[[POOL]][%[[O3]]][] : memref<?xi8> to memref<2x16x128xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%{{.*}}) ins(%[[Q]], %{{.*}} : {{.*}}) outs(%[[K]] : memref<2x16x128xf32>)
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    memref.dealloc %[[POOL]] : memref<?xi8>
// CHECK-NEXT:    func.return
