// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

memref.global "private" @g : memref<4xf32> {alignment = 3 : i64}
// CHECK: 'memref.global' alignment 3 is not a power of 2
