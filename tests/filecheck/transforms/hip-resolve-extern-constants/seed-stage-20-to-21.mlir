// The seed's stage 20, in the module of stage 19 (the seed prints only its func),
// gives the seed's stage 21: the three externalized weights become views of a new
// trailing blob argument at their offsets, their globals and the module's
// hip.constants_file go, and the rebuilt signature keeps no argument attributes.
// RUN: sed -e '/func.func/,$d' %seed/after-pass-19-post-pool-cleanup.mlir > %t.mlir
// RUN: cat %seed/after-pass-20-hip-lower-allocs.mlir >> %t.mlir
// RUN: echo "}" >> %t.mlir
// RUN: xdsl-opt %t.mlir -p hip-resolve-extern-constants | filecheck %s

// CHECK:      builtin.module attributes {llvm.data_layout = "{{[^"]*}}", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// CHECK-NEXT:   memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}
// CHECK-NEXT:   func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<?x?x64xf32>, %arg3: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
// CHECK:          %0 = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:     %[[W0:.+]] = memref.view %arg3[%[[C0]]][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %c16384 = arith.constant 16384 : index
// CHECK-NEXT:     %[[W1:.+]] = memref.view %arg3[%c16384][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %c32768 = arith.constant 32768 : index
// CHECK-NEXT:     %[[W2:.+]] = memref.view %arg3[%c32768][] : memref<?xi8> to memref<64x64xf32>
// CHECK-NEXT:     %dim = memref.dim %arg1, %c0
// CHECK-NOT:      get_global
// CHECK:          hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[W0]] : {{.*}}, memref<64x64xf32>)
// CHECK:          hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[W1]] : {{.*}}, memref<64x64xf32>)
// CHECK:          hip.hipblaslt.matmul(%arg0) ins(%arg1, %[[W2]] : {{.*}}, memref<64x64xf32>)
// CHECK:          hip.miopen.mul(%arg0) ins(%{{.*}}, %0 : memref<?x?x?xf32>, memref<f32>)
// CHECK-NOT:  hip_ext_constant
