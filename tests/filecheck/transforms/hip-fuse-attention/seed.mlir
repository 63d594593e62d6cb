// RUN: xdsl-opt %seed/after-pass-21-hip-resolve-extern-constants.mlir -p hip-fuse-attention | filecheck %s

// The seed's attention: Q K^T, the mul by 0.125, the softmax in place and the
// matmul by V are one op writing the output; the scores' view goes, the
// transposed K stays (the first matmul's operand).
// CHECK-LABEL: func.func @main_graph
// CHECK:         hip.transpose(%arg0, %c1, %c2) ins(%view_4 : memref<?x?x64xf32>) outs(%view_6 : memref<?x64x?xf32>)
// CHECK-NEXT:    hip.fused_attention(%arg0) ins(%view_3, %view_6, %view_5, %0 : memref<?x?x64xf32>, memref<?x64x?xf32>, memref<?x?x64xf32>, memref<f32>) outs(%arg2 : memref<?x?x64xf32>) {scaling = "mul"}
// CHECK-NEXT:    hip.free(%arg0, %{{.*}}) : memref<?xi8>
// CHECK-NOT:     hip.miopen
// CHECK-NOT:     hip.hipblaslt.matmul(%arg0) ins(%view_3
