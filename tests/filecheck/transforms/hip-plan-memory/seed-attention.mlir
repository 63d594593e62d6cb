// RUN: xdsl-opt -p hip-plan-memory %seed/after-pass-21-hip-resolve-extern-constants.mlir | filecheck %s

// The seed's final IR: six views of one pool, each in its own slot (4A + 2B
// bytes with A = b*s*64*4, B = b*s*s*4 rounded up to 256). The planner puts K
// and the scores S at 0 (K is dead before S is written), Q above both, the
// scaled scores S' above S, K^T above K and Q, and V above everything it is live
// with. Each offset is the max of the ends below it, so the plan holds for every
// (b, s); the pool is max(A + 2B, 4A, 3A + B): at b=2, s=128 it is 320 KiB,
// the peak of live bytes, against the seed's 512 KiB.

// CHECK:       func.func @main_graph(
// CHECK-SAME:    hipdnn.buffer_offsets = [-1 : i64, 0 : i64, -1 : i64, -1 : i64, 0 : i64, -1 : i64]
// CHECK:         %[[BS:.*]] = arith.muli %dim, %dim_1 : index
// CHECK-NEXT:    %[[A:.*]] = arith.muli %[[BS]], %c256 : index
// CHECK-NEXT:    %[[BSS:.*]] = arith.muli %[[BS]], %dim_1 : index
// CHECK-NEXT:    %[[BSS4:.*]] = arith.muli %[[BSS]], %c4 : index
// CHECK-NEXT:    %[[ROUND:.*]] = arith.addi %[[BSS4]], %c255 : index
// CHECK-NEXT:    %[[CEIL:.*]] = arith.divui %[[ROUND]], %c256 : index
// CHECK-NEXT:    %[[B2:.*]] = arith.muli %[[CEIL]], %c512 : index
// CHECK-NEXT:    %[[A_2B:.*]] = arith.addi %[[A]], %[[B2]] : index
// CHECK-NEXT:    %[[A4:.*]] = arith.muli %[[BS]], %c1024 : index
// CHECK-NEXT:    %[[M1:.*]] = arith.maxui %[[A_2B]], %[[A4]] : index
// CHECK-NEXT:    %[[A3:.*]] = arith.muli %[[BS]], %c768 : index
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[CEIL]], %c256 : index
// CHECK-NEXT:    %[[A3_B:.*]] = arith.addi %[[A3]], %[[B]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.maxui %[[M1]], %[[A3_B]] : index
// CHECK-NEXT:    %[[QOFF:.*]] = arith.maxui %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[M2:.*]] = arith.maxui %[[B2]], %[[A3]] : index
// CHECK-NEXT:    %[[A2:.*]] = arith.muli %[[BS]], %c512 : index
// CHECK-NEXT:    %[[A2_B:.*]] = arith.addi %[[A2]], %[[B]] : index
// CHECK-NEXT:    %[[VOFF:.*]] = arith.maxui %[[M2]], %[[A2_B]] : index
// CHECK-NEXT:    %[[A_B:.*]] = arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[KTOFF:.*]] = arith.maxui %[[A2]], %[[A_B]] : index
// CHECK-NEXT:    %[[POOL:.*]] = hip.alloc(%arg0, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[Q:.*]] = memref.view %[[POOL]][%[[QOFF]]][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul
// CHECK-NEXT:    %[[K:.*]] = memref.view %[[POOL]][%c0][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul
// CHECK-NEXT:    %[[V:.*]] = memref.view %[[POOL]][%[[VOFF]]][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul
// CHECK-NEXT:    %[[KT:.*]] = memref.view %[[POOL]][%[[KTOFF]]][%dim, %dim_1] : memref<?xi8> to memref<?x64x?xf32>
// CHECK-NEXT:    hip.transpose(%arg0, %c1, %c2) ins(%[[K]] : memref<?x?x64xf32>) outs(%[[KT]] : memref<?x64x?xf32>)
// CHECK-NEXT:    %[[S:.*]] = memref.view %[[POOL]][%c0][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[Q]], %[[KT]] : {{.*}}) outs(%[[S]] : memref<?x?x?xf32>)
// CHECK-NEXT:    %[[S2:.*]] = memref.view %[[POOL]][%[[B]]][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?xf32>
// CHECK-NEXT:    hip.miopen.mul
// CHECK-NEXT:    hip.miopen.softmax
// CHECK-NEXT:    hip.hipblaslt.matmul(%arg0) ins(%[[S]], %[[V]] : {{.*}})
// CHECK-NEXT:    hip.free(%arg0, %[[POOL]]) : memref<?xi8>
// CHECK-NEXT:    func.return
