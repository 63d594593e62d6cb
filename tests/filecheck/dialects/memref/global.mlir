// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// MLIR's custom syntax: visibility, `constant`, an initial value whose type is elided.
memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}
// CHECK: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}

memref.global "private" constant @__constant_2x2xf32 : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
// CHECK-NEXT: memref.global "private" constant @__constant_2x2xf32 : memref<2x2xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>

// No initial value: an external declaration; discardable attributes follow the alignment.
memref.global "private" @ext : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 16384 : i64}}
// CHECK-NEXT: memref.global "private" @ext : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 16384 : i64}}

memref.global @pub : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global @pub : memref<4xi32> = uninitialized
