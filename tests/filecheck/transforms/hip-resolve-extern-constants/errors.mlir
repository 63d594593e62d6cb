// RUN: xdsl-opt %s -p hip-resolve-extern-constants --split-input-file --verify-diagnostics | filecheck %s

memref.global "private" @dyn : memref<?x4xf32> {hip.external_data = {offset = 0 : i64, size = 16 : i64}}

// CHECK: hip-resolve-extern-constants: @dyn has dynamic type memref<?x4xf32>; a view of the blob needs a static shape

// -----

memref.global "private" @strided : memref<4x4xf32, strided<[1, 4]>> {hip.external_data = {offset = 0 : i64, size = 64 : i64}}

// CHECK: hip-resolve-extern-constants: @strided has non-identity layout memref<4x4xf32, strided<[1, 4]>>; memref.view gives identity layouts only

// -----

memref.global "private" @short : memref<4x4xf32> {hip.external_data = {offset = 0 : i64, size = 60 : i64}}

// CHECK: hip-resolve-extern-constants: @short: hip.external_data size 60 is not the 64 bytes of memref<4x4xf32>

// -----

memref.global "private" @no_offset : memref<4xf32> {hip.external_data = {size = 16 : i64}}

// CHECK: hip-resolve-extern-constants: @no_offset: hip.external_data must be {offset = N, size = N}
