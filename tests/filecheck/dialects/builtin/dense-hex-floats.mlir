// RUN: xdsl-opt %s --allow-unregistered-dialect | xdsl-opt --allow-unregistered-dialect | filecheck %s

// A hexadecimal integer in a float dense literal is the element's bit pattern,
// as in MLIR; xDSL's printer writes NaN and the infinities that way, and its
// parser read them as numbers (-inf as 4.28657869e+09) until `xhip.xdsl_fixes`.
// Printed, parsed and printed again, each keeps its bits.

"test.op"() {
  neg_inf = dense<0xFF800000> : tensor<1xf32>,
  mixed = dense<[1.5, 0x7FC00000, 0x7F800000, 0x10]> : tensor<4xf32>,
  half = dense<0xFC00> : tensor<2xf16>,
  brain = dense<0x7F80> : tensor<bf16>,
  double = dense<0xFFF0000000000000> : tensor<f64>,
  decimal = dense<5> : tensor<f32>,
  ints = dense<[0x10, 3]> : tensor<2xi32>
} : () -> ()

// CHECK:      "test.op"() {neg_inf = dense<0xff800000> : tensor<1xf32>,
// CHECK-SAME: mixed = dense<[1.500000e+00, 0x7fc00000, 0x7f800000, 2.242080e-44]> : tensor<4xf32>,
// CHECK-SAME: half = dense<0xfc00> : tensor<2xf16>,
// CHECK-SAME: brain = dense<0x7f80> : tensor<bf16>,
// CHECK-SAME: double = dense<0xfff0000000000000> : tensor<f64>,
// CHECK-SAME: decimal = dense<5.000000e+00> : tensor<f32>,
// CHECK-SAME: ints = dense<[16, 3]> : tensor<2xi32>}
