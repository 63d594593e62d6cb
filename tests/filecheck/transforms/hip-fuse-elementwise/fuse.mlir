// RUN: xdsl-opt %s -p hip-fuse-elementwise | filecheck %s

// The erf-GELU after a matmul (bert's final IR): six ops over three reused
// pool views become one; the views they wrote in between stay, unwritten.
// CHECK-LABEL: func.func @gelu
// CHECK:         hip.hipblaslt.matmul
// CHECK-NEXT:    %v48 = memref.view
// CHECK-NEXT:    hip.fused_elementwise(%ctx) ins(%b, %v46, %c2, %c1, %c0 : memref<64xf32>, memref<?x64xf32>, memref<f32>, memref<f32>, memref<f32>) outs(%v46 : memref<?x64xf32>) {body = "add(x0, x1) : f32; div(s0, x2) : f32; erf(s1) : f32; add(s2, x3) : f32; mul(s0, s3) : f32; mul(s4, x4) : f32"}
// CHECK-NEXT:    hip.hipblaslt.matmul
func.func @gelu(%ctx: !hip.context, %h: memref<?x64xf32>, %b: memref<64xf32>, %c0: memref<f32>, %c1: memref<f32>, %c2: memref<f32>, %pool: memref<?xi8>, %y: memref<?x64xf32>) {
  %i0 = arith.constant 0 : index
  %o1 = arith.constant 4096 : index
  %o2 = arith.constant 8192 : index
  %n = memref.dim %h, %i0 : memref<?x64xf32>
  %v46 = memref.view %pool[%i0][%n] : memref<?xi8> to memref<?x64xf32>
  %v47 = memref.view %pool[%o1][%n] : memref<?xi8> to memref<?x64xf32>
  hip.hipblaslt.matmul(%ctx) ins(%h, %h : memref<?x64xf32>, memref<?x64xf32>) outs(%v46 : memref<?x64xf32>)
  hip.miopen.add(%ctx) ins(%b, %v46 : memref<64xf32>, memref<?x64xf32>) outs(%v47 : memref<?x64xf32>)
  hip.miopen.div(%ctx) ins(%v47, %c2 : memref<?x64xf32>, memref<f32>) outs(%v46 : memref<?x64xf32>)
  %v48 = memref.view %pool[%o2][%n] : memref<?xi8> to memref<?x64xf32>
  hip.miopen.erf(%ctx) ins(%v46 : memref<?x64xf32>) outs(%v48 : memref<?x64xf32>)
  hip.miopen.add(%ctx) ins(%v48, %c1 : memref<?x64xf32>, memref<f32>) outs(%v46 : memref<?x64xf32>)
  hip.miopen.mul(%ctx) ins(%v47, %v46 : memref<?x64xf32>, memref<?x64xf32>) outs(%v48 : memref<?x64xf32>)
  hip.miopen.mul(%ctx) ins(%v48, %c0 : memref<?x64xf32>, memref<f32>) outs(%v46 : memref<?x64xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%v46, %h : memref<?x64xf32>, memref<?x64xf32>) outs(%y : memref<?x64xf32>)
  func.return
}

// Comparisons, logic, casts and params fuse too (a mask built from ints);
// the attribute of leaky_relu is the step's bracketed param.
// CHECK-LABEL: func.func @mixed_types
// CHECK-NEXT:    %m = memref.alloc()
// CHECK-NEXT:    %f = memref.alloc()
// CHECK-NEXT:    hip.fused_elementwise(%ctx) ins(%i, %k, %x : memref<8xi64>, memref<i64>, memref<8xf32>) outs(%y : memref<8xf32>) {body = "greater_or_equal(x0, x1) : i1; cast(s0) : f32; mul(s1, x2) : f32; leaky_relu[0.01](s2) : f32"}
// CHECK-NEXT:    memref.dealloc %m : memref<8xi1>
func.func @mixed_types(%ctx: !hip.context, %i: memref<8xi64>, %k: memref<i64>, %x: memref<8xf32>, %y: memref<8xf32>) {
  %m = memref.alloc() : memref<8xi1>
  %f = memref.alloc() : memref<8xf32>
  hip.miopen.greater_or_equal(%ctx) ins(%i, %k : memref<8xi64>, memref<i64>) outs(%m : memref<8xi1>)
  hip.cast(%ctx) ins(%m : memref<8xi1>) outs(%f : memref<8xf32>)
  hip.miopen.mul(%ctx) ins(%f, %x : memref<8xf32>, memref<8xf32>) outs(%f : memref<8xf32>)
  hip.miopen.leaky_relu(%ctx) ins(%f : memref<8xf32>) outs(%y : memref<8xf32>) {alpha = 1.000000e-02 : f64}
  memref.dealloc %m : memref<8xi1>
  memref.dealloc %f : memref<8xf32>
  func.return
}

// An intermediate that is read again later, or that is a function argument,
// is observable: its op stays.
// CHECK-LABEL: func.func @observable
// CHECK-NEXT:    %u = memref.alloc()
// CHECK-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<8xf32>) outs(%t : memref<8xf32>)
// CHECK-NEXT:    hip.miopen.neg(%ctx) ins(%t : memref<8xf32>) outs(%y : memref<8xf32>)
// CHECK-NEXT:    hip.miopen.exp(%ctx) ins(%x : memref<8xf32>) outs(%u : memref<8xf32>)
// CHECK-NEXT:    hip.miopen.neg(%ctx) ins(%u : memref<8xf32>) outs(%z : memref<8xf32>)
// CHECK-NEXT:    "memref.copy"(%u, %w)
func.func @observable(%ctx: !hip.context, %x: memref<8xf32>, %t: memref<8xf32>, %y: memref<8xf32>, %z: memref<8xf32>, %w: memref<8xf32>) {
  %u = memref.alloc() : memref<8xf32>
  hip.miopen.exp(%ctx) ins(%x : memref<8xf32>) outs(%t : memref<8xf32>)
  hip.miopen.neg(%ctx) ins(%t : memref<8xf32>) outs(%y : memref<8xf32>)
  hip.miopen.exp(%ctx) ins(%x : memref<8xf32>) outs(%u : memref<8xf32>)
  hip.miopen.neg(%ctx) ins(%u : memref<8xf32>) outs(%z : memref<8xf32>)
  "memref.copy"(%u, %w) : (memref<8xf32>, memref<8xf32>) -> ()
  func.return
}

// An op between the two that writes memory ends the run; tensor mode is left
// alone.
// CHECK-LABEL: func.func @not_a_run
// CHECK-NEXT:    %t = memref.alloc()
// CHECK-NEXT:    hip.miopen.exp
// CHECK-NEXT:    "memref.copy"
// CHECK-NEXT:    hip.miopen.neg
// CHECK-NEXT:    hip.miopen.exp
// CHECK-NEXT:    hip.miopen.neg
func.func @not_a_run(%ctx: !hip.context, %x: memref<8xf32>, %y: memref<8xf32>, %w: memref<8xf32>, %a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %t = memref.alloc() : memref<8xf32>
  hip.miopen.exp(%ctx) ins(%x : memref<8xf32>) outs(%t : memref<8xf32>)
  "memref.copy"(%x, %w) : (memref<8xf32>, memref<8xf32>) -> ()
  hip.miopen.neg(%ctx) ins(%t : memref<8xf32>) outs(%y : memref<8xf32>)
  %e = hip.miopen.exp(%ctx) ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
  %n = hip.miopen.neg(%ctx) ins(%e : tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
  memref.dealloc %t : memref<8xf32>
  func.return %n : tensor<8xf32>
}
