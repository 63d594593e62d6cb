// RUN: xdsl-opt -p hip-pool-allocs %s | filecheck %s

// Byte sizes follow the element type: n x 3 x f16 is 6n bytes, rounded up to
// 256 at run time; n x 64 x i32 is 256n bytes, already a multiple of 256, so
// it is not rounded. Offsets: 0, align(6n); pool align(6n) + 256n.

func.func @types(%ctx: !hip.context, %h: memref<?x3xf16>, %i: memref<?x64xi32>, %oh: memref<?x3xf16>, %oi: memref<?x64xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %h, %c0 : memref<?x3xf16>
  %a = memref.alloc(%n) : memref<?x3xf16>
  hip.miopen.relu(%ctx) ins(%h : memref<?x3xf16>) outs(%a : memref<?x3xf16>)
  %b = memref.alloc(%n) : memref<?x64xi32>
  hip.miopen.relu(%ctx) ins(%i : memref<?x64xi32>) outs(%b : memref<?x64xi32>)
  hip.miopen.relu(%ctx) ins(%a : memref<?x3xf16>) outs(%oh : memref<?x3xf16>)
  hip.miopen.relu(%ctx) ins(%b : memref<?x64xi32>) outs(%oi : memref<?x64xi32>)
  memref.dealloc %a : memref<?x3xf16>
  memref.dealloc %b : memref<?x64xi32>
  func.return
}

// CHECK-LABEL: func.func @types(
// CHECK-SAME:    attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64]}
// CHECK:         %[[N:.*]] = memref.dim
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[N256:.*]] = arith.muli %[[N]], %[[C256]] : index
// CHECK-NEXT:    %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[B6:.*]] = arith.muli %[[N]], %[[C6]] : index
// CHECK-NEXT:    %[[C255:.*]] = arith.constant 255 : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[B6]], %[[C255]] : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[UP]], %[[C256]] : index
// CHECK-NEXT:    %[[Q256:.*]] = arith.muli %[[Q]], %[[C256]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %[[N256]], %[[Q256]] : index
// CHECK-NEXT:    %[[POOL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    memref.view %[[POOL]][%c0][%[[N]]] : memref<?xi8> to memref<?x3xf16>
// CHECK-NEXT:    hip.miopen.relu
// CHECK-NEXT:    memref.view %[[POOL]][%[[Q256]]][%[[N]]] : memref<?xi8> to memref<?x64xi32>
