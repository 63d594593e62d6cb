// RUN: xdsl-opt -p 'hip-pool-allocs{alignment=64}' %s | filecheck %s --check-prefix=ALIGN64
// RUN: not xdsl-opt -p 'hip-pool-allocs{strategy=best}' %s 2>&1 | filecheck %s --check-prefix=BADSTRATEGY
// RUN: not xdsl-opt -p 'hip-pool-allocs{alignment=48}' %s 2>&1 | filecheck %s --check-prefix=BADALIGN

// `alignment` sets the slot alignment: 10 x f32 = 40 bytes takes a 64-byte slot.

func.func @small(%ctx: !hip.context, %x: memref<10xf32>, %out: memref<10xf32>) {
  %a = memref.alloc() : memref<10xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<10xf32>) outs(%a : memref<10xf32>)
  %b = memref.alloc() : memref<10xf32>
  hip.miopen.relu(%ctx) ins(%a : memref<10xf32>) outs(%b : memref<10xf32>)
  hip.miopen.relu(%ctx) ins(%b : memref<10xf32>) outs(%out : memref<10xf32>)
  memref.dealloc %a : memref<10xf32>
  memref.dealloc %b : memref<10xf32>
  func.return
}

// ALIGN64:      hipdnn.buffer_offsets = [0 : i64, 64 : i64]
// ALIGN64:      arith.constant 128 : index

// BADSTRATEGY: unknown strategy 'best'; expected one of bump, reuse
// BADALIGN:    alignment 48 is not a power of 2
