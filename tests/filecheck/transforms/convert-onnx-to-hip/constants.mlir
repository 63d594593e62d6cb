// RUN: rm -rf %t && xdsl-opt %s -p 'convert-onnx-to-hip{externalize-min-num-elements=4 externalize-output-dir="%t"}' | filecheck %s
// RUN: od -A d -t f4 -v %t/model.constants.bin | filecheck %s --check-prefix=BYTES
// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s --check-prefix=INLINE

// Constants with >= N elements go to the constants file in program order, each
// at a 64-byte aligned offset (5 floats = 20 bytes, then padding to 64); their
// globals are inserted at the module start, so they print in reverse. Smaller
// ones become `arith.constant`s at the function start, uniqued like MLIR's
// folder does (the two equal scalars share one). The unused constant vanishes:
// two globals, two constants in the file, three inline constants.
// A dense_resource with a blob is read from the blob.

func.func @f(%ctx: !hip.context, %x: tensor<5xf32>) -> (tensor<5xf32>, tensor<2x2xf32>) {
  %0 = "onnx.Constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>} : () -> tensor<5xf32>
  %1 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "onnx.Constant"() {value = dense_resource<blob> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %3 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %4 = "onnx.Constant"() {value = dense<7.0> : tensor<9xf32>} : () -> tensor<9xf32>
  %5 = "onnx.Add"(%x, %0) {onnx_node_name = "a"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %6 = "onnx.Mul"(%5, %1) {onnx_node_name = "b"} : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  %7 = "onnx.MatMul"(%2, %2) {onnx_node_name = "c"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %8 = "onnx.Div"(%6, %3) {onnx_node_name = "d"} : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %8, %7 : tensor<5xf32>, tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// CHECK:      builtin.module attributes {hip.constants_file = "model.constants.bin"} {
// CHECK-NEXT:   memref.global "private" @hip_ext_constant_1 : memref<2x2xf32> {alignment = 64 : i64, hip.external_data = {offset = 64 : i64, size = 16 : i64}}
// CHECK-NEXT:   memref.global "private" @hip_ext_constant_0 : memref<5xf32> {alignment = 64 : i64, hip.external_data = {offset = 0 : i64, size = 20 : i64}}
// CHECK-NEXT:   func.func @f
// CHECK-NEXT:     %cst = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:     %0 = memref.get_global @hip_ext_constant_0 : memref<5xf32>
// CHECK-NEXT:     %1 = bufferization.to_tensor %0 restrict : memref<5xf32> to tensor<5xf32>
// CHECK-NEXT:     %2 = memref.get_global @hip_ext_constant_1 : memref<2x2xf32>
// CHECK-NEXT:     %3 = bufferization.to_tensor %2 restrict : memref<2x2xf32> to tensor<2x2xf32>
// CHECK-NEXT:     %4 = tensor.empty() : tensor<5xf32>
// CHECK-NEXT:     %5 = hip.miopen.add(%ctx) ins(%x, %1 : tensor<5xf32>, tensor<5xf32>)
// CHECK:          hip.miopen.mul(%ctx) ins(%5, %cst : tensor<5xf32>, tensor<f32>)
// CHECK:          hip.hipblaslt.matmul(%ctx) ins(%3, %3 : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK:          hip.miopen.div(%ctx) ins(%{{.*}}, %cst : tensor<5xf32>, tensor<f32>)

// BYTES:      0000000 1 2 3 4
// BYTES-NEXT: 0000016 5 0 0 0
// BYTES-NEXT: 0000032 0 0 0 0
// BYTES-NEXT: 0000048 0 0 0 0
// BYTES-NEXT: 0000064 1 2 3 4
// BYTES-NEXT: 0000080

// INLINE:      builtin.module {
// INLINE-NEXT:   func.func @f
// INLINE-NEXT:     %cst = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// INLINE-NEXT:     %cst_1 = arith.constant dense<2.000000e+00> : tensor<f32>
// INLINE-NEXT:     %cst_2 = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<5xf32>
// INLINE-NEXT:     %0 = tensor.empty() : tensor<5xf32>
