// ONNX Runtime's `com.microsoft` QuantizeLinear and DequantizeLinear import
// as the default domain's ops (`onnx_importer.contrib_ops`), with their
// defaults filled in; `contrib_extra_rules` types their results: the zero
// point's type (int16 here), the scale's (f32). `convert-onnx-to-hip` then
// converts them as `transforms/convert-onnx-to-hip/quantize.mlir` shows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python %S/contrib_qdq_model.py -o %t/contrib_qdq.onnx
// RUN: xdsl-opt %t/contrib_qdq.onnx | filecheck %s

// CHECK:      func.func @main_graph(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CHECK:        %[[S:.*]] = "onnx.Constant"() {value = dense<[5.000000e-01, 2.500000e-01, 2.000000e+00]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %[[Z:.*]] = "onnx.Constant"() {value = dense<[-3, 0, 7]> : tensor<3xi16>} : () -> tensor<3xi16>
// CHECK-NEXT:   %[[T:.*]] = "onnx.Constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %[[Q:.*]] = "onnx.QuantizeLinear"(%arg0, %[[S]], %[[Z]]) <{axis = 1 : si64, block_size = 0 : si64, output_dtype = 0 : si64, precision = 0 : si64, saturate = 1 : si64}> {onnx_node_name = "q"} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:   %[[Y:.*]] = "onnx.DequantizeLinear"(%[[Q]], %[[T]]) <{axis = 1 : si64, block_size = 0 : si64, output_dtype = 0 : si64}> {onnx_node_name = "y"} : (tensor<2x3xi16>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   func.return %[[Y]] : tensor<2x3xf32>
