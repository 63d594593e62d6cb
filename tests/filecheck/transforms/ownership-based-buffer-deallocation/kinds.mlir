// RUN: xdsl-opt %s --allow-unregistered-dialect -p ownership-based-buffer-deallocation | filecheck %s

// Allocations and clones are owned (`true`); arguments are listed under
// `false`, through their base buffer; globals and allocas are not listed.
func.func @kinds(%ctx: !hip.context, %x: memref<4xf32>, %out: memref<4xf32>) {
  %g = memref.get_global @w : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  %a = memref.alloc() : memref<4xf32>
  hip.miopen.add(%ctx) ins(%x, %g : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %c = bufferization.clone %a : memref<4xf32> to memref<4xf32>
  hip.miopen.add(%ctx) ins(%c, %s : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  func.return
}
// CHECK-LABEL: func.func @kinds
// CHECK:         %false = arith.constant false
// CHECK:         %a = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    [[TA:%.*]] = arith.constant true
// CHECK:         %c = bufferization.clone %a
// CHECK-NEXT:    [[TC:%.*]] = arith.constant true
// CHECK:         %base_buffer, {{.*}} = memref.extract_strided_metadata %x
// CHECK-NEXT:    %base_buffer_1, {{.*}} = memref.extract_strided_metadata %out
// CHECK-NEXT:    bufferization.dealloc (%base_buffer, %base_buffer_1, %a, %c : memref<f32>, memref<f32>, memref<4xf32>, memref<4xf32>) if (%false, %false, [[TA]], [[TC]])
// CHECK-NEXT:    func.return

func.func @returns(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %g = memref.get_global @w : memref<4xf32>
  func.return %a, %x, %g : memref<4xf32>, memref<4xf32>, memref<4xf32>
}
// A returned buffer the function does not own (argument, global) is cloned;
// what is returned is retained.
// CHECK-LABEL: func.func @returns
// CHECK:         [[CX:%.*]] = bufferization.clone %x
// CHECK:         [[CG:%.*]] = bufferization.clone %g
// CHECK:         {{.*}} = bufferization.dealloc ({{.*}}, %a, [[CX]], [[CG]] : {{.*}}) if (%false, {{.*}}) retain (%a, [[CX]], [[CG]] : memref<4xf32>, memref<4xf32>, memref<4xf32>)
// CHECK-NEXT:    func.return %a, [[CX]], [[CG]]

func.func @nested(%c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    %a = memref.alloc() : memref<4xf32>
    "test.use"(%a) : (memref<4xf32>) -> ()
    scf.yield
  }
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloc(%i) : memref<?xf32>
    "test.use"(%b) : (memref<?xf32>) -> ()
  }
  func.return
}
// Nested blocks free their own allocations before their terminator.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.if %c {
// CHECK:           bufferization.dealloc (%a : memref<4xf32>) if ([[T1:%.*]])
// CHECK-NEXT:    }
// CHECK:         scf.for
// CHECK:           bufferization.dealloc (%b : memref<?xf32>) if ([[T2:%.*]])
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
